import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { NetworkLink } from './network-link.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'network-link',
      index: 'network-link',
      resourceName: 'Network link',
      schema: NetworkLink,
      auth: 'jwt',
    }),
  ],
})
export class NetworkLinkModule {}
