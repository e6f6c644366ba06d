import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IsObjectOrList, ReadOnly, References, ReplacedOnUpdate, UniqueIds } from '@inventory/crud';

/** A new value for a parameter of the algorithm's catalog entry. */
export class AlgorithmInstanceOperationParameter {
  @ApiProperty({ description: "id of a parameter of the algorithm's catalog entry", example: 'frequency' })
  @IsDefined()
  @IsString()
  id: string;

  @ApiProperty({ description: 'the new value, any JSON value', example: '30s' })
  @IsDefined()
  value: unknown;
}

/** One request to the algorithm: parameters to set. */
export class AlgorithmInstanceOperation {
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AlgorithmInstanceOperationParameter)
  @UniqueIds()
  parameters?: AlgorithmInstanceOperationParameter[];
}

/** The last known value of a parameter of the algorithm. */
export class AlgorithmInstanceParameter {
  @IsDefined()
  @IsString()
  id: string;

  @ApiPropertyOptional({ description: 'when the value was set' })
  @IsOptional()
  @IsString()
  timestamp?: string;

  @ApiPropertyOptional({ description: 'the new and old values', example: { new: '30s', old: '10s' } })
  value?: unknown;
}

/** A running use of a catalog algorithm with its parameter values. */
export class AlgorithmInstance {
  @ApiProperty({ description: 'its algorithm catalog entry', example: 'ddos-predictor' })
  @IsDefined()
  @IsString()
  @References('algorithm-catalog')
  @ReadOnly()
  algorithm_catalog_id: string;

  @ApiPropertyOptional({ example: 'DDoS predictor.' })
  @IsOptional()
  @IsString()
  description?: string;

  // Stored as sent and replaced whole on update: it is the last request, not a history.
  @ApiPropertyOptional({ description: 'the last request to the algorithm: one operation or a list of them' })
  @IsOptional()
  @IsObjectOrList()
  @ValidateNested()
  @Type(() => AlgorithmInstanceOperation)
  @ReplacedOnUpdate()
  operations?: AlgorithmInstanceOperation | AlgorithmInstanceOperation[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AlgorithmInstanceParameter)
  @UniqueIds()
  parameters?: AlgorithmInstanceParameter[];
}
