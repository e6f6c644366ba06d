import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, ValidateNested, ValidationError } from 'class-validator';
import { JsonObject } from '../query/query.types';
import { RecordProblems } from './record-problems';
import { validateRecord } from './record-validator';
import { IsStringOrStringList, UniqueIds } from './schema-decorators';
import { toValidationProblems } from './validation-messages';

class Parameter {
  @IsDefined()
  @IsString()
  id: string;

  @IsDefined()
  @IsString()
  type: string;

  @IsOptional()
  @IsBoolean()
  list?: boolean;
}

class ActionConfig {
  @IsDefined()
  @IsString()
  cmd: string;

  @IsOptional()
  @IsStringOrStringList()
  args?: string | string[];
}

class Action {
  @IsDefined()
  @IsString()
  id: string;

  @IsOptional()
  @IsIn(['started', 'stopped', 'unknown'])
  status?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => ActionConfig)
  config?: ActionConfig;
}

class Agent {
  @IsDefined()
  @IsString()
  id: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Parameter)
  @UniqueIds()
  parameters?: Parameter[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Action)
  @UniqueIds()
  actions?: Action[];

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  deployment_source?: string[];
}

const valid: JsonObject = {
  id: 'firewall',
  enabled: true,
  parameters: [{ id: 'iface', type: 'string', list: false }],
  actions: [
    { id: 'start', status: 'started', config: { cmd: 'polycubectl firewall add', args: ['-a', '-b'] } },
    { id: 'stop', config: { cmd: 'stop', args: 'single' } },
  ],
  deployment_source: ['git'],
};

const check = (record: JsonObject) => validateRecord(Agent, record);
const withChange = (change: JsonObject): JsonObject => ({ ...valid, ...change });

describe('validateRecord with the contract messages', () => {
  it('a valid record has no problems', () => {
    expect(check(valid)).toBeUndefined();
    expect(check({ id: 'minimal' })).toBeUndefined();
  });

  it('extra undeclared fields are accepted at any depth', () => {
    expect(
      check({
        ...valid,
        additional: { any: ['thing', 1, null] },
        parameters: [{ id: 'p', type: 't', example: { x: 1 }, values: [1, 'a'] }],
        actions: [{ id: 'a', extra: true, config: { cmd: 'c', daemon: true, more: 'x' } }],
      }),
    ).toBeUndefined();
  });

  it('a missing required field is "required", keyed by its dotted path with list index', () => {
    expect(check(withChange({ parameters: [{ id: 'p' }] }))).toEqual({ 'parameters.0.type': 'required' });
    expect(check({ enabled: true })).toEqual({ id: 'required' });
    expect(check(withChange({ actions: [{ id: 'a' }, { id: 'b', config: {} }] }))).toEqual({ 'actions.1.config.cmd': 'required' });
  });

  it('null counts as missing', () => {
    expect(check(withChange({ parameters: [{ id: 'p', type: null }] }))).toEqual({ 'parameters.0.type': 'required' });
  });

  it('wrong types', () => {
    expect(check(withChange({ id: 5 }))).toEqual({ id: 'must be a string' });
    expect(check(withChange({ enabled: 'yes' }))).toEqual({ enabled: 'must be a boolean' });
    expect(check(withChange({ parameters: [{ id: 'p', type: 't', list: 'no' }] }))).toEqual({ 'parameters.0.list': 'must be a boolean' });
  });

  it('IsIn lists its choices', () => {
    expect(check(withChange({ actions: [{ id: 'a', status: 'running' }] }))).toEqual({
      'actions.0.status': 'must be one of: started, stopped, unknown',
    });
  });

  it('duplicate ids are reported at the first repeat', () => {
    expect(check(withChange({ actions: [{ id: 'a' }, { id: 'a' }] }))).toEqual({ 'actions.1.id': 'duplicate id' });
    expect(
      check(
        withChange({
          parameters: [
            { id: 'x', type: 't' },
            { id: 'y', type: 't' },
            { id: 'x', type: 't' },
          ],
        }),
      ),
    ).toEqual({
      'parameters.2.id': 'duplicate id',
    });
  });

  it('string or list of strings', () => {
    expect(check(withChange({ actions: [{ id: 'a', config: { cmd: 'c', args: 'one' } }] }))).toBeUndefined();
    expect(check(withChange({ actions: [{ id: 'a', config: { cmd: 'c', args: [] } }] }))).toBeUndefined();
    expect(check(withChange({ actions: [{ id: 'a', config: { cmd: 'c', args: ['a', 1] } }] }))).toEqual({
      'actions.0.config.args': 'must be a string or a list of strings',
    });
    expect(check(withChange({ actions: [{ id: 'a', config: { cmd: 'c', args: 5 } }] }))).toEqual({
      'actions.0.config.args': 'must be a string or a list of strings',
    });
  });

  it('a list that is not a list', () => {
    const problems = check(withChange({ parameters: 'p' }));
    expect(problems).toEqual({ parameters: 'must be a list' });
  });

  it('a list item that is not an object', () => {
    const problems = check(withChange({ parameters: ['p'] }));
    expect(problems).toEqual({ 'parameters.0': 'must be an object' });
  });

  it('each-value checks report on the list field and say that they apply to each value', () => {
    expect(check(withChange({ deployment_source: ['git', 5] }))).toEqual({ deployment_source: 'each value must be a string' });
    expect(check(withChange({ deployment_source: 'git' }))).toEqual({ deployment_source: 'must be a list' });
  });

  it("a constraint without a contract text keeps class-validator's sentence minus the property name", () => {
    const child = Object.assign(new ValidationError(), {
      property: 'tags',
      constraints: { arrayMaxSize: 'each value in tags must be short' },
      children: [],
    });
    expect(toValidationProblems([child])).toEqual({ tags: 'each value must be short' });
  });

  it('reports every problem of a record at once', () => {
    expect(
      check({
        enabled: 'yes',
        parameters: [{ type: 'x' }, { id: 'p', type: 3 }],
        actions: [{ id: 'a', status: 'bad', config: { args: 1 } }, { id: 'a' }],
      }),
    ).toEqual({
      id: 'required',
      enabled: 'must be a boolean',
      'parameters.0.id': 'required',
      'parameters.1.type': 'must be a string',
      'actions.0.status': 'must be one of: started, stopped, unknown',
      'actions.0.config.cmd': 'required',
      'actions.0.config.args': 'must be a string or a list of strings',
      'actions.1.id': 'duplicate id',
    });
  });

  it('does not modify the record it checks', () => {
    const record = JSON.parse(JSON.stringify(valid)) as JsonObject;
    check(record);
    expect(record).toEqual(valid);
  });

  it('RecordProblems carries the map', () => {
    const problems = RecordProblems.at('actions.0.id', 'required');
    expect(problems).toBeInstanceOf(Error);
    expect(problems.problems).toEqual({ 'actions.0.id': 'required' });
  });

  it('toValidationProblems on a hand-made tree, with a prefix', () => {
    const child = Object.assign(new ValidationError(), {
      property: 'cmd',
      constraints: { isString: 'cmd must be a string' },
      children: [],
    });
    const error = Object.assign(new ValidationError(), {
      property: 'config',
      constraints: { customThing: 'config has a custom problem' },
      children: [child],
    });
    expect(toValidationProblems([error], 'actions.0.')).toEqual({
      'actions.0.config': 'has a custom problem',
      'actions.0.config.cmd': 'must be a string',
    });
  });
});
