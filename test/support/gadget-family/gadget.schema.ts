import { IsArray, IsDefined, IsOptional, IsString } from 'class-validator';

/** A family that exists only in the tests, to prove a new family needs nothing but two files. */
export class Gadget {
  @IsDefined()
  @IsString()
  label: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags?: string[];
}
