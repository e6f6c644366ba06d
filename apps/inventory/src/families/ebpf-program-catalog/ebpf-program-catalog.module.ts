import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { EbpfProgramCatalogEntry } from './ebpf-program-catalog.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'catalog/ebpf-program',
      index: 'ebpf-program-catalog',
      resourceName: 'eBPF program catalog',
      schema: EbpfProgramCatalogEntry,
      auth: 'jwt',
    }),
  ],
})
export class EbpfProgramCatalogModule {}
