import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString } from 'class-validator';

/** The kind of an execution environment: virtual machine, container, bare metal… */
export class ExecEnvType {
  @ApiProperty({ description: 'human name of the kind', example: 'Virtual Machine' })
  @IsDefined()
  @IsString()
  name: string;

  @ApiPropertyOptional({ example: 'The service is deployed in a virtual machine.' })
  @IsOptional()
  @IsString()
  description?: string;
}
