import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { DataRecord } from './data.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'data',
      index: 'data',
      resourceName: 'Data',
      schema: DataRecord,
      auth: 'jwt',
    }),
  ],
})
export class DataModule {}
