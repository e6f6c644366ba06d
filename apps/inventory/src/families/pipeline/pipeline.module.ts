import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { Pipeline } from './pipeline.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'pipeline',
      index: 'pipeline',
      resourceName: 'Pipeline',
      schema: Pipeline,
      auth: 'jwt',
    }),
  ],
})
export class PipelineModule {}
