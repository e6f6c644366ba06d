import { BodyError } from './body-error';
import { MAX_BODY_DEPTH } from './body-guard';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;

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

/**
 * Counts bracket depth in JSON text as it arrives, outside strings, and refuses the bracket that
 * goes past `maxDepth`. JSON.parse builds whatever nesting it is given before anything can look at
 * it: 16 MB of `[` cost it ~500 MB and seconds (issue 11), while this scan is one linear pass
 * (~5 ns a byte) that needs no memory and stops at byte 33.
 *
 * It works on UTF-8 bytes, chunk by chunk: quotes, backslashes and brackets are ASCII, and no
 * byte of a multi-byte character can be mistaken for them. It does not validate JSON; that is
 * JSON.parse's job once the text is known to be shallow enough.
 *
 * On the same pass it notes where each top-level object lies (`items`), so that a record can be
 * stored as the text it came in instead of being serialized again: JSON.stringify of every record
 * of a batch was a tenth of the service's CPU in batch ingest (W4, 2026-11-27).
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  /** The previous byte, inside a string, was a backslash that escapes the next one. */
  private escaped = false;
  /** Bytes pushed before the current chunk. */
  private offset = 0;
  /** The depth at which records open: 0 for a body that is one object, 1 for a list; -1 until known. */
  private itemDepth = -1;
  /** Position in the top-level list of the value being read. */
  private itemIndex = 0;
  private item: ItemSpan | undefined;
  private readonly spans: (ItemSpan | undefined)[] = [];

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
        if (this.itemDepth < 0) this.itemDepth = byte === OPEN_BRACKET ? 1 : 0;
        if (byte === OPEN_BRACE && depth === this.itemDepth) this.openItem(index - 1);
        if (++depth > this.maxDepth) throw tooDeep(this.maxDepth);
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        if (--depth === this.itemDepth && this.item) this.closeItem(index);
      } else if (this.item) {
        if (byte === COLON) this.item.members++;
        else if (byte <= SPACE) this.item.spaced = true;
      } else if (byte === COMMA && depth === this.itemDepth) {
        this.itemIndex++;
      }
    }
    this.offset += length;
    this.depth = depth;
  }

  /**
   * The top-level objects seen, by their position in the body's list (one, at 0, for a body that
   * is an object); undefined where the value there is not an object.
   */
  items(): readonly (ItemSpan | undefined)[] {
    return this.spans;
  }

  private openItem(at: number): void {
    this.item = { start: this.offset + at, end: -1, members: 0, spaced: false };
  }

  private closeItem(after: number): void {
    this.item!.end = this.offset + after;
    this.spans[this.itemIndex] = this.item;
    this.item = undefined;
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
