import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { NetworkLinkType } from './network-link-type.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'type/network-link',
      index: 'network-link-type',
      resourceName: 'Network link type',
      schema: NetworkLinkType,
      auth: 'basic',
    }),
  ],
})
export class NetworkLinkTypeModule {}
