import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';
import { References } from '@inventory/crud';

/** A network segment, slice or link joining execution environments; its kind is a network link type. */
export class NetworkLink {
  @ApiProperty({ description: 'its network link type', example: 'p2p' })
  @IsDefined()
  @IsString()
  @References('network-link-type')
  type_id: string;

  @ApiPropertyOptional({ example: 'To connect HTTP and DB Servers.' })
  @IsOptional()
  @IsString()
  description?: string;
}
