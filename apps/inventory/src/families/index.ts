import { AgentCatalogModule } from './agent-catalog/agent-catalog.module';
import { AgentInstanceModule } from './agent-instance/agent-instance.module';
import { AlgorithmCatalogModule } from './algorithm-catalog/algorithm-catalog.module';
import { AlgorithmInstanceModule } from './algorithm-instance/algorithm-instance.module';
import { ConnectionModule } from './connection/connection.module';
import { DataModule } from './data/data.module';
import { EbpfProgramCatalogModule } from './ebpf-program-catalog/ebpf-program-catalog.module';
import { EbpfProgramInstanceModule } from './ebpf-program-instance/ebpf-program-instance.module';
import { EventModule } from './event/event.module';
import { ExecEnvModule } from './exec-env/exec-env.module';
import { ExecEnvTypeModule } from './exec-env-type/exec-env-type.module';
import { NetworkLinkModule } from './network-link/network-link.module';
import { NetworkLinkTypeModule } from './network-link-type/network-link-type.module';
import { PipelineModule } from './pipeline/pipeline.module';

/** Every resource family of the service. Adding a family adds its module here, and nothing else. */
export const FAMILY_MODULES = [
  EventModule,
  NetworkLinkTypeModule,
  AgentCatalogModule,
  ExecEnvTypeModule,
  ExecEnvModule,
  NetworkLinkModule,
  ConnectionModule,
  DataModule,
  AgentInstanceModule,
  EbpfProgramCatalogModule,
  EbpfProgramInstanceModule,
  AlgorithmCatalogModule,
  AlgorithmInstanceModule,
  PipelineModule,
];
