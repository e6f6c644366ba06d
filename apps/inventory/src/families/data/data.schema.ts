import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, Matches } from 'class-validator';
import { ReadOnly, References } from '@inventory/crud';

/** A date and a time, with or without a fraction and a zone: a bare date or week date is not one. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const DATE_TIME_TEXT = 'must be an ISO-8601 date-time';

/**
 * What an agent or eBPF program instance collected on an execution environment. The collected
 * payload is additional data; only where it came from and when are declared, and they describe
 * a past observation, so an update cannot rewrite them.
 */
export class DataRecord {
  @ApiPropertyOptional({ description: 'the agent instance that collected it', example: 'nprobe@apache-server' })
  @IsOptional()
  @IsString()
  @References('agent-instance')
  @ReadOnly()
  agent_instance_id?: string;

  @ApiPropertyOptional({ description: 'the eBPF program instance that collected it', example: 'packet-counter@apache-server' })
  @IsOptional()
  @IsString()
  @References('ebpf-program-instance')
  @ReadOnly()
  ebpf_program_instance_id?: string;

  @ApiPropertyOptional({ description: 'when the event happened (ISO-8601, zone optional), stored as sent', example: '2020-06-04T09:22:09' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: DATE_TIME_TEXT })
  @Matches(DATE_TIME, { message: DATE_TIME_TEXT })
  @ReadOnly()
  timestamp_event?: string;

  @ApiPropertyOptional({
    description: 'when the agent collected it (ISO-8601, zone optional), stored as sent',
    example: '2020-06-04T09:22:19',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: DATE_TIME_TEXT })
  @Matches(DATE_TIME, { message: DATE_TIME_TEXT })
  @ReadOnly()
  timestamp_agent?: string;
}
