import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IsStringOrStringList, UniqueIds } from '@inventory/crud';

export const ACTION_STATUSES = ['started', 'stopped', 'unknown'] as const;
export const PARAMETER_TYPES = ['integer', 'number', 'time-duration', 'string', 'choice', 'boolean', 'binary'] as const;
/** The spec's field table spells `propeties`, its data `properties`; both are accepted and kept as sent. */
export const CONFIG_SCHEMAS = ['yaml', 'json', 'properties', 'xml', 'propeties'] as const;

export class ActionConfig {
  @IsDefined()
  @IsString()
  cmd: string;

  @IsOptional()
  @IsStringOrStringList()
  args?: string | string[];

  @IsOptional()
  @IsBoolean()
  daemon?: boolean;
}

export class Action {
  @IsDefined()
  @IsString()
  id: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ActionConfig)
  config: ActionConfig;

  @IsOptional()
  @IsIn(ACTION_STATUSES)
  status?: (typeof ACTION_STATUSES)[number];

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsString()
  example?: string;
}

export class ParameterConfig {
  @IsDefined()
  @IsIn(CONFIG_SCHEMAS)
  schema: (typeof CONFIG_SCHEMAS)[number];

  @IsOptional()
  @IsString()
  source?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  path?: string[];
}

export class Parameter {
  @IsDefined()
  @IsString()
  id: string;

  @IsDefined()
  @IsIn(PARAMETER_TYPES)
  type: (typeof PARAMETER_TYPES)[number];

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ParameterConfig)
  config: ParameterConfig;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsBoolean()
  list?: boolean;

  @IsOptional()
  @IsArray()
  values?: unknown[];

  /** Any JSON value: an example of what the parameter takes, e.g. "30s". */
  example?: unknown;
}

export class ResourceConfig {
  @IsOptional()
  @IsStringOrStringList()
  path?: string | string[];
}

export class Resource {
  @IsDefined()
  @IsString()
  id: string;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ResourceConfig)
  config: ResourceConfig;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsString()
  example?: string;
}

export class AgentCatalogEntry {
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Action)
  @UniqueIds()
  actions?: Action[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Parameter)
  @UniqueIds()
  parameters?: Parameter[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Resource)
  @UniqueIds()
  resources?: Resource[];

  @IsOptional()
  @IsString()
  description?: string;

  /** Links to where the agent can be deployed from (the original's name for the spec's unnamed list). */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  deployment_source?: string[];
}
