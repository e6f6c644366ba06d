import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IsStringOrStringList, UniqueIds } from '@inventory/crud';

export const ALGORITHM_PARAMETER_TYPES = ['integer', 'number', 'time-duration', 'string', 'choice', 'boolean', 'binary'] as const;

/** A parameter an instance of the algorithm may be given. */
export class AlgorithmCatalogEntryParameter {
  @ApiProperty({ example: 'frequency' })
  @IsDefined()
  @IsString()
  id: string;

  @ApiProperty({ example: 'time-duration' })
  @IsDefined()
  @IsIn(ALGORITHM_PARAMETER_TYPES)
  type: (typeof ALGORITHM_PARAMETER_TYPES)[number];

  @ApiPropertyOptional({ description: 'takes a list of values; absent means false' })
  @IsOptional()
  @IsBoolean()
  list?: boolean;

  @ApiPropertyOptional({ description: 'the choices, when type is choice' })
  @IsOptional()
  @IsStringOrStringList()
  values?: string | string[];

  @ApiPropertyOptional({ description: 'how a binary value is encoded; absent means base64', example: 'base64' })
  @IsOptional()
  @IsString()
  encoding_scheme?: string;

  @ApiPropertyOptional({ example: 'Frequency to scan the network.' })
  @IsOptional()
  @IsString()
  description?: string;

  /** Any JSON value: real catalogs use strings, numbers, booleans and lists. */
  @ApiPropertyOptional({ description: 'any JSON value', example: '10s' })
  example?: unknown;
}

/** An analysis algorithm (detector, predictor) and the parameters it takes. */
export class AlgorithmCatalogEntry {
  @ApiPropertyOptional({ example: 'DDoS predictor.' })
  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AlgorithmCatalogEntryParameter)
  @UniqueIds()
  parameters?: AlgorithmCatalogEntryParameter[];
}
