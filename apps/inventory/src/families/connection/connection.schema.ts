import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { ReadOnly, References } from '@inventory/crud';

/**
 * Attaches one execution environment to one network link. The pair need not be unique; to move
 * an environment, delete the connection and create another.
 */
export class Connection {
  @ApiProperty({ description: 'the execution environment attached', example: 'apache-server' })
  @IsDefined()
  @IsString()
  @References('exec-env')
  @ReadOnly()
  exec_env_id: string;

  @ApiProperty({ description: 'the network link it is attached to', example: 'eth0' })
  @IsDefined()
  @IsString()
  @References('network-link')
  @ReadOnly()
  network_link_id: string;

  @ApiPropertyOptional({ example: 'Connection for the HTTP and DB Servers.' })
  @IsOptional()
  @IsString()
  description?: string;
}
