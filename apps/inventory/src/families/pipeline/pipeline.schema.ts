import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { IsStringOrStringList, References } from '@inventory/crud';

/**
 * A named group of agent and algorithm instances, as a dashboard creates it. The id lists take
 * one string (one id per line) or a list, stored as sent; `created_at` and `updated_at` of the
 * docs' example are additional data.
 */
export class Pipeline {
  @ApiPropertyOptional({ example: 'test pipeline guard-vdpi udt' })
  @IsOptional()
  @IsString()
  name?: string;

  // The original's store required it (422); here a missing status is a validation problem.
  @ApiProperty({ description: 'free text, e.g. started', example: 'started' })
  @IsDefined()
  @IsString()
  status: string;

  @ApiPropertyOptional({ description: 'owner or manager', example: 'Minds & Sparks' })
  @IsOptional()
  @IsString()
  user?: string;

  @ApiPropertyOptional({ description: 'agent instances: a list, or one string with one id per line', example: ['nprobe@apache-server'] })
  @IsOptional()
  @IsStringOrStringList()
  @References('agent-instance', { lines: true })
  agent_instance_ids?: string | string[];

  @ApiPropertyOptional({ description: 'algorithm instances: a list, or one string with one id per line', example: ['ddos-predictor-1'] })
  @IsOptional()
  @IsStringOrStringList()
  @References('algorithm-instance', { lines: true })
  algorithm_instance_ids?: string | string[];
}
