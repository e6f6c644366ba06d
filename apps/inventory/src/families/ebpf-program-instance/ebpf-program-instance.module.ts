import { Module } from '@nestjs/common';
import { CrudModule } from '@inventory/crud';
import { EbpfProgramInstance } from './ebpf-program-instance.schema';

@Module({
  imports: [
    CrudModule.forFeature({
      path: 'instance/ebpf-program',
      index: 'ebpf-program-instance',
      resourceName: 'eBPF program instance',
      schema: EbpfProgramInstance,
      auth: 'jwt',
    }),
  ],
})
export class EbpfProgramInstanceModule {}
