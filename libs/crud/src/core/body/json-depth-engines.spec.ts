import { BodyError } from './body-error';
import { DEFAULT_DEPTH_ENGINE, DepthEngine, JsonDepthScanner } from './json-depth';
import { JSON_DEPTH_WASM } from './json-depth-wasm.bytes';

// The generator is plain JavaScript, shared with the command line.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { assemble } = require('../../../../../scripts/build-json-depth-wasm.js') as { assemble: () => Promise<Buffer> };

/** What a scanner of `engine` makes of `bytes` fed in the given chunk sizes (cycled). */
function outcome(engine: DepthEngine, bytes: Buffer, sizes: readonly number[], maxDepth: number) {
  const scanner = new JsonDepthScanner(maxDepth, engine);
  let refusedAt: number | undefined;
  let offset = 0;
  for (let chunk = 0; offset < bytes.length; chunk++) {
    const size = sizes[chunk % sizes.length];
    try {
      scanner.push(bytes.subarray(offset, offset + size));
    } catch (error) {
      expect(error).toBeInstanceOf(BodyError);
      refusedAt = chunk;
      break;
    }
    offset += size;
  }
  return { refusedAt, items: refusedAt === undefined ? scanner.items() : [] };
}

/** Text that is JSON-like, not necessarily JSON: every byte the scanner treats apart, often. */
function randomText(random: () => number, length: number): Buffer {
  const pieces = ['{', '}', '[', ']', '"', '\\', ':', ',', ' ', '\n', 'a', '1', 'é', '😀', '{"k":', '"v"', '\\"', '\\\\', '{}', '[]'];
  const out: string[] = [];
  let size = 0;
  while (size < length) {
    const piece = pieces[Math.floor(random() * pieces.length)];
    out.push(piece);
    size += piece.length;
  }
  return Buffer.from(out.join(''), 'utf8');
}

describe('the WebAssembly and JavaScript depth engines', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;

  it('runs WebAssembly by default on this runtime', () => {
    expect(DEFAULT_DEPTH_ENGINE).toBe('wasm');
  });

  it('agree on random JSON-like bytes split at random points: refusal, positions, spans', () => {
    for (let run = 0; run < 400; run++) {
      const bytes = randomText(random, 1 + Math.floor(random() * 400));
      const sizes = Array.from({ length: 3 }, () => 1 + Math.floor(random() * 40));
      const maxDepth = 1 + Math.floor(random() * 8);
      const text = bytes.toString('utf8');
      expect({ text, ...outcome('wasm', bytes, sizes, maxDepth) }).toEqual({ text, ...outcome('js', bytes, sizes, maxDepth) });
    }
  });

  it('agree on real batches larger than one WebAssembly call (32 KB), in chunks of any size', () => {
    const record = (i: number) =>
      JSON.stringify({ id: `r-${i}`, note: 'x'.repeat(i % 90), esc: 'q"\\[{'.repeat(i % 3), list: [i, { deep: [[i]] }], 'k:é': '😀' });
    const batch = Buffer.from(`[${Array.from({ length: 2000 }, (_, i) => record(i)).join(', ')}]`, 'utf8');
    expect(batch.length).toBeGreaterThan(3 * 32 * 1024);
    for (const sizes of [[batch.length], [65_536], [32 * 1024 + 1, 7], [1000, 33_000, 3]]) {
      const wasm = outcome('wasm', batch, sizes, 32);
      expect(wasm.refusedAt).toBeUndefined();
      expect(wasm.items).toHaveLength(2000);
      expect(wasm).toEqual(outcome('js', batch, sizes, 32));
    }
  });

  it('agree where more items close in one call than a call has bytes for one each', () => {
    // `{}` is two bytes: 16,384 items end in one 32 KB call, plus the one open before it.
    const tiny = Buffer.from(`[${'{},'.repeat(40_000)}{}]`);
    for (const sizes of [[tiny.length], [32 * 1024], [32 * 1024 - 1]]) {
      const wasm = outcome('wasm', tiny, sizes, 32);
      expect(wasm.items).toHaveLength(40_001);
      expect(wasm).toEqual(outcome('js', tiny, sizes, 32));
    }
  });

  it('the module is json-depth.wat as assembled now (run scripts/build-json-depth-wasm.js after editing it)', async () => {
    expect((await assemble()).toString('base64')).toBe(JSON_DEPTH_WASM);
  });
});
