import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { Connection } from './connection.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'connection',
      index: 'connection',
      resourceName: 'Connection',
      schema: Connection,
      auth: 'jwt',
    }),
  ],
})
export class ConnectionModule {}
