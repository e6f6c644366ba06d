import { DynamicModule, Global, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { FamilyDefinition } from '../service/family-definition';
import { RecordService } from '../service/record.service';
import { RecordStore } from '../store/record-store';
import { FamilyRegistry } from '../service/family-registry';
import { createRecordController, recordServiceToken } from './record-controller.factory';
import { DEFAULT_QUERY_SIZE_LIMIT, DEFAULT_QUERY_TIMEOUT_MS, QUERY_SIZE_LIMIT, QUERY_TIMEOUT_MS } from './query-timeout';

export interface CrudRootOptions extends Pick<ModuleMetadata, 'imports'> {
  /** Builds the store once, from whatever the app injects (its DataSource). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's FactoryProvider passes its injected values as any
  useFactory: (...deps: any[]) => RecordStore | Promise<RecordStore>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's injection tokens
  inject?: any[];
  /** How long the query of one read or delete may run (docs/query-language.md); 10 s by default. */
  queryTimeoutMs?: number;
  /** The largest query in `?q=`, in bytes, as for a body (`INVENTORY_BODY_LIMIT`); 16 MB by default. */
  querySizeLimit?: number;
}

/**
 * `forRoot` configures the record store once for the whole app; `forFeature` adds a family with
 * its generated controller and service. A family module is nothing but a `forFeature` call.
 */
@Global()
@Module({})
export class CrudModule {
  static forRoot(options: CrudRootOptions): DynamicModule {
    const store: Provider = { provide: RecordStore, useFactory: options.useFactory, inject: options.inject ?? [] };
    const queryTimeout: Provider = { provide: QUERY_TIMEOUT_MS, useValue: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS };
    const querySize: Provider = { provide: QUERY_SIZE_LIMIT, useValue: options.querySizeLimit ?? DEFAULT_QUERY_SIZE_LIMIT };
    return {
      module: CrudModule,
      imports: options.imports ?? [],
      providers: [store, FamilyRegistry, queryTimeout, querySize],
      exports: [RecordStore, FamilyRegistry, QUERY_TIMEOUT_MS, QUERY_SIZE_LIMIT],
      global: true,
    };
  }

  static forFeature(family: FamilyDefinition): DynamicModule {
    const service: Provider = {
      provide: recordServiceToken(family),
      useFactory: (store: RecordStore, families: FamilyRegistry) => new RecordService(store, family, families),
      inject: [RecordStore, FamilyRegistry],
    };
    return {
      module: class {},
      controllers: [createRecordController(family)],
      providers: [service],
      exports: [service],
    };
  }
}
