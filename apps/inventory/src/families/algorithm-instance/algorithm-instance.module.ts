import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { AlgorithmInstance } from './algorithm-instance.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'instance/algorithm',
      index: 'algorithm-instance',
      resourceName: 'Algorithm instance',
      schema: AlgorithmInstance,
      auth: 'jwt',
    }),
  ],
})
export class AlgorithmInstanceModule {}
