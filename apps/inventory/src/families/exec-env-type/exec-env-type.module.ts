import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { ExecEnvType } from './exec-env-type.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'type/exec-env',
      index: 'exec-env-type',
      resourceName: 'Execution environment type',
      schema: ExecEnvType,
      auth: 'jwt',
    }),
  ],
})
export class ExecEnvTypeModule {}
