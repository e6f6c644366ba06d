import { AgentCatalogModule } from './agent-catalog/agent-catalog.module';
import { EventModule } from './event/event.module';
import { NetworkLinkTypeModule } from './network-link-type/network-link-type.module';

/** Every resource family of the service. Adding a family adds its module here, and nothing else. */
export const FAMILY_MODULES = [EventModule, NetworkLinkTypeModule, AgentCatalogModule];
