import { MAX_BODY_DEPTH } from './body-guard';
import { JsJsonDepthScanner } from './json-depth-js';
import { WasmJsonDepthScanner, wasmDepthScanning } from './json-depth-wasm';

/**
 * Where one top-level object of a body lies (the body itself, or an item of a top-level list),
 * in bytes, with what decides whether its text can be stored as sent (`sent-texts.ts`): how
 * many members its objects hold in all (a colon outside strings each), and whether whitespace
 * stands between its tokens.
 */
export interface ItemSpan {
  start: number;
  end: number;
  members: number;
  spaced: boolean;
}

/** What an engine of `JsonDepthScanner` does. */
export interface DepthScanning {
  /** Throws BodyError at the first bracket nested deeper than the limit. */
  push(chunk: Uint8Array): void;
  items(): readonly (ItemSpan | undefined)[];
}

export type DepthEngine = 'wasm' | 'js';

/** WebAssembly where the runtime has it (not under `node --jitless`), else JavaScript. */
export const DEFAULT_DEPTH_ENGINE: DepthEngine = wasmDepthScanning() ? 'wasm' : 'js';

/**
 * Counts bracket depth in JSON text as it arrives, outside strings, and refuses the bracket that
 * goes past `maxDepth`. JSON.parse builds whatever nesting it is given before anything can look at
 * it: 16 MB of `[` cost it ~500 MB and seconds (issue 11), while this scan is one linear pass
 * that needs no memory and stops at byte 33.
 *
 * It works on UTF-8 bytes, chunk by chunk: quotes, backslashes and brackets are ASCII, and no
 * byte of a multi-byte character can be mistaken for them. It does not validate JSON; that is
 * JSON.parse's job once the text is known to be shallow enough.
 *
 * On the same pass it notes where each top-level object lies (`items`), so that a record can be
 * stored as the text it came in instead of being serialized again: JSON.stringify of every record
 * of a batch was a tenth of the service's CPU in batch ingest (W4, 2026-11-27).
 *
 * The pass runs in WebAssembly (`json-depth.wat`, sixteen bytes at a time inside strings): on a
 * W4 batch 1.7 ns a byte against 4.6 for the same pass in JavaScript (`json-depth-js.ts`, the
 * fallback), whose scan was 9 % of the service's CPU in W4.
 */
export class JsonDepthScanner implements DepthScanning {
  private readonly engine: DepthScanning;

  constructor(maxDepth: number = MAX_BODY_DEPTH, engine: DepthEngine = DEFAULT_DEPTH_ENGINE) {
    this.engine = engine === 'wasm' ? new WasmJsonDepthScanner(maxDepth) : new JsJsonDepthScanner(maxDepth);
  }

  push(chunk: Uint8Array): void {
    this.engine.push(chunk);
  }

  /**
   * The top-level objects seen, by their position in the body's list (one, at 0, for a body that
   * is an object); undefined where the value there is not an object.
   */
  items(): readonly (ItemSpan | undefined)[] {
    return this.engine.items();
  }
}

/** The same check on a whole text, e.g. a query that came in `?q=`. */
export function assertJsonDepth(text: string, maxDepth: number = MAX_BODY_DEPTH): void {
  new JsonDepthScanner(maxDepth).push(Buffer.from(text, 'utf8'));
}
