import fc from 'fast-check';
import { topLevelField } from './top-level-field';

const RUNS = Number(process.env.FC_RUNS ?? 300);
const SEED = 12_2026;

/** What `topLevelField` must answer: the object's own field, parsed whole. */
function expected(text: string, key: string): unknown {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  return Object.hasOwn(parsed, key) ? parsed[key] : undefined;
}

describe('topLevelField', () => {
  it('answers what JSON.parse answers, for any object, key and layout', () => {
    const tricky = fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'é', '\u2028', '\ud83d\ude00', 'a');
    const text = fc.string({ unit: tricky, maxLength: 6 });
    const key = fc.oneof(text, fc.constantFrom('flow', 'id', 'a', '__proto__', 'toString'));
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(
        fc.dictionary(key, value, { maxKeys: 6 }),
        key,
        fc.constantFrom(undefined, 0, 2, '\t', '\r\n '),
        (object, wanted, indent) => {
          const source = JSON.stringify(object, null, indent);
          for (const name of [wanted, ...Object.keys(object)]) {
            expect(topLevelField(source, name)).toEqual(expected(source, name));
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('takes the last of duplicate keys, as JSON.parse does', () => {
    const text = '{"a":1,"b":2,"a":{"x":[1,"]}"]}}';
    expect(topLevelField(text, 'a')).toEqual({ x: [1, ']}'] });
    expect(topLevelField(text, 'b')).toBe(2);
  });

  it('compares keys decoded', () => {
    expect(topLevelField('{"fl\\u006fw":"x"}', 'flow')).toBe('x');
    expect(topLevelField('{"a\\"b":1,"c":2}', 'a"b')).toBe(1);
    expect(topLevelField('{"a\\\\":1,"c":2}', 'a\\')).toBe(1);
  });

  it('skips strings that end in an escaped backslash or hold brackets and quotes', () => {
    expect(topLevelField('{"a":"x\\\\","b":2}', 'b')).toBe(2);
    expect(topLevelField('{"a":"x\\\\","b":2}', 'a')).toBe('x\\');
    expect(topLevelField('{"a":["}\\"]",{"b":"{"}],"b":[true]}', 'b')).toEqual([true]);
  });

  it('reads scalars, whitespace and empty objects', () => {
    const text = ' { "n" : -1.5e+3 , "t":true,"f" :false, "z": null }\n';
    expect(topLevelField(text, 'n')).toBe(-1500);
    expect(topLevelField(text, 't')).toBe(true);
    expect(topLevelField(text, 'f')).toBe(false);
    expect(topLevelField(text, 'z')).toBeNull();
    expect(topLevelField(text, 'missing')).toBeUndefined();
    expect(topLevelField('{}', 'a')).toBeUndefined();
    expect(topLevelField(' { } ', 'a')).toBeUndefined();
  });

  it('answers undefined for a text that is no object', () => {
    expect(topLevelField('[1,2]', 'length')).toBeUndefined();
    expect(topLevelField('"text"', 'length')).toBeUndefined();
  });

  it('is no other object property', () => {
    expect(topLevelField('{"a":1}', 'toString')).toBeUndefined();
    expect(topLevelField('{"__proto__":{"x":1}}', '__proto__')).toEqual({ x: 1 });
  });
});
