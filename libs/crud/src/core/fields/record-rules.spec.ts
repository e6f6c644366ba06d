import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { JsonObject } from '../query/query.types';
import { mergeRecord } from '../merge/deep-merge';
import { toDeclaredBoolean, toDeclaredInteger } from './conversions';
import { BooleanWords, DigitString, ReadOnly, References, ReplacedOnUpdate, ServerSet, WriteOnly } from './field-rules.decorators';
import { RecordRules } from './record-rules';

class Endpoint {
  @IsDefined()
  @DigitString()
  @IsInt()
  port: number;

  @BooleanWords()
  @IsBoolean()
  secure?: boolean = false;

  @ServerSet()
  seen?: string;
}

class Step {
  @IsString()
  id: string;

  @References('tool')
  @IsOptional()
  tool_id?: string;

  @ServerSet()
  result?: string;
}

class Machine {
  @References('machine-type')
  @IsString()
  type_id: string;

  @References('owner')
  @ReadOnly()
  owner_id?: string;

  @References('group', { lines: true })
  group_ids?: string | string[];

  @BooleanWords()
  @IsBoolean()
  enabled: boolean;

  @ReadOnly()
  @ValidateNested()
  @Type(() => Endpoint)
  endpoint?: Endpoint;

  @ReplacedOnUpdate()
  @ValidateNested({ each: true })
  @Type(() => Step)
  steps?: Step[];

  @WriteOnly()
  secret?: string;

  state?: string = 'new';
}

const rules = RecordRules.of(Machine);
const byPath = <T extends { path: string }>(checks: T[]) => [...checks].sort((a, b) => a.path.localeCompare(b.path));

describe('conversions', () => {
  it.each([
    ['Yes', true],
    ['yes', true],
    ['Y', true],
    ['on', true],
    ['T', true],
    ['TRUE', true],
    ['1', true],
    [1, true],
    [true, true],
    ['No', false],
    ['n', false],
    ['OFF', false],
    ['f', false],
    ['false', false],
    ['0', false],
    [0, false],
    [false, false],
  ])('%j is the boolean %j', (value, expected) => {
    expect(toDeclaredBoolean(value)).toBe(expected);
  });

  it.each(['maybe', '', ' yes', 2, -1, null, [], {}])('%j is no boolean', (value) => {
    expect(toDeclaredBoolean(value as never)).toBeUndefined();
  });

  it('reads integers from digit strings only', () => {
    expect(toDeclaredInteger('4000')).toBe(4000);
    expect(toDeclaredInteger('007')).toBe(7);
    for (const value of ['-1', '4.5', '', ' 4', '1e3', '4000a', '9'.repeat(16), 4000]) expect(toDeclaredInteger(value)).toBeUndefined();
  });
});

