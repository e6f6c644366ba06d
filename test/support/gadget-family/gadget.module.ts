import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { Gadget } from './gadget.schema';

@Module({
  imports: [CrudModule.forFeature({ path: 'test/gadget', index: 'gadget', resourceName: 'Gadget', schema: Gadget, auth: 'jwt' })],
})
export class GadgetModule {}
