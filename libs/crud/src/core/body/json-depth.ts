import { BodyError } from './body-error';
import { MAX_BODY_DEPTH } from './body-guard';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Counts bracket depth in JSON text as it arrives, outside strings, and refuses the bracket that
 * goes past `maxDepth`. JSON.parse builds whatever nesting it is given before anything can look at
 * it: 16 MB of `[` cost it ~500 MB and seconds (issue 11), while this scan is one linear pass
 * (~5 ns a byte) that needs no memory and stops at byte 33.
 *
 * It works on UTF-8 bytes, chunk by chunk: quotes, backslashes and brackets are ASCII, and no
 * byte of a multi-byte character can be mistaken for them. It does not validate JSON; that is
 * JSON.parse's job once the text is known to be shallow enough.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  /** The previous byte, inside a string, was a backslash that escapes the next one. */
  private escaped = false;

  constructor(private readonly maxDepth: number = MAX_BODY_DEPTH) {}

  /** Throws BodyError at the first bracket nested deeper than the limit. */
  push(chunk: Uint8Array): void {
    const length = chunk.length;
    let depth = this.depth;
    let index = 0;
    while (index < length) {
      if (this.inString) {
        index = this.skipString(chunk, index);
        continue;
      }
      const byte = chunk[index++];
      if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        if (++depth > this.maxDepth) throw tooDeep(this.maxDepth);
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        depth--;
      }
    }
    this.depth = depth;
  }

  /**
   * From inside a string to just past its closing quote (or the end of the chunk). Jumps from
   * quote to quote with indexOf: strings are most of a large body's bytes.
   */
  private skipString(chunk: Uint8Array, from: number): number {
    let index = from;
    if (this.escaped) {
      this.escaped = false;
      index++;
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, index);
      const end = quote < 0 ? chunk.length : quote;
      let backslashes = 0;
      while (end - backslashes - 1 >= index && chunk[end - backslashes - 1] === BACKSLASH) backslashes++;
      if (quote < 0) {
        this.escaped = backslashes % 2 === 1;
        return chunk.length;
      }
      if (backslashes % 2 === 0) {
        this.inString = false;
        return quote + 1;
      }
      index = quote + 1;
    }
  }
}

/** The same check on a whole text, e.g. a query that came in `?q=`. */
export function assertJsonDepth(text: string, maxDepth: number = MAX_BODY_DEPTH): void {
  new JsonDepthScanner(maxDepth).push(Buffer.from(text, 'utf8'));
}

function tooDeep(maxDepth: number): BodyError {
  return new BodyError(`body is nested deeper than ${maxDepth} levels`);
}
