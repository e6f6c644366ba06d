import { BodyError } from './body-error';
import { MAX_BODY_DEPTH } from './body-guard';
import { assertJsonDepth, DepthEngine, JsonDepthScanner } from './json-depth';

const ENGINES: DepthEngine[] = ['wasm', 'js'];

/** Feeds `text` to a scanner in chunks of `size` bytes; answers the error, if any. */
function scanInChunks(engine: DepthEngine, text: string, size: number, maxDepth = MAX_BODY_DEPTH): Error | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const scanner = new JsonDepthScanner(maxDepth, engine);
  try {
    for (let offset = 0; offset < bytes.length; offset += size) scanner.push(bytes.subarray(offset, offset + size));
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** The depth JSON.parse would build, by walking its result: the reference the scanner must agree with. */
function parsedDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, parsedDepth(child)), 0);
}

const TRICKY_STRINGS = ['"["', '"{{{{"', '"\\"[["', '"\\\\"', '"\\\\\\"[["', '"a\\\\\\\\"', '"😀[ü{"', '"\\u005b"'];

describe.each(ENGINES)('JsonDepthScanner, %s engine', (engine) => {
  const scanIn = (text: string, size: number, maxDepth?: number) => scanInChunks(engine, text, size, maxDepth);

  it('accepts depth 32 and refuses 33, for lists, objects and both', () => {
    for (const [open, close] of [
      ['[', ']'],
      ['{"k":', '}'],
    ]) {
      expect(scanIn(`${open.repeat(32)}1${close.repeat(32)}`, 1 << 16)).toBeUndefined();
      const error = scanIn(`${open.repeat(33)}1${close.repeat(33)}`, 1 << 16);
      expect(error).toBeInstanceOf(BodyError);
      expect(error!.message).toBe('body is nested deeper than 32 levels');
    }
    expect(scanIn(`${'[{"a":'.repeat(16)}1${'}]'.repeat(16)}`, 7)).toBeUndefined();
    expect(scanIn(`${'[{"a":'.repeat(16)}[]${'}]'.repeat(16)}`, 7)).toBeInstanceOf(BodyError);
  });

  it('counts depth, not brackets: siblings do not add up', () => {
    expect(scanIn(`[${'[[[]]],'.repeat(10_000)}[]]`, 100)).toBeUndefined();
  });

  it('ignores brackets inside strings, escaped quotes included, across any chunk boundary', () => {
    for (const inner of TRICKY_STRINGS) {
      const text = `${'['.repeat(32)}${inner},${inner}${']'.repeat(32)}`;
      expect(parsedDepth(JSON.parse(text))).toBe(32);
      for (const size of [1, 2, 3, 5, 64]) expect(scanIn(text, size)).toBeUndefined();
      const deeper = `[${text}]`;
      for (const size of [1, 2, 3, 5, 64]) expect(scanIn(deeper, size)).toBeInstanceOf(BodyError);
    }
  });

  it('stops at the bracket that goes too deep, whatever follows', () => {
    const scanner = new JsonDepthScanner(MAX_BODY_DEPTH, engine);
    expect(() => scanner.push(Buffer.from('['.repeat(32)))).not.toThrow();
    expect(() => scanner.push(Buffer.from('['))).toThrow(BodyError);
  });

  it('agrees with the depth JSON.parse builds, on generated JSON split at random points', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    // One deep spine, with a few shallow siblings along it: sizes stay linear in the depth.
    const build = (depth: number): unknown => {
      if (depth === 0) return TRICKY_STRINGS[Math.floor(random() * TRICKY_STRINGS.length)];
      const siblings = Array.from({ length: Math.floor(random() * 3) }, () => build(Math.min(depth - 1, 2)));
      const children = [...siblings, build(depth - 1)];
      return random() < 0.5 ? children : Object.fromEntries(children.map((child, i) => [`k"[${i}\\`, child]));
    };
    for (let run = 0; run < 300; run++) {
      const text = JSON.stringify(build(Math.floor(random() * 40)));
      const depth = parsedDepth(JSON.parse(text));
      const size = 1 + Math.floor(random() * 20);
      const refused = scanIn(text, size, 20) !== undefined;
      expect({ text, refused }).toEqual({ text, refused: depth > 20 });
    }
  });

  // How fast it scans is the benchmark's to say (README, Performance), not a timed test's: this one failed CI at 75 ms against 50 under a loaded suite.
  it('refuses 16 MB of brackets without building anything per bracket', () => {
    const brackets = Buffer.alloc(16 * 1024 * 1024, '[');
    const heapBefore = process.memoryUsage().heapUsed;
    expect(() => new JsonDepthScanner(MAX_BODY_DEPTH, engine).push(brackets)).toThrow(BodyError);
    // An entry per bracket would be 16M entries, at least 64 MB of heap.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(8 * 1024 * 1024);
  });
});

