import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsInt, IsISO8601, IsObject, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { BooleanWords, DigitString, ReadOnly, References, ServerSet } from '@inventory/crud';

/**
 * Where the service reaches the Local Control Plane of an execution environment. Keys beyond
 * these are kept: a client model also stores `username` and `password` here.
 */
export class ExecEnvLcp {
  @ApiProperty({ description: 'LCP port; a string of digits is stored as a number', example: 4000 })
  @IsDefined()
  @DigitString()
  @Min(1)
  @Max(65535)
  // Last, so that it is checked first: a value that is no integer reads "must be an integer number".
  @IsInt()
  port: number;

  // The original required it, but its heartbeat and docs read a missing value as false, and the
  // interception data agent never sends it: absence stores false.
  @ApiPropertyOptional({ description: 'reach the LCP over HTTPS; also takes yes/no words', example: false })
  @BooleanWords()
  @IsBoolean()
  https?: boolean = false;

  @ApiPropertyOptional({ description: 'path segment put before /status, /config and /code', example: 'lcp' })
  @IsOptional()
  @IsString()
  endpoint?: string;

  @ApiPropertyOptional({ description: 'when the LCP started, as its heartbeat answer says' })
  @ServerSet()
  @IsOptional()
  @IsISO8601()
  started?: string;

  @ApiPropertyOptional({ description: 'last successful heartbeat; null when the LCP answered something other than 200' })
  @ServerSet()
  @IsOptional()
  @IsISO8601()
  last_heartbeat?: string | null;
}

/** A host, VM, container or application running an LCP, and the address the service reaches it at. */
export class ExecEnv {
  @ApiProperty({ description: 'host name or IP of the LCP', example: '10.0.0.1' })
  @IsDefined()
  @IsString()
  hostname: string;

  @ApiProperty({ description: 'its execution environment type', example: 'vm' })
  @IsDefined()
  @IsString()
  @References('exec-env-type')
  type_id: string;

  // Real clients send "Yes": the original's true/false words are stored as a JSON boolean.
  @ApiProperty({ description: 'only enabled environments get a heartbeat; also takes yes/no words', example: true })
  @IsDefined()
  @BooleanWords()
  @IsBoolean()
  enabled: boolean;

  @ApiPropertyOptional({ example: 'Apache HTTP Web Server' })
  @IsOptional()
  @IsString()
  description?: string;

  // Read-only as a whole, as in the original's code (its docs table says otherwise).
  @ApiPropertyOptional({ description: 'how to reach the LCP; without it no heartbeat and no operations' })
  @ReadOnly()
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ExecEnvLcp)
  lcp?: ExecEnvLcp;
}
