import { compareCodePoints, equalsExpr, QueryEvaluator } from './query-evaluator';
import { parseRecordQuery } from './query-parser';
import { JsonObject, JsonValue } from './query.types';
import { valuesAtPath } from './field-path';

function matcher(where: JsonValue): (record: JsonObject) => boolean {
  const query = parseRecordQuery({ where }, { allowSelect: true });
  const evaluator = new QueryEvaluator(query.where!);
  return (record) => evaluator.matches(record);
}

const matches = (where: JsonValue, record: JsonObject) => matcher(where)(record);
const eq = (target: string, expr: JsonValue) => ({ equals: { target, expr } });
const op = (name: string, target: string, expr: JsonValue) => ({ [name]: { target, expr } });

describe('QueryEvaluator', () => {
  describe('paths', () => {
    const agent: JsonObject = {
      id: 'firewall',
      actions: [
        { id: 'start', config: { cmd: 'polycubectl firewall add' } },
        { id: 'stop', config: { cmd: ['a', 'b'] } },
      ],
      meta: { owner: { name: 'ops' } },
    };

    it('looks through lists of objects', () => {
      expect(matches(eq('actions.id', 'start'), agent)).toBe(true);
      expect(matches(eq('actions.id', 'stop'), agent)).toBe(true);
      expect(matches(eq('actions.id', 'restart'), agent)).toBe(false);
      expect(matches(eq('actions.config.cmd', 'b'), agent)).toBe(true);
      expect(matches(eq('actions.config.cmd', 'polycubectl firewall add'), agent)).toBe(true);
    });

    it('follows nested objects and the record id', () => {
      expect(matches(eq('meta.owner.name', 'ops'), agent)).toBe(true);
      expect(matches(eq('meta.owner', { name: 'ops' }), agent)).toBe(true);
      expect(matches(eq('id', 'firewall'), agent)).toBe(true);
      expect(matches(eq('id', 'Firewall'), agent)).toBe(false);
    });

    it('a missing path matches nothing, and does not throw', () => {
      expect(matches(eq('meta.none.deeper', 'x'), agent)).toBe(false);
      expect(matches(eq('id.length', 8), agent)).toBe(false);
      expect(matches({ exists: { target: 'actions.id.more' } }, agent)).toBe(false);
    });

    it('does not reach inherited properties', () => {
      expect(matches({ exists: { target: 'toString' } }, {})).toBe(false);
      expect(matches({ exists: { target: 'meta.hasOwnProperty' } }, { meta: {} })).toBe(false);
    });

    it('valuesAtPath gives list elements and the list itself', () => {
      expect(valuesAtPath({ a: [1, [2, 3]] }, ['a'])).toEqual([1, 2, 3, [1, [2, 3]]]);
      expect(valuesAtPath({ a: [{ b: 1 }, { b: [2] }, { c: 3 }] }, ['a', 'b'])).toEqual([1, 2, [2]]);
      expect(valuesAtPath(undefined, ['a'])).toEqual([]);
    });
  });

  describe('equals', () => {
    it('is exact and case-sensitive on strings', () => {
      expect(matches(eq('name', 'Alpha'), { name: 'Alpha' })).toBe(true);
      expect(matches(eq('name', 'alpha'), { name: 'Alpha' })).toBe(false);
      expect(matches(eq('name', 'Alph'), { name: 'Alpha' })).toBe(false);
      expect(matches(eq('name', 'Alpha '), { name: 'Alpha' })).toBe(false);
    });

    it('a string expr finds a number or boolean with that JSON text', () => {
      expect(matches(eq('n', '5'), { n: 5 })).toBe(true);
      expect(matches(eq('n', '5.5'), { n: 5.5 })).toBe(true);
      expect(matches(eq('n', '-1'), { n: -1 })).toBe(true);
      expect(matches(eq('f', 'true'), { f: true })).toBe(true);
      expect(matches(eq('f', 'false'), { f: false })).toBe(true);
      expect(matches(eq('n', '5.0'), { n: 5 })).toBe(false);
      expect(matches(eq('n', ' 5'), { n: 5 })).toBe(false);
      expect(matches(eq('f', 'True'), { f: true })).toBe(false);
      expect(matches(eq('z', 'null'), { z: null })).toBe(false);
    });

    it('a number expr does not find a string, a boolean expr does not find a string', () => {
      expect(matches(eq('n', 5), { n: '5' })).toBe(false);
      expect(matches(eq('n', 5), { n: 5 })).toBe(true);
      expect(matches(eq('f', true), { f: 'true' })).toBe(false);
      expect(matches(eq('f', true), { f: true })).toBe(true);
      expect(matches(eq('f', true), { f: 1 })).toBe(false);
    });

    it('null finds null values only', () => {
      expect(matches(eq('z', null), { z: null })).toBe(true);
      expect(matches(eq('z', null), {})).toBe(false);
      expect(matches(eq('z', null), { z: [1, null] })).toBe(true);
      expect(matches(eq('z', null), { z: 0 })).toBe(false);
    });

    it('objects and lists compare structurally', () => {
      expect(matches(eq('c', { a: 1, b: [1, 2] }), { c: { b: [1, 2], a: 1 } })).toBe(true);
      expect(matches(eq('c', { a: 1 }), { c: { a: 1, b: 2 } })).toBe(false);
      expect(matches(eq('c', { a: 1, b: [2, 1] }), { c: { a: 1, b: [1, 2] } })).toBe(false);
      expect(matches(eq('tags', ['x', 'y']), { tags: ['x', 'y'] })).toBe(true);
      expect(matches(eq('tags', ['y', 'x']), { tags: ['x', 'y'] })).toBe(false);
      expect(matches(eq('tags', []), { tags: [] })).toBe(true);
      expect(matches(eq('tags', 'x'), { tags: ['x', 'y'] })).toBe(true);
    });

    it('equalsExpr directly', () => {
      expect(equalsExpr(5, '5')).toBe(true);
      expect(equalsExpr('5', 5)).toBe(false);
      expect(equalsExpr(true, 'true')).toBe(true);
      expect(equalsExpr({ a: 1 }, '{"a":1}')).toBe(false);
      expect(equalsExpr([1], '1')).toBe(false);
    });
  });

  describe('lt / lte / gt / gte', () => {
    it('numeric when both are numbers', () => {
      expect(matches(op('lt', 'n', 10), { n: 9 })).toBe(true);
      expect(matches(op('lt', 'n', 10), { n: 10 })).toBe(false);
      expect(matches(op('lte', 'n', 10), { n: 10 })).toBe(true);
      expect(matches(op('gt', 'n', 9), { n: 10 })).toBe(true);
      expect(matches(op('gte', 'n', 10.5), { n: 10 })).toBe(false);
      expect(matches(op('gt', 'n', -1), { n: -0.5 })).toBe(true);
      // 10 > 9 numerically although "10" < "9" as text.
      expect(matches(op('gt', 'n', 9), { n: 10 })).toBe(true);
    });

    it('as text otherwise', () => {
      // "10" < "9" as text: a string expr compares the number's JSON text.
      expect(matches(op('gt', 'n', '9'), { n: 10 })).toBe(false);
      expect(matches(op('lt', 'n', '9'), { n: 10 })).toBe(true);
      expect(matches(op('lt', 's', 9), { s: '10' })).toBe(true);
      expect(matches(op('gt', 's', 'abc'), { s: 'abd' })).toBe(true);
      expect(matches(op('gt', 's', 'abc'), { s: 'ABD' })).toBe(false);
      expect(matches(op('gte', 's', 'abc'), { s: 'abc' })).toBe(true);
      expect(matches(op('gt', 'f', 'f'), { f: true })).toBe(true);
    });

    it('orders ISO-8601 timestamps correctly', () => {
      const event = { timestamp: '2024-03-05T10:00:00.000Z' };
      expect(matches(op('gt', 'timestamp', '2024-03-05T09:59:59.999Z'), event)).toBe(true);
      expect(matches(op('lt', 'timestamp', '2024-03-05T10:00:00.001Z'), event)).toBe(true);
      expect(matches(op('gte', 'timestamp', '2024-03-05'), event)).toBe(true);
      expect(matches(op('lt', 'timestamp', '2024-03-05'), event)).toBe(false);
      expect(matches(op('gt', 'timestamp', '2025'), event)).toBe(false);
    });

    it('null, objects and lists never compare', () => {
      expect(matches(op('lt', 'v', 'zzz'), { v: null })).toBe(false);
      expect(matches(op('gt', 'v', ''), { v: { a: 1 } })).toBe(false);
      expect(matches(op('gte', 'v', ''), { v: [] })).toBe(false);
      expect(matches(op('gte', 'v', 1), { v: [0, 2] })).toBe(true);
    });

    it('compares text by code point (UTF-8 byte order), as the SQL stores do', () => {
      expect(matches(op('gt', 's', '\uFF01'), { s: '😀' })).toBe(true);
      expect(matches(op('lt', 's', '😀'), { s: '\uFF01' })).toBe(true);
      expect(compareCodePoints('a', 'b')).toBeLessThan(0);
      expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
      expect(compareCodePoints('😀', '😀')).toBe(0);
      expect(compareCodePoints('😀', '😁')).toBeLessThan(0);
      expect(compareCodePoints('\uD7FF', '😀')).toBeLessThan(0);
      expect(compareCodePoints('\uE000', '😀')).toBeLessThan(0);
      expect(compareCodePoints('\uFFFF', '𐀀')).toBeLessThan(0);
      const words = ['\uFFFF', 'z', '😀', 'é', '\uE000', 'A', '𐀀'];
      const byBytes = [...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      expect([...words].sort(compareCodePoints)).toEqual(byBytes);
    });
  });

  describe('wildcard', () => {
    it('* is any run, ? is one character, over the whole value', () => {
      expect(matches(op('wildcard', 'n', 'fire*'), { n: 'firewall' })).toBe(true);
      expect(matches(op('wildcard', 'n', '*wall'), { n: 'firewall' })).toBe(true);
      expect(matches(op('wildcard', 'n', 'fire'), { n: 'firewall' })).toBe(false);
      expect(matches(op('wildcard', 'n', 'wall'), { n: 'firewall' })).toBe(false);
      expect(matches(op('wildcard', 'n', 'f?rewall'), { n: 'firewall' })).toBe(true);
      expect(matches(op('wildcard', 'n', 'f?ewall'), { n: 'firewall' })).toBe(false);
      expect(matches(op('wildcard', 'n', '*'), { n: '' })).toBe(true);
      expect(matches(op('wildcard', 'n', '?'), { n: '' })).toBe(false);
      expect(matches(op('wildcard', 'n', '?'), { n: '😀' })).toBe(true);
      expect(matches(op('wildcard', 'n', 'a*z'), { n: 'a\nb\nz' })).toBe(true);
      expect(matches(op('wildcard', 'n', 'Fire*'), { n: 'firewall' })).toBe(false);
    });

    it('every other character is literal', () => {
      expect(matches(op('wildcard', 'n', 'a.c'), { n: 'abc' })).toBe(false);
      expect(matches(op('wildcard', 'n', 'a.c'), { n: 'a.c' })).toBe(true);
      expect(matches(op('wildcard', 'n', '[ab]'), { n: 'a' })).toBe(false);
      expect(matches(op('wildcard', 'n', '[ab]'), { n: '[ab]' })).toBe(true);
      expect(matches(op('wildcard', 'n', '50%_*'), { n: '50%_off' })).toBe(true);
      expect(matches(op('wildcard', 'n', '50%_*'), { n: '50Xyoff' })).toBe(false);
      expect(matches(op('wildcard', 'n', '(a|b)+\\'), { n: '(a|b)+\\' })).toBe(true);
    });

    it('applies to numbers and booleans by their JSON text, and to list elements', () => {
      expect(matches(op('wildcard', 'n', '1?'), { n: 12 })).toBe(true);
      expect(matches(op('wildcard', 'n', 't*'), { n: true })).toBe(true);
      expect(matches(op('wildcard', 'n', '*'), { n: null })).toBe(false);
      expect(matches(op('wildcard', 'n', '*'), { n: { a: 'x' } })).toBe(false);
      expect(matches(op('wildcard', 'tags', 'b*'), { tags: ['a', 'bc'] })).toBe(true);
    });
  });

  describe('reg_exp', () => {
    it('must match the whole value', () => {
      expect(matches(op('reg_exp', 'n', 'fire.*'), { n: 'firewall' })).toBe(true);
      expect(matches(op('reg_exp', 'n', 'fire'), { n: 'firewall' })).toBe(false);
      expect(matches(op('reg_exp', 'n', 'wall'), { n: 'firewall' })).toBe(false);
      expect(matches(op('reg_exp', 'n', '[a-z]+'), { n: 'firewall' })).toBe(true);
      expect(matches(op('reg_exp', 'n', '[a-z]+'), { n: 'Firewall' })).toBe(false);
      expect(matches(op('reg_exp', 'n', '(?i)[a-z]+'), { n: 'Firewall' })).toBe(true);
      expect(matches(op('reg_exp', 'n', '\\d+'), { n: 1234 })).toBe(true);
      expect(matches(op('reg_exp', 'n', 'a|b'), { n: 'ab' })).toBe(false);
      expect(matches(op('reg_exp', 'tags', 'b.'), { tags: ['a', 'bc'] })).toBe(true);
    });

    it('a catastrophic pattern is answered correctly (RE2: no backtracking)', () => {
      const hostile = `${'a'.repeat(5000)}!`;
      expect(matches(op('reg_exp', 'n', '(a+)+$'), { n: hostile })).toBe(false);
      expect(matches(op('reg_exp', 'n', '(a+)+!'), { n: hostile })).toBe(true);
      expect(matches(op('reg_exp', 'n', '(a|aa)*b'), { n: 'a'.repeat(5000) })).toBe(false);
      expect(matches(op('reg_exp', 'n', '(.*a){20}'), { n: 'a'.repeat(5000) })).toBe(true);
    });
  });

  describe('in', () => {
    it('any listed value, with equals semantics', () => {
      const where = op('in', 'n', ['5', false, null, { a: 1 }]);
      expect(matches(where, { n: 5 })).toBe(true);
      expect(matches(where, { n: '5' })).toBe(true);
      expect(matches(where, { n: false })).toBe(true);
      expect(matches(where, { n: null })).toBe(true);
      expect(matches(where, { n: { a: 1 } })).toBe(true);
      expect(matches(where, { n: 6 })).toBe(false);
      expect(matches(where, {})).toBe(false);
      expect(matches(op('in', 'n', [5]), { n: '5' })).toBe(false);
      expect(matches(op('in', 'n', []), { n: 5 })).toBe(false);
      expect(matches(op('in', 'tags', ['z', 'b']), { tags: ['a', 'b'] })).toBe(true);
    });
  });

  describe('exists', () => {
    it('null and empty lists are not existing; falsy scalars and empty objects are', () => {
      const exists = (record: JsonObject) => matches({ exists: { target: 'v' } }, record);
      expect(exists({ v: 0 })).toBe(true);
      expect(exists({ v: '' })).toBe(true);
      expect(exists({ v: false })).toBe(true);
      expect(exists({ v: {} })).toBe(true);
      expect(exists({ v: [0] })).toBe(true);
      expect(exists({ v: null })).toBe(false);
      expect(exists({ v: [] })).toBe(false);
      expect(exists({ v: [null] })).toBe(false);
      expect(exists({ v: [[], null] })).toBe(false);
      expect(exists({})).toBe(false);
      expect(matches({ exists: { target: 'a.b' } }, { a: [{ c: 1 }, { b: null }] })).toBe(false);
      expect(matches({ exists: { target: 'a.b' } }, { a: [{ c: 1 }, { b: 2 }] })).toBe(true);
    });
  });

  describe('not / and / or', () => {
    const record: JsonObject = { a: 1, b: 'x' };
    it('combine as logic says', () => {
      expect(matches({ not: eq('a', 1) }, record)).toBe(false);
      expect(matches({ not: eq('a', 2) }, record)).toBe(true);
      expect(matches({ not: { not: eq('a', 1) } }, record)).toBe(true);
      expect(matches({ and: [eq('a', 1), eq('b', 'x')] }, record)).toBe(true);
      expect(matches({ and: [eq('a', 1), eq('b', 'y')] }, record)).toBe(false);
      expect(matches({ or: [eq('a', 2), eq('b', 'x')] }, record)).toBe(true);
      expect(matches({ or: [eq('a', 2), eq('b', 'y')] }, record)).toBe(false);
      expect(matches({ or: { equals: { target: 'a', expr: 2 }, exists: { target: 'b' } } }, record)).toBe(true);
      expect(matches({ and: { equals: { target: 'a', expr: 1 }, exists: { target: 'c' } } }, record)).toBe(false);
      expect(matches({ equals: { target: 'a', expr: 1 }, exists: { target: 'c' } }, record)).toBe(false);
      expect(matches({ equals: { target: 'a', expr: 1 }, exists: { target: 'b' } }, record)).toBe(true);
    });

    it('not of a path through a list means no element matches', () => {
      const agent: JsonObject = { actions: [{ id: 'start' }, { id: 'stop' }] };
      expect(matches({ not: eq('actions.id', 'start') }, agent)).toBe(false);
      expect(matches({ not: eq('actions.id', 'restart') }, agent)).toBe(true);
    });

    it('one evaluator serves many records (cached matchers stay correct)', () => {
      const test = matcher({ or: [op('reg_exp', 'n', 'a.*'), op('wildcard', 'n', '*z')] });
      expect(['abc', 'xyz', 'bcd', 'az', 'b'].map((n) => test({ n }))).toEqual([true, true, false, true, false]);
    });
  });
});

describe('QueryEvaluator.evaluate (sliced)', () => {
  const spent = { sliceSpent: true };
  const run = (where: JsonValue, record: JsonObject) => {
    const evaluator = new QueryEvaluator(parseRecordQuery({ where }, { allowSelect: true }).where!);
    const steps = evaluator.evaluate(record, spent);
    let pauses = 0;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return { result: step.value, pauses, direct: evaluator.matches(record) };
      pauses += 1;
    }
  };

  it('pauses between pattern matches once the slice is spent, and answers as matches does', () => {
    const patterns = Array.from({ length: 100 }, (_, i) => op('reg_exp', 'text', `(?:y|yy){1,100}z${i}`));
    const record = { id: 'r', text: 'y'.repeat(150) };
    expect(run({ or: patterns }, record)).toEqual({ result: false, pauses: 100, direct: false });
    expect(run({ or: [...patterns.slice(1), op('reg_exp', 'text', 'y+')] }, record)).toEqual({ result: true, pauses: 99, direct: true });
    expect(run({ and: [{ not: op('wildcard', 'text', 'x*') }, op('reg_exp', 'text', 'y*')] }, record)).toEqual({
      result: true,
      pauses: 1,
      direct: true,
    });
  });

  it('runs clauses without patterns straight through', () => {
    expect(run({ or: [eq('a', 1), op('in', 'b', [1, 2, 3])] }, { id: 'r', b: [5, 3] })).toEqual({ result: true, pauses: 0, direct: true });
  });
});

describe('in looks values up by equalsExpr rule', () => {
  const VALUES: JsonValue[] = [
    '5',
    5,
    '5.5',
    5.5,
    'true',
    true,
    'false',
    false,
    null,
    'null',
    '',
    0,
    -0,
    '0',
    '1e+21',
    1e21,
    [1],
    ['1'],
    { a: 1 },
    { a: '1' },
    [],
    {},
    'x',
  ];
  it.each(VALUES.map((value) => [value]))('%j against each value alone and all together', (recordValue) => {
    const record = { id: 'r', f: recordValue };
    for (const expected of VALUES) {
      const reference = valuesAtPath(record, ['f']).some((value) => equalsExpr(value, expected));
      expect({ expected, found: matches(op('in', 'f', [expected]), record) }).toEqual({ expected, found: reference });
    }
    const all = valuesAtPath(record, ['f']).some((value) => VALUES.some((expected) => equalsExpr(value, expected)));
    expect(matches(op('in', 'f', VALUES), record)).toBe(all);
  });
});