describe.each(ENGINES)('JsonDepthScanner.items, %s engine', (engine) => {
  /** The spans a scanner finds in `text` fed in chunks of `size` bytes, each with the text it covers. */
  function itemsOf(text: string, size: number) {
    const bytes = Buffer.from(text, 'utf8');
    const scanner = new JsonDepthScanner(MAX_BODY_DEPTH, engine);
    for (let offset = 0; offset < bytes.length; offset += size) scanner.push(bytes.subarray(offset, offset + size));
    return scanner.items().map((span) => span && { ...span, text: bytes.toString('utf8', span.start, span.end) });
  }

  it('finds each object of a top-level list, by its position, whatever the chunks', () => {
    const text = '[{"a":1,"b":{"c":[1,{"d":2}]}}, 7 ,"x{",[{"e":3}],{"f":"}:, \\\\"}]';
    expect(JSON.parse(text)).toHaveLength(5);
    for (const size of [1, 2, 3, 7, 1 << 16]) {
      expect(itemsOf(text, size)).toEqual([
        { start: 1, end: 30, members: 4, spaced: false, text: '{"a":1,"b":{"c":[1,{"d":2}]}}' },
        undefined,
        undefined,
        undefined,
        { start: 50, end: 64, members: 1, spaced: false, text: '{"f":"}:, \\\\"}' },
      ]);
    }
  });

  it('takes a body that is one object as one item, and counts every colon outside strings', () => {
    expect(itemsOf(' {"a":{"a":1},"a":"b:c"} ', 4)).toEqual([
      { start: 1, end: 24, members: 3, spaced: false, text: '{"a":{"a":1},"a":"b:c"}' },
    ]);
  });

  it('marks an item with whitespace between its tokens, not one with whitespace around it', () => {
    const spans = itemsOf('[ {"a":1} ,\n{"a": 1},{"a":[1,\t2]},{"a":"1 2"}\r\n]', 5);
    expect(spans.map((span) => span?.spaced)).toEqual([false, true, true, false]);
  });

  it('finds nothing in a body that is not an object or a list of them', () => {
    expect(itemsOf('"{\\"a\\":1}"', 3)).toEqual([]);
    expect(itemsOf('[[{"a":1}]]', 3)).toEqual([]);
    expect(itemsOf('[1,2]', 3)).toEqual([]);
  });

  it('gives byte offsets: characters outside ASCII take their UTF-8 length', () => {
    expect(itemsOf('[{"é":"😀"},{"a":1}]', 3).map((span) => span && [span.start, span.end, span.text])).toEqual([
      [1, 14, '{"é":"😀"}'],
      [15, 22, '{"a":1}'],
    ]);
  });
});

describe('assertJsonDepth', () => {
  it('checks a whole text, e.g. a ?q= query', () => {
    expect(() => assertJsonDepth(`${'['.repeat(32)}${']'.repeat(32)}`)).not.toThrow();
    expect(() => assertJsonDepth('['.repeat(4000))).toThrow('body is nested deeper than 32 levels');
    expect(() => assertJsonDepth('[[[1]]]', 2)).toThrow(BodyError);
  });
});
