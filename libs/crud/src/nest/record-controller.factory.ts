import { Controller, Inject, Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthScheme } from '@inventory/auth';
import { FamilyDefinition } from '../service/family-definition';
import { RecordService } from '../service/record.service';
import { RecordController } from './record.controller';
import { QUERY_SIZE_LIMIT, QUERY_TIMEOUT_MS } from './query-timeout';

/** The DI token of a family's RecordService, e.g. `RecordService:network-link-type`. */
export function recordServiceToken(family: FamilyDefinition): string {
  return `RecordService:${family.index}`;
}

/**
 * One controller class per family, named after it (`NetworkLinkTypeController`) so that logs,
 * Swagger and stack traces say which family they are about.
 */
export function createRecordController(family: FamilyDefinition): Type<RecordController> {
  @Controller(family.path)
  @AuthScheme(family.auth)
  @ApiTags(family.resourceName)
  class FamilyRecordController extends RecordController {
    static readonly family = family;

    constructor(
      @Inject(recordServiceToken(family)) records: RecordService,
      @Inject(QUERY_TIMEOUT_MS) queryTimeoutMs: number,
      @Inject(QUERY_SIZE_LIMIT) querySizeLimit: number,
    ) {
      super(records, { timeoutMs: queryTimeoutMs, sizeLimit: querySizeLimit });
    }
  }
  Object.defineProperty(FamilyRecordController, 'name', { value: `${pascalCase(family.index)}Controller` });
  return FamilyRecordController;
}

export function pascalCase(name: string): string {
  return name.replace(/(^|[-_\s]+)([a-z0-9])/gi, (_match, _separator, letter: string) => letter.toUpperCase());
}
