import { IsDefined, IsOptional, IsString } from 'class-validator';

export class NetworkLinkType {
  @IsDefined()
  @IsString()
  name: string;

  @IsOptional()
  @IsString()
  description?: string;
}
