import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { AgentInstance } from './agent-instance.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'instance/agent',
      index: 'agent-instance',
      resourceName: 'Agent instance',
      schema: AgentInstance,
      auth: 'jwt',
    }),
  ],
})
export class AgentInstanceModule {}
