import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { ExecEnv } from './exec-env.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'exec-env',
      index: 'exec-env',
      resourceName: 'Execution environment',
      schema: ExecEnv,
      auth: 'jwt',
    }),
  ],
})
export class ExecEnvModule {}