describe('RecordRules', () => {
  const record: JsonObject = {
    id: 'm1',
    type_id: 'vm',
    owner_id: 'alice',
    group_ids: 'g1\r\ng2\n\ng1',
    enabled: 'Yes',
    endpoint: { port: '4000' },
    steps: [
      { id: 's', tool_id: 'hammer' },
      { id: 's', tool_id: 'saw' },
    ],
    secret: 'x',
    extra: { enabled: 'Yes', port: '1' },
  };

  it('converts declared fields at any depth and leaves additional data as sent', () => {
    const converted = rules.convert(record);
    expect(converted.enabled).toBe(true);
    expect(converted.endpoint).toEqual({ port: 4000 });
    expect(converted.extra).toBe(record.extra);
    expect(record.enabled).toBe('Yes');
  });

  it('leaves values it cannot convert for the validator', () => {
    expect(rules.convert({ enabled: 'maybe', endpoint: { port: 'four' } })).toEqual({ enabled: 'maybe', endpoint: { port: 'four' } });
  });

  it('applies initializer defaults to absent or null fields, only inside objects that are present', () => {
    expect(rules.withDefaults({ id: 'a' })).toEqual({ id: 'a', state: 'new' });
    expect(rules.withDefaults({ state: null, endpoint: { port: 1 } })).toEqual({ state: 'new', endpoint: { port: 1, secure: false } });
    expect(rules.withDefaults({ state: 'old', endpoint: { port: 1, secure: true } })).toEqual({
      state: 'old',
      endpoint: { port: 1, secure: true },
    });
  });

  it('hands out a fresh copy of an object default each time', () => {
    class WithObject {
      options?: { level: number } = { level: 1 };
    }
    const objectRules = RecordRules.of(WithObject);
    const first = objectRules.withDefaults({});
    (first.options as JsonObject).level = 2;
    expect(objectRules.withDefaults({}).options).toEqual({ level: 1 });
  });

  it('drops write-only fields', () => {
    const stored = rules.withoutWriteOnly(record);
    expect(stored).not.toHaveProperty('secret');
    expect(record).toHaveProperty('secret');
  });

  it('refuses server-set fields anywhere, with list indices in the path, even as null', () => {
    expect(rules.serverSetProblems({ endpoint: { port: 1, seen: null }, steps: [{ id: 'a' }, { id: 'b', result: 'ok' }] })).toEqual({
      'endpoint.seen': 'set by the service',
      'steps.1.result': 'set by the service',
    });
    expect(rules.serverSetProblems({ extra: { seen: 'x' } })).toEqual({});
  });

  it('refuses a changed read-only field, accepts a repeated one, and compares whole objects', () => {
    const stored: JsonObject = { owner_id: 'alice', endpoint: { port: 1, secure: false } };
    expect(rules.readOnlyProblems(stored, { owner_id: 'alice', endpoint: { secure: false, port: 1 } })).toEqual({});
    expect(rules.readOnlyProblems(stored, { owner_id: 'bob', endpoint: { port: 2, secure: false } })).toEqual({
      owner_id: 'read-only',
      endpoint: 'read-only',
    });
    expect(rules.readOnlyProblems(stored, { endpoint: { port: 1, secure: false } })).toEqual({ owner_id: 'read-only' });
    expect(rules.readOnlyProblems({}, { owner_id: 'new' })).toEqual({ owner_id: 'read-only' });
  });

  it('collects references: single ids, split lines, list items with their index', () => {
    expect(byPath(rules.references(record))).toEqual([
      { path: 'group_ids', index: 'group', ids: ['g1', 'g2'] },
      { path: 'owner_id', index: 'owner', ids: ['alice'] },
      { path: 'steps.0.tool_id', index: 'tool', ids: ['hammer'] },
      { path: 'steps.1.tool_id', index: 'tool', ids: ['saw'] },
      { path: 'type_id', index: 'machine-type', ids: ['vm'] },
    ]);
    expect(rules.references({ group_ids: ['a\nb', 'c', 5] })).toEqual([{ path: 'group_ids', index: 'group', ids: ['a\nb', 'c'] }]);
  });

  it('against the stored record, only the ids that are new at each path', () => {
    const stored: JsonObject = { type_id: 'vm', group_ids: ['g1', 'gone'] };
    expect(rules.references({ type_id: 'vm', group_ids: ['g1', 'gone'] }, stored)).toEqual([]);
    expect(byPath(rules.references({ type_id: 'host', group_ids: ['gone', 'g3'] }, stored))).toEqual([
      { path: 'group_ids', index: 'group', ids: ['g3'] },
      { path: 'type_id', index: 'machine-type', ids: ['host'] },
    ]);
  });

  it('names the lists replaced whole and the indices referenced', () => {
    expect([...rules.replacedOnUpdate]).toEqual(['steps']);
    expect([...rules.referencedIndexes].sort()).toEqual(['group', 'machine-type', 'owner', 'tool']);
    expect(rules.isEmpty).toBe(false);
    class Plain {
      @IsString()
      name: string;
    }
    expect(RecordRules.of(Plain).isEmpty).toBe(true);
  });

  it('a value replaced on update is replaced whole, also when it is an object', () => {
    const stored: JsonObject = { steps: { actions: [{ id: 'start' }] } };
    expect(mergeRecord(stored, { steps: { actions: [{ id: 'stop' }] } }, { replaced: rules.replacedOnUpdate })).toEqual({
      steps: { actions: [{ id: 'stop' }] },
    });
  });

  it('a list replaced on update is not merged by id', () => {
    const stored: JsonObject = { steps: [{ id: 'a', n: 1 }, { id: 'b' }], other: [{ id: 'a', n: 1 }] };
    const patch: JsonObject = { steps: [{ id: 'a' }, { id: 'a', n: 2 }], other: [{ id: 'a', n: 2 }] };
    expect(mergeRecord(stored, patch, { replaced: rules.replacedOnUpdate })).toEqual({
      steps: [{ id: 'a' }, { id: 'a', n: 2 }],
      other: [{ id: 'a', n: 2 }],
    });
  });
});
