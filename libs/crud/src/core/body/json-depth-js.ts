import { nestedTooDeep } from './body-error';
import type { DepthScanning, ItemSpan } from './json-depth';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, SPACE } from '../text/json-char-codes';

/**
 * `JsonDepthScanner`'s engine in JavaScript: used where WebAssembly is not available (`node
 * --jitless`), and the reference the WebAssembly engine is tested against. One byte at a time
 * outside strings; from quote to quote with indexOf inside them.
 */
export class JsJsonDepthScanner implements DepthScanning {
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

  constructor(private readonly maxDepth: number) {}

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
        if (++depth > this.maxDepth) throw nestedTooDeep(this.maxDepth);
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
