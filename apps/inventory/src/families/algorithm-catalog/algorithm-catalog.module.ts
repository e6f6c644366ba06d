import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { AlgorithmCatalogEntry } from './algorithm-catalog.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'catalog/algorithm',
      index: 'algorithm-catalog',
      resourceName: 'Algorithm catalog',
      schema: AlgorithmCatalogEntry,
      auth: 'jwt',
    }),
  ],
})
export class AlgorithmCatalogModule {}
