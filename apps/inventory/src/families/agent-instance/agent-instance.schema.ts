import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { IsObjectOrList, IsStringOrStringList, ReadOnly, References, ReplacedOnUpdate, UniqueIds } from '@inventory/crud';

export const AGENT_INSTANCE_STATUSES = ['started', 'stopped', 'unknown'] as const;
export const OUTPUT_FORMATS = ['plain', 'lines', 'json'] as const;

/**
 * One action to run, named by the id of an action of the agent's catalog entry. Every other key
 * is a value for a `{placeholder}` of the catalog command and is kept as sent.
 */
export class AgentInstanceOperationAction {
  @ApiProperty({ description: "id of an action of the agent's catalog entry", example: 'start' })
  @IsDefined()
  @IsString()
  id: string;

  @ApiPropertyOptional({ description: 'shape of stdout and stderr in the result; absent means plain' })
  @IsOptional()
  @IsIn(OUTPUT_FORMATS)
  output_format?: (typeof OUTPUT_FORMATS)[number];
}

/** A new value for a parameter of the agent's catalog entry. */
export class AgentInstanceOperationParameter {
  @ApiProperty({ description: "id of a parameter of the agent's catalog entry", example: 'network-interface' })
  @IsDefined()
  @IsString()
  id: string;

  @ApiProperty({ description: 'the new value, any JSON value', example: 'eth0' })
  @IsDefined()
  value: unknown;
}

/** New content for a resource (a file) of the agent's catalog entry. */
export class AgentInstanceOperationResource {
  @ApiProperty({ description: "id of a resource of the agent's catalog entry", example: 'rules' })
  @IsDefined()
  @IsString()
  id: string;

  @ApiProperty({ description: 'the file content: one string, or a list of lines' })
  @IsDefined()
  @IsStringOrStringList()
  content: string | string[];
}

/** One request to the agent: actions to run, in order, and parameters and resources to set. */
export class AgentInstanceOperation {
  @ApiPropertyOptional({ description: 'run in order; an id may repeat' })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AgentInstanceOperationAction)
  actions?: AgentInstanceOperationAction[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AgentInstanceOperationParameter)
  @UniqueIds()
  parameters?: AgentInstanceOperationParameter[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AgentInstanceOperationResource)
  @UniqueIds()
  resources?: AgentInstanceOperationResource[];
}

/**
 * A run of an action, or a rule a controller keeps here (firewall rules). Ids repeat: every
 * other key is kept as sent.
 */
export class AgentInstanceAction {
  @ApiProperty({ description: 'id of the action', example: 'insert' })
  @IsDefined()
  @IsString()
  id: string;
}

/** The last known value of a parameter of the agent. */
export class AgentInstanceParameter {
  @IsDefined()
  @IsString()
  id: string;

  @ApiPropertyOptional({ description: 'when the value was set' })
  @IsOptional()
  @IsString()
  timestamp?: string;

  @ApiPropertyOptional({ description: 'the new and old values', example: { new: 'eth1', old: 'eth0' } })
  value?: unknown;
}

/** The last known content of a resource (a file) of the agent. */
export class AgentInstanceResource {
  @IsDefined()
  @IsString()
  id: string;

  @ApiPropertyOptional({ description: 'when the content was written' })
  @IsOptional()
  @IsString()
  timestamp?: string;

  @IsOptional()
  @IsString()
  path?: string;

  @IsOptional()
  @IsStringOrStringList()
  content?: string | string[];
}

/** An agent of the agent catalog installed on an execution environment. */
export class AgentInstance {
  @ApiProperty({ description: 'its agent catalog entry', example: 'nprobe' })
  @IsDefined()
  @IsString()
  @References('agent-catalog')
  @ReadOnly()
  agent_catalog_id: string;

  @ApiProperty({ description: 'the execution environment it runs on', example: 'apache-server' })
  @IsDefined()
  @IsString()
  @References('exec-env')
  @ReadOnly()
  exec_env_id: string;

  // The client gives the first value; afterwards only action results would change it. Clients
  // that omit it (the fuzzing agent) get `unknown`.
  @ApiPropertyOptional({ description: 'given on create; absent means unknown', example: 'stopped' })
  @IsIn(AGENT_INSTANCE_STATUSES)
  @ReadOnly()
  status?: (typeof AGENT_INSTANCE_STATUSES)[number] = 'unknown';

  @ApiPropertyOptional({ example: 'nprobe on the Apache server' })
  @IsOptional()
  @IsString()
  description?: string;

  // Stored as sent (running them through the LCP is not part of this service), and replaced
  // whole on update: it is the last request, not a history.
  @ApiPropertyOptional({ description: 'the last request to the agent: one operation or a list of them' })
  @IsOptional()
  @IsObjectOrList()
  @ValidateNested()
  @Type(() => AgentInstanceOperation)
  @ReplacedOnUpdate()
  operations?: AgentInstanceOperation | AgentInstanceOperation[];

  // Ids repeat (runs of one action, firewall rules) and controllers PUT the full new list.
  @ApiPropertyOptional({ description: 'action results and rules; replaced whole on update, ids may repeat' })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AgentInstanceAction)
  @ReplacedOnUpdate()
  actions?: AgentInstanceAction[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AgentInstanceParameter)
  @UniqueIds()
  parameters?: AgentInstanceParameter[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AgentInstanceResource)
  @UniqueIds()
  resources?: AgentInstanceResource[];
}
