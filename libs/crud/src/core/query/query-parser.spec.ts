import { QueryError } from './query-error';
import { QUERY_LIMITS } from './query-limits';
import { parseRecordQuery } from './query-parser';
import { Condition, JsonValue } from './query.types';

const read = (body: unknown) => parseRecordQuery(body, { allowSelect: true });
const where = (clause: JsonValue): Condition | undefined => read({ where: clause }).where;

function expectQueryError(body: unknown, pattern: RegExp, options = { allowSelect: true }): void {
  let caught: unknown;
  try {
    parseRecordQuery(body, options);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(QueryError);
  expect((caught as QueryError).name).toBe('QueryError');
  expect((caught as QueryError).message).toMatch(pattern);
}

const leaf = (i: number): JsonValue => ({ equals: { target: 'f', expr: String(i) } });

describe('parseRecordQuery', () => {
  describe('empty queries', () => {
    it.each([undefined, null, {}])('%p selects everything in arrival order', (body) => {
      expect(read(body)).toEqual({ order: [], offset: 0 });
    });

    it.each([[[]], ['text'], [5], [true]])('rejects a non-object body %p', (body) => {
      expectQueryError(body, /query must be a JSON object/);
    });

    it('rejects unknown top-level fields', () => {
      expectQueryError({ filter: {} }, /unknown query field "filter"/);
    });
  });

  describe('operators', () => {
    it.each(['equals', 'lt', 'lte', 'gt', 'gte'])('%s becomes a compare condition', (op) => {
      expect(where({ [op]: { target: 'a.b', expr: 'x' } })).toEqual({ kind: 'compare', op, path: ['a', 'b'], value: 'x' });
      expect(where({ [op]: { target: 'n', expr: 5 } })).toEqual({ kind: 'compare', op, path: ['n'], value: 5 });
    });

    it('equals accepts any JSON value as expr', () => {
      for (const expr of [null, true, false, 0, '', { a: [1] }, [1, 'x']] as JsonValue[]) {
        expect(where({ equals: { target: 'f', expr } })).toEqual({ kind: 'compare', op: 'equals', path: ['f'], value: expr });
      }
    });

    it.each(['lt', 'lte', 'gt', 'gte'])('%s rejects an expr that is neither string nor number', (op) => {
      for (const expr of [null, true, { a: 1 }, [1]] as JsonValue[]) {
        expectQueryError({ where: { [op]: { target: 'f', expr } } }, new RegExp(`where\\.${op}\\.expr must be a string or a number`));
      }
    });

    it('reg_exp and wildcard become pattern conditions', () => {
      expect(where({ reg_exp: { target: 'name', expr: 'a.*' } })).toEqual({
        kind: 'pattern',
        op: 'reg_exp',
        path: ['name'],
        pattern: 'a.*',
      });
      expect(where({ wildcard: { target: 'name', expr: 'a*?' } })).toEqual({
        kind: 'pattern',
        op: 'wildcard',
        path: ['name'],
        pattern: 'a*?',
      });
    });

    it('wildcard accepts text that is not a valid regular expression', () => {
      expect(where({ wildcard: { target: 'n', expr: '(*[' } })).toMatchObject({ pattern: '(*[' });
    });

    it.each(['reg_exp', 'wildcard'])('%s requires a string expr', (op) => {
      expectQueryError({ where: { [op]: { target: 'f', expr: 5 } } }, new RegExp(`where\\.${op}\\.expr must be a string`));
    });

    it.each(['(', 'a[', '*a', 'a{2,1}', '(?<name'])('reg_exp rejects the invalid pattern %p', (expr) => {
      expectQueryError({ where: { reg_exp: { target: 'f', expr } } }, /not a valid regular expression/);
    });

    it('in becomes an in condition with its values', () => {
      expect(where({ in: { target: 'id', expr: ['a', 1, null, true] } })).toEqual({
        kind: 'in',
        path: ['id'],
        values: ['a', 1, null, true],
      });
      expect(where({ in: { target: 'id', expr: [] } })).toEqual({ kind: 'in', path: ['id'], values: [] });
    });

    it('in requires a list', () => {
      expectQueryError({ where: { in: { target: 'f', expr: 'a' } } }, /where\.in\.expr must be a list/);
    });

    it('exists takes a target only', () => {
      expect(where({ exists: { target: 'a.b' } })).toEqual({ kind: 'exists', path: ['a', 'b'] });
      expectQueryError({ where: { exists: { target: 'a', expr: 1 } } }, /where\.exists has unknown field "expr"/);
    });

    it('not wraps one clause', () => {
      expect(where({ not: { exists: { target: 'x' } } })).toEqual({
        kind: 'not',
        clause: { kind: 'exists', path: ['x'] },
      });
    });

    it('and/or as a list', () => {
      expect(where({ and: [{ exists: { target: 'a' } }, { exists: { target: 'b' } }] })).toEqual({
        kind: 'and',
        clauses: [
          { kind: 'exists', path: ['a'] },
          { kind: 'exists', path: ['b'] },
        ],
      });
      expect(where({ or: [{ exists: { target: 'a' } }] })).toEqual({
        kind: 'or',
        clauses: [{ kind: 'exists', path: ['a'] }],
      });
    });

    it('and/or as an object of clauses', () => {
      expect(where({ or: { exists: { target: 'a' }, equals: { target: 'b', expr: 1 } } })).toEqual({
        kind: 'or',
        clauses: [
          { kind: 'exists', path: ['a'] },
          { kind: 'compare', op: 'equals', path: ['b'], value: 1 },
        ],
      });
      expect(where({ and: { not: { exists: { target: 'a' } } } })).toEqual({
        kind: 'and',
        clauses: [{ kind: 'not', clause: { kind: 'exists', path: ['a'] } }],
      });
    });

    it.each(['and', 'or'])('%s rejects empty and non-container operands', (op) => {
      expectQueryError({ where: { [op]: [] } }, new RegExp(`where\\.${op} must not be empty`));
      expectQueryError({ where: { [op]: {} } }, new RegExp(`where\\.${op} must not be empty`));
      expectQueryError({ where: { [op]: 'x' } }, new RegExp(`where\\.${op} must be a list or an object of conditions`));
      expectQueryError({ where: { [op]: [5] } }, new RegExp(`where\\.${op}\\[0\\] must be an object`));
    });

    it('several keys in one clause are ANDed', () => {
      expect(where({ exists: { target: 'a' }, gt: { target: 'n', expr: 1 }, not: { exists: { target: 'b' } } })).toEqual({
        kind: 'and',
        clauses: [
          { kind: 'exists', path: ['a'] },
          { kind: 'compare', op: 'gt', path: ['n'], value: 1 },
          { kind: 'not', clause: { kind: 'exists', path: ['b'] } },
        ],
      });
    });
  });

  describe('malformed clauses', () => {
    it('unknown operator', () => {
      expectQueryError({ where: { contains: { target: 'a', expr: 'b' } } }, /unknown operator "contains"/);
      expectQueryError({ where: { and: [{ match: { target: 'a', expr: 'b' } }] } }, /where\.and\[0\]\.match: unknown operator "match"/);
    });

    it('missing target', () => {
      expectQueryError({ where: { equals: { expr: 'b' } } }, /where\.equals\.target must be a non-empty string/);
      expectQueryError({ where: { exists: {} } }, /where\.exists\.target must be a non-empty string/);
    });

    it('missing expr', () => {
      expectQueryError({ where: { equals: { target: 'a' } } }, /where\.equals\.expr is required/);
      expectQueryError({ where: { in: { target: 'a' } } }, /where\.in\.expr is required/);
      expectQueryError({ where: { reg_exp: { target: 'a' } } }, /where\.reg_exp\.expr is required/);
    });

    it('wrong types', () => {
      expectQueryError({ where: 'name' }, /where must be an object/);
      expectQueryError({ where: [] }, /where must be an object/);
      expectQueryError({ where: {} }, /where has no condition/);
      expectQueryError({ where: { equals: 'a' } }, /where\.equals must be an object with target and expr/);
      expectQueryError({ where: { equals: { target: 5, expr: 'a' } } }, /target must be a non-empty string/);
      expectQueryError({ where: { equals: { target: '', expr: 'a' } } }, /target must be a non-empty string/);
      expectQueryError({ where: { equals: { target: 'a', expr: 'b', extra: 1 } } }, /unknown field "extra"/);
      expectQueryError({ where: { not: [] } }, /where\.not must be an object/);
    });

    it('bad paths', () => {
      expectQueryError({ where: { exists: { target: 'a..b' } } }, /empty segment/);
      expectQueryError({ where: { exists: { target: '.a' } } }, /empty segment/);
    });

    it('names of inherited properties are ordinary field names, in every place a path appears', () => {
      for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']) {
        expect(where({ exists: { target: `a.${name}` } })).toEqual({ kind: 'exists', path: ['a', name] });
        expect(read({ select: [name, `${name}.x`] }).select).toEqual([[name], [name, 'x']]);
        expect(read({ order: { target: name } }).order).toEqual([{ path: [name], descending: false }]);
      }
    });
  });

  describe('select', () => {
    it('one string or a list, as paths', () => {
      expect(read({ select: 'config.cmd' }).select).toEqual([['config', 'cmd']]);
      expect(read({ select: ['id', 'config.cmd'] }).select).toEqual([['id'], ['config', 'cmd']]);
    });

    it('must be unique, non-empty, of strings', () => {
      expectQueryError({ select: ['a', 'b', 'a'] }, /select names "a" twice/);
      expectQueryError({ select: [] }, /select must be a field name or a non-empty list/);
      expectQueryError({ select: 5 }, /select must be a field name or a non-empty list/);
      expectQueryError({ select: [5] }, /select\[0\] must be a non-empty string/);
      expectQueryError({ select: ['a', ''] }, /select\[1\] must be a non-empty string/);
    });

    it('is GET-only: allowSelect false rejects it', () => {
      expectQueryError({ select: 'id' }, /select is only allowed when reading/, { allowSelect: false });
      expect(parseRecordQuery({ where: { exists: { target: 'a' } } }, { allowSelect: false }).where).toEqual({
        kind: 'exists',
        path: ['a'],
      });
    });
  });

  describe('order', () => {
    it('targets and modes, asc by default, one object or a list', () => {
      expect(read({ order: [{ target: 'timestamp', mode: 'desc' }, { target: 'a.b', mode: 'asc' }, { target: 'c' }] }).order).toEqual([
        { path: ['timestamp'], descending: true },
        { path: ['a', 'b'], descending: false },
        { path: ['c'], descending: false },
      ]);
      expect(read({ order: { target: 'x', mode: 'desc' } }).order).toEqual([{ path: ['x'], descending: true }]);
    });

    it('rejects bad terms', () => {
      expectQueryError({ order: [{ target: 'x', mode: 'down' }] }, /order\[0\]\.mode must be asc or desc/);
      expectQueryError({ order: [{ mode: 'asc' }] }, /order\[0\]\.target must be a non-empty string/);
      expectQueryError({ order: ['x'] }, /order\[0\] must be an object/);
      expectQueryError({ order: [{ target: 'x', dir: 'asc' }] }, /unknown field "dir"/);
      const many = Array.from({ length: QUERY_LIMITS.orderTerms + 1 }, (_, i) => ({ target: `f${i}` }));
      expectQueryError({ order: many }, /order has more than 16 terms/);
    });
  });

  describe('limit', () => {
    it('{from, to} inclusive becomes offset and count', () => {
      expect(read({ limit: { from: 0, to: 99 } })).toMatchObject({ offset: 0, count: 100 });
      expect(read({ limit: { from: 5, to: 5 } })).toMatchObject({ offset: 5, count: 1 });
      expect(read({ limit: { from: 10, to: 19 } })).toMatchObject({ offset: 10, count: 10 });
      expect(read({ limit: { to: 2 } })).toMatchObject({ offset: 0, count: 3 });
      const open = read({ limit: { from: 7 } });
      expect(open.offset).toBe(7);
      expect(open.count).toBeUndefined();
    });

    it('rejects bad windows', () => {
      expectQueryError({ limit: { from: 5, to: 4 } }, /limit\.to must be an integer not below limit\.from/);
      expectQueryError({ limit: { from: -1, to: 4 } }, /limit\.from must be a non-negative integer/);
      expectQueryError({ limit: { from: 1.5 } }, /limit\.from must be a non-negative integer/);
      expectQueryError({ limit: { from: '0', to: 3 } }, /limit\.from must be a non-negative integer/);
      expectQueryError({ limit: { from: 0, to: '3' } }, /limit\.to must be an integer/);
      expectQueryError({ limit: [0, 3] }, /limit must be an object/);
      expectQueryError({ limit: { from: 0, size: 3 } }, /limit has unknown field "size"/);
    });
  });

  describe('caps (CONTRACT §4)', () => {
    it('100 leaf conditions pass, 101 fail naming the cap', () => {
      expect(where({ and: Array.from({ length: 100 }, (_, i) => leaf(i)) })).toMatchObject({ kind: 'and' });
      expectQueryError({ where: { and: Array.from({ length: 101 }, (_, i) => leaf(i)) } }, /more than 100 conditions/);
    });

    it('leaves are counted across the whole tree, in every operator', () => {
      const fifty = (kind: string): JsonValue[] =>
        Array.from({ length: 50 }, (_, i): JsonValue =>
          kind === 'in' ? { in: { target: 'f', expr: [i] } } : kind === 'exists' ? { exists: { target: `f${i}` } } : leaf(i),
        );
      expect(where({ or: [{ and: fifty('in') }, { not: { and: fifty('exists') } }] })).toMatchObject({ kind: 'or' });
      expectQueryError(
        { where: { or: [{ and: fifty('in') }, { not: { and: fifty('exists') } }], wildcard: { target: 'x', expr: '*' } } },
        /more than 100 conditions/,
      );
    });

    const nested = (depth: number): JsonValue => {
      let clause: JsonValue = { exists: { target: 'a' } };
      for (let level = 1; level < depth; level++) clause = level % 2 ? { not: clause } : { and: [clause] };
      return clause;
    };

    it('depth 16 passes, depth 17 fails naming the cap', () => {
      expect(where(nested(16))).toBeDefined();
      expectQueryError({ where: nested(17) }, /nested deeper than 16 levels/);
    });

    it('depth counts object-form and/or too', () => {
      let clause: JsonValue = { exists: { target: 'a' } };
      for (let level = 1; level < 17; level++) clause = { or: clause };
      expectQueryError({ where: clause }, /nested deeper than 16 levels/);
    });

    it('1000 in values pass, 1001 fail naming the cap', () => {
      expect(where({ in: { target: 'f', expr: Array.from({ length: 1000 }, (_, i) => i) } })).toMatchObject({ kind: 'in' });
      expectQueryError({ where: { in: { target: 'f', expr: Array.from({ length: 1001 }, (_, i) => i) } } }, /more than 1000 values/);
    });

    it.each(['reg_exp', 'wildcard'])('%s: 256-character pattern passes, 257 fails naming the cap', (op) => {
      expect(where({ [op]: { target: 'f', expr: 'a'.repeat(256) } })).toMatchObject({ kind: 'pattern' });
      expectQueryError({ where: { [op]: { target: 'f', expr: 'a'.repeat(257) } } }, /longer than 256 characters/);
    });

    // Characters, as the contract counts them: an emoji is one, though two UTF-16 units.
    it.each(['reg_exp', 'wildcard'])('%s: counts a pattern in characters, not UTF-16 units', (op) => {
      expect(where({ [op]: { target: 'f', expr: '\u{1F600}'.repeat(256) } })).toMatchObject({ kind: 'pattern' });
      expectQueryError({ where: { [op]: { target: 'f', expr: '\u{1F600}'.repeat(257) } } }, /longer than 256 characters/);
    });

    it('100 select paths pass, 101 fail naming the cap', () => {
      expect(read({ select: Array.from({ length: 100 }, (_, i) => `f${i}`) }).select).toHaveLength(100);
      expectQueryError({ select: Array.from({ length: 101 }, (_, i) => `f${i}`) }, /more than 100 paths/);
    });

    it('128-character path segments pass, 129 fail naming the cap, in every place a path appears', () => {
      const ok = `a.${'s'.repeat(128)}`;
      const long = `a.${'s'.repeat(129)}`;
      expect(where({ exists: { target: ok } })).toEqual({ kind: 'exists', path: ['a', 's'.repeat(128)] });
      expectQueryError({ where: { exists: { target: long } } }, /segment longer than 128 characters/);
      expectQueryError({ select: [long] }, /segment longer than 128 characters/);
      expectQueryError({ order: [{ target: long }] }, /segment longer than 128 characters/);
      expect(where({ exists: { target: `a.${'\u{1F600}'.repeat(128)}` } })).toMatchObject({ kind: 'exists' });
      expectQueryError({ where: { exists: { target: `a.${'\u{1F600}'.repeat(129)}` } } }, /segment longer than 128 characters/);
    });

    it('10,000 in values in the whole query pass, one more fails naming the cap', () => {
      const list = (leaf: number, size: number) => Array.from({ length: size }, (_, i) => `v${leaf}-${i}`);
      const ins = (sizes: number[]) => ({ or: sizes.map((size, leaf) => ({ in: { target: 'f', expr: list(leaf, size) } })) });
      expect(where(ins(new Array(10).fill(1000)))).toMatchObject({ kind: 'or' });
      expectQueryError({ where: ins([...new Array(10).fill(1000), 1]) }, /where has more than 10000 in values in total/);
      // Values under `not` and in several keys of one clause count too.
      expectQueryError(
        { where: { not: ins([...new Array(9).fill(1000), 999]), in: { target: 'g', expr: ['a', 'b'] } } },
        /10000 in values/,
      );
    });

    it.each([
      ['a{101}', true],
      ['a{2,101}', true],
      ['a{101,}', true],
      ['(?:y|yy){1000}x', true],
      ['x(a{1}b{0100}){2}', false],
      ['a{100}', false],
      ['a{1,100}b{100,}', false],
      ['a\\{1000}', false], // an escaped brace is a literal, not a count
      ['[{1000}]', false],
      ['[]{1000}]', false],
      ['[[:alpha:]{1000}]', false],
      ['\\Q{1000}\\E', false],
      ['\\p{Greek}{100}', false],
      ['a{,1000}', false],
    ])('reg_exp %s: refused for a counted repetition above 100: %s', (pattern, refused) => {
      const body = { where: { reg_exp: { target: 'f', expr: pattern } } };
      if (refused) expectQueryError(body, /where\.reg_exp\.expr has a counted repetition above 100/);
      else {
        let message = '';
        try {
          read(body);
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).not.toMatch(/counted repetition/);
      }
    });

    it('wildcard braces are literal text, never a repetition', () => {
      expect(where({ wildcard: { target: 'f', expr: 'a{1000}*' } })).toMatchObject({ kind: 'pattern', pattern: 'a{1000}*' });
    });

    it('16 order terms pass, 17 fail naming the cap', () => {
      expect(read({ order: Array.from({ length: 16 }, (_, i) => ({ target: `f${i}` })) }).order).toHaveLength(16);
      expectQueryError({ order: Array.from({ length: 17 }, (_, i) => ({ target: `f${i}` })) }, /order has more than 16 terms/);
    });

    it('caps match the contract numbers', () => {
      expect(QUERY_LIMITS).toMatchObject({
        leafConditions: 100,
        depth: 16,
        inValues: 1000,
        inValuesTotal: 10000,
        repeatCount: 100,
        orderTerms: 16,
        patternLength: 256,
        selectPaths: 100,
        segmentLength: 128,
      });
    });
  });

  it('parses a full query', () => {
    expect(
      read({
        select: ['id', 'config.cmd'],
        where: { and: [{ equals: { target: 'actions.id', expr: 'start' } }, { gte: { target: 'timestamp', expr: '2024-01-01' } }] },
        order: [{ target: 'timestamp', mode: 'desc' }],
        limit: { from: 0, to: 9 },
      }),
    ).toEqual({
      select: [['id'], ['config', 'cmd']],
      where: {
        kind: 'and',
        clauses: [
          { kind: 'compare', op: 'equals', path: ['actions', 'id'], value: 'start' },
          { kind: 'compare', op: 'gte', path: ['timestamp'], value: '2024-01-01' },
        ],
      },
      order: [{ path: ['timestamp'], descending: true }],
      offset: 0,
      count: 10,
    });
  });
});
