import type { DepthScanning, ItemSpan } from './json-depth';
import { nestedTooDeep } from './body-error';
import { JSON_DEPTH_WASM } from './json-depth-wasm.bytes';

/** Where json-depth.wat keeps what it reads and writes (see its header). */
const STATE_FIELDS = 12;
const ITEM_DEPTH_FIELD = 3;
const MAX_DEPTH_FIELD = 10;
const SPANS_WRITTEN_FIELD = 11;
const INPUT_AT = 1024;
const INPUT_CAPACITY = 32 * 1024;
const SPANS_AT = 33_792;
const SPAN_FIELDS = 5;
const MAX_SPANS_PER_CALL = INPUT_CAPACITY / 2 + 1;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

interface DepthModule {
  memory: { buffer: ArrayBuffer };
  /** Scans `length` bytes at INPUT_AT from the state at 0; answers 1 at a bracket too deep. */
  scan(length: number): number;
}

/**
 * One instance for the process: calls are synchronous, so scanners of concurrent requests take
 * turns, each bringing its own state (12 integers) in and taking it out again. Undefined where
 * the runtime has no WebAssembly or cannot compile the module (its SIMD needs SSE4.1 on x86).
 */
const shared = instantiate();

function instantiate(): { module: DepthModule; state: Int32Array; bytes: Uint8Array; spans: Int32Array } | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (!wasm) return undefined;
  let module: DepthModule;
  try {
    module = new wasm.Instance(new wasm.Module(Buffer.from(JSON_DEPTH_WASM, 'base64')), {}).exports as DepthModule;
  } catch {
    return undefined;
  }
  // The memory never grows, so these views stay attached to it.
  const buffer = module.memory.buffer;
  return {
    module,
    state: new Int32Array(buffer, 0, STATE_FIELDS),
    bytes: new Uint8Array(buffer),
    spans: new Int32Array(buffer, SPANS_AT, MAX_SPANS_PER_CALL * SPAN_FIELDS),
  };
}

/** Whether `WasmJsonDepthScanner` can run here. */
export function wasmDepthScanning(): boolean {
  return shared !== undefined;
}

/** `JsonDepthScanner`'s engine in WebAssembly (json-depth.wat); the same answers as json-depth-js.ts. */
export class WasmJsonDepthScanner implements DepthScanning {
  /** Depth, string and item state as json-depth.wat lays it out: item depth unknown (-1), the limit set. */
  private readonly state = new Int32Array(STATE_FIELDS);
  private readonly spans: (ItemSpan | undefined)[] = [];

  constructor(private readonly maxDepth: number) {
    if (!shared) throw new Error('WebAssembly is not available: use the JavaScript depth scanner');
    this.state[ITEM_DEPTH_FIELD] = -1;
    this.state[MAX_DEPTH_FIELD] = maxDepth;
  }

  push(chunk: Uint8Array): void {
    const { module, state, bytes, spans } = shared!;
    for (let from = 0; from < chunk.length; from += INPUT_CAPACITY) {
      const to = Math.min(chunk.length, from + INPUT_CAPACITY);
      bytes.set(chunk.subarray(from, to), INPUT_AT);
      state.set(this.state);
      const tooDeep = module.scan(to - from);
      this.state.set(state);
      if (tooDeep) throw nestedTooDeep(this.maxDepth);
      const written = state[SPANS_WRITTEN_FIELD];
      for (let span = 0, at = 0; span < written; span++, at += SPAN_FIELDS) {
        this.spans[spans[at]] = { start: spans[at + 1], end: spans[at + 2], members: spans[at + 3], spaced: spans[at + 4] === 1 };
      }
    }
  }

  items(): readonly (ItemSpan | undefined)[] {
    return this.spans;
  }
}
