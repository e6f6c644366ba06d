import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IsStringOrStringList, UniqueBy, UniqueIds } from '@inventory/crud';

export const EBPF_PARAMETER_TYPES = ['integer', 'number', 'time-duration', 'string', 'choice', 'boolean', 'binary'] as const;

/** One label an exported metric carries. */
export class EbpfProgramCatalogEntryMetricLabel {
  @ApiProperty({ example: 'IP_PROTO' })
  @IsDefined()
  @IsString()
  name: string;

  @ApiProperty({ example: 'UDP' })
  @IsDefined()
  @IsString()
  value: string;
}

/** How a metric is exposed in OpenMetrics. */
export class EbpfProgramCatalogEntryOpenMetricsMetadata {
  @ApiProperty({ description: 'OpenMetrics type (not checked against a list)', example: 'counter' })
  @IsDefined()
  @IsString()
  type: string;

  @ApiPropertyOptional({ example: 'Number of packets seen by this probe.' })
  @IsOptional()
  @IsString()
  help?: string;

  @ApiPropertyOptional({ description: 'unique by name; may be empty' })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => EbpfProgramCatalogEntryMetricLabel)
  @UniqueBy('name')
  labels?: EbpfProgramCatalogEntryMetricLabel[];
}

/** A metric the program exports from one of its BPF maps. The JSON keys have hyphens. */
export class EbpfProgramCatalogEntryMetric {
  @ApiProperty({ description: 'may contain spaces', example: 'packets_total' })
  @IsDefined()
  @IsString()
  name: string;

  @ApiProperty({ description: 'name of the BPF map', example: 'PKT_COUNTER' })
  @IsDefined()
  @IsString()
  'map-name': string;

  @ApiPropertyOptional({ description: 'one object' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => EbpfProgramCatalogEntryOpenMetricsMetadata)
  'open-metrics-metadata'?: EbpfProgramCatalogEntryOpenMetricsMetadata;
}

/** The program's source and what it exports: sent to the LCP when an instance is injected. */
export class EbpfProgramCatalogEntryConfig {
  @ApiProperty({ description: 'C source: one string, or one list item per line' })
  @IsDefined()
  @IsStringOrStringList()
  code: string | string[];

  // Unique by name but merged as a plain list: its items carry no id, so an update replaces it.
  @ApiPropertyOptional({ description: 'unique by name' })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => EbpfProgramCatalogEntryMetric)
  @UniqueBy('name')
  metrics?: EbpfProgramCatalogEntryMetric[];
}

/** A parameter an instance of the program may be given, e.g. the interface to attach to. */
export class EbpfProgramCatalogEntryParameter {
  @ApiProperty({ example: 'interface' })
  @IsDefined()
  @IsString()
  id: string;

  @ApiProperty({ example: 'string' })
  @IsDefined()
  @IsIn(EBPF_PARAMETER_TYPES)
  type: (typeof EBPF_PARAMETER_TYPES)[number];

  @ApiPropertyOptional({ description: 'takes a list of values; absent means false' })
  @IsOptional()
  @IsBoolean()
  list?: boolean;

  @ApiPropertyOptional({ description: 'the choices, when type is choice' })
  @IsOptional()
  @IsStringOrStringList()
  values?: string | string[];

  @IsOptional()
  @IsString()
  description?: string;

  /** Any JSON value: an example of what the parameter takes. */
  @ApiPropertyOptional({ description: 'any JSON value', example: 'eno1' })
  example?: unknown;
}

/** An eBPF program (source code and the metrics it exports) that can be injected into an execution environment. */
export class EbpfProgramCatalogEntry {
  @ApiPropertyOptional({ example: 'Counts the packets crossing the interface it is attached to.' })
  @IsOptional()
  @IsString()
  description?: string;

  @ApiProperty({ description: 'the code and its metrics' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => EbpfProgramCatalogEntryConfig)
  config: EbpfProgramCatalogEntryConfig;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => EbpfProgramCatalogEntryParameter)
  @UniqueIds()
  parameters?: EbpfProgramCatalogEntryParameter[];
}
