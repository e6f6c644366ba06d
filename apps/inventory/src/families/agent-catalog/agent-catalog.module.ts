import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { AgentCatalogEntry } from './agent-catalog.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'catalog/agent',
      index: 'agent-catalog',
      resourceName: 'Agent catalog',
      schema: AgentCatalogEntry,
      auth: 'jwt',
    }),
  ],
})
export class AgentCatalogModule {}
