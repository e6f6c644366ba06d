import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsISO8601, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { ReadOnly, References, UniqueIds, WriteOnly } from '@inventory/crud';

/** A date and a time, with or without a fraction and a zone: a bare date or week date is not one. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const DATE_TIME_TEXT = 'must be an ISO-8601 date-time';

/** A value for a parameter of the catalog program. */
export class EbpfProgramInstanceParameter {
  @ApiProperty({ example: 'interface' })
  @IsDefined()
  @IsString()
  id: string;

  @ApiPropertyOptional({ description: 'any JSON value', example: 'eth0' })
  value?: unknown;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: DATE_TIME_TEXT })
  @Matches(DATE_TIME, { message: DATE_TIME_TEXT })
  timestamp?: string;
}

/** An eBPF program of the catalog injected into an execution environment. */
export class EbpfProgramInstance {
  @ApiProperty({ description: 'its eBPF program catalog entry; may be changed', example: 'packet-counter' })
  @IsDefined()
  @IsString()
  @References('ebpf-program-catalog')
  ebpf_program_catalog_id: string;

  @ApiProperty({ description: 'the execution environment it runs in', example: 'apache-server' })
  @IsDefined()
  @IsString()
  @References('exec-env')
  @ReadOnly()
  exec_env_id: string;

  @ApiPropertyOptional({ description: 'network interface the program is attached to', example: 'eth0' })
  @IsOptional()
  @IsString()
  interface?: string;

  @ApiPropertyOptional({ example: 'Collect' })
  @IsOptional()
  @IsString()
  description?: string;

  // Strict client readers fail on keys they do not know, and the original never stored these.
  @ApiPropertyOptional({ description: 'validated, then dropped: never stored' })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => EbpfProgramInstanceParameter)
  @UniqueIds()
  @WriteOnly()
  parameters?: EbpfProgramInstanceParameter[];
}
