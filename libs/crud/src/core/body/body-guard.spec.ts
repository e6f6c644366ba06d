import { BodyError } from './body-error';
import { assertSafeBody, assertSafeRecords, MAX_BODY_DEPTH } from './body-guard';
import { RecordBodyInspector } from './record-body-inspector';

function errorOf(text: string): BodyError | undefined {
  try {
    assertSafeBody(JSON.parse(text));
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BodyError);
    return error as BodyError;
  }
}

/** `depth` nested containers, alternating objects and lists, with a scalar at the bottom. */
function nested(depth: number, kind: 'object' | 'list' | 'mixed'): string {
  let text = '"leaf"';
  for (let level = depth; level >= 1; level--) {
    const list = kind === 'list' || (kind === 'mixed' && level % 2 === 0);
    text = list ? `[${text}]` : `{"k${level}":${text}}`;
  }
  return text;
}

describe('assertSafeBody', () => {
  it('accepts ordinary bodies, scalars and arrays', () => {
    for (const text of [
      '{"id":"a","config":{"cmd":"x"},"actions":[{"id":"s"}]}',
      '[]',
      '{}',
      '"text"',
      '5',
      'null',
      '[{"a":[1,2,{"b":null}]}]',
    ])
      expect(errorOf(text)).toBeUndefined();
    expect(() => assertSafeBody(undefined)).not.toThrow();
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s at any depth', (key) => {
    const places = [
      `{"${key}":{}}`,
      `{"${key}":1}`,
      `{"a":{"b":{"${key}":{"polluted":true}}}}`,
      `[{"ok":1},{"${key}":null}]`,
      `{"actions":[{"id":"x","config":[{"${key}":"y"}]}]}`,
    ];
    for (const text of places) {
      const parsed = JSON.parse(text);
      expect(JSON.stringify(parsed)).toContain(key); // an own key, as a JSON body delivers it
      const error = errorOf(text);
      expect(error).toBeDefined();
      expect(error!.message).toBe(`body contains the forbidden key "${key}"`);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('forbidden words as values or inside longer keys are fine', () => {
    expect(errorOf('{"name":"__proto__","constructorName":"x","my_prototype":1,"list":["constructor"]}')).toBeUndefined();
  });

  it('limit is 32', () => {
    expect(MAX_BODY_DEPTH).toBe(32);
  });

  it.each(['object', 'list', 'mixed'] as const)('%s nesting: depth 32 is accepted, 33 refused', (kind) => {
    expect(errorOf(nested(32, kind))).toBeUndefined();
    const error = errorOf(nested(33, kind));
    expect(error).toBeDefined();
    expect(error!.message).toBe('body is nested deeper than 32 levels');
  });

  it('deep but empty containers count too', () => {
    expect(errorOf(`${'['.repeat(32)}${']'.repeat(32)}`)).toBeUndefined();
    expect(errorOf(`${'['.repeat(33)}${']'.repeat(33)}`)).toBeDefined();
  });

  it('a very deep body is refused, not a stack overflow', () => {
    const error = errorOf(`${'['.repeat(100000)}${']'.repeat(100000)}`);
    expect(error).toBeInstanceOf(BodyError);
  });

  it.each(['"\\ud800"', '"X\\udbff"', '"X\\udc00"', '{"k":["a\\udfffb"]}', '{"\\ud800":1}', '{"a":{"b\\udc00":null}}'])(
    'refuses the lone surrogate in %s',
    (text) => {
      expect(errorOf(text)?.message).toBe('body contains a string holding a lone UTF-16 surrogate');
    },
  );

  it('accepts surrogate pairs and U+FFFD', () => {
    expect(errorOf('{"\\ud83d\\ude00":"\\ud83d\\ude00","x":"\\ufffd","y":"😀"}')).toBeUndefined();
  });

  it.each(['{"a\\u0000":1}', '{"\\u0000":1}', '[{"x":{"\\u0000y":true}}]'])('refuses the NUL in a key of %s', (text) => {
    expect(errorOf(text)?.message).toBe('body contains a key holding NUL (\\u0000)');
  });

  it('accepts NUL in a string value: it is data, not a path', () => {
    expect(errorOf('{"a":"x\\u0000y"}')).toBeUndefined();
  });
});

describe('assertSafeRecords', () => {
  it('counts the members of each record, at every depth, as parsed: a repeated key once', () => {
    expect(assertSafeRecords(JSON.parse('[{"a":1,"b":{"c":[{"d":1},{"e":2}]}},{},{"a":1,"a":2},3,"x"]'))).toEqual([5, 0, 1, 0, 0]);
    expect(assertSafeRecords(JSON.parse('{"a":{"b":{}}}'))).toEqual([2]);
  });

  it('refuses what assertSafeBody refuses, inside any record', () => {
    expect(() => assertSafeRecords(JSON.parse('[{},{"x":{"__proto__":1}}]'))).toThrow('body contains the forbidden key "__proto__"');
    const tooDeep = `[${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}]`;
    expect(() => assertSafeRecords(JSON.parse(tooDeep))).toThrow(`body is nested deeper than ${MAX_BODY_DEPTH} levels`);
    expect(() => assertSafeRecords(JSON.parse(tooDeep.slice(1, -1)))).not.toThrow();
  });
});

/** The body as the inspector sees it: its bytes pushed, then the parsed body inspected. */
function inspected(bytes: Buffer): BodyError | undefined {
  const inspector = new RecordBodyInspector();
  inspector.push(bytes);
  const text = bytes.toString('utf8');
  try {
    inspector.inspect(JSON.parse(text), text, bytes);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(BodyError);
    return error as BodyError;
  }
}

describe('the text checks, skipped for a body without a backslash', () => {
  it('still refuses a lone surrogate and a NUL key, which only an escape can spell', () => {
    expect(inspected(Buffer.from('[{"id":"a","x":"\\ud800"}]'))?.message).toBe('body contains a string holding a lone UTF-16 surrogate');
    expect(inspected(Buffer.from('[{"id":"a","\\udc00":1}]'))?.message).toBe('body contains a string holding a lone UTF-16 surrogate');
    expect(inspected(Buffer.from('{"id":"a","\\u0000":1}'))?.message).toBe('body contains a key holding NUL (\\u0000)');
    expect(inspected(Buffer.from('{"id":"a","__proto__":1}'))?.message).toBe('body contains the forbidden key "__proto__"');
  });

  it('a surrogate encoded in UTF-8 bytes decodes to U+FFFD: nothing for the skipped check to find', () => {
    // "x" followed by U+D800 as UTF-8 would spell it (ED A0 80), in a value and in a key.
    const surrogate = [0xed, 0xa0, 0x80];
    const bytes = Buffer.from([
      ...Buffer.from('{"id":"a","v":"x'),
      ...surrogate,
      ...Buffer.from('","k'),
      ...surrogate,
      ...Buffer.from('":1}'),
    ]);
    expect(bytes.includes(0x5c)).toBe(false);
    const parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    const strings = [...Object.keys(parsed), ...Object.values(parsed)].filter((value): value is string => typeof value === 'string');
    for (const text of strings) expect((text as string & { isWellFormed(): boolean }).isWellFormed()).toBe(true);
    expect(parsed.v).toContain('\ufffd');
    expect(inspected(bytes)).toBeUndefined();
    expect(() => assertSafeRecords(parsed, true)).not.toThrow();
  });

  it('a raw control character is not JSON, so a NUL cannot reach a key unescaped', () => {
    expect(() => JSON.parse('{"a\u0000":1}')).toThrow(SyntaxError);
  });
});
