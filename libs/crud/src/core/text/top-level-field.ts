import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, SPACE } from './json-char-codes';

/**
 * The value of one top-level field of a JSON object's text, parsed, without parsing the rest:
 * `JSON.parse(text)[key]` when the object holds `key`, `undefined` when it does not. As
 * `JSON.parse`, the last of duplicate keys wins, and a key is compared decoded (`"fl\u006fw"` is
 * `flow`).
 *
 * For texts the service stored itself (valid JSON objects). Building a learned path's rows
 * parsed every record whole to read one field: 36–37 % of the build's CPU on SQLite (V8's
 * profiler over the build alone), where skipping over the text costs a fraction of that.
 */
export function topLevelField(text: string, key: string): unknown {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.hasOwn(parsed, key) ? parsed[key] : undefined;
  }
  let found: [number, number] | undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return undefined;
  for (;;) {
    const keyEnd = stringEnd(text, i);
    const matches = keyOf(text, i, keyEnd) === key;
    i = skipSpace(text, keyEnd);
    // Past the ':' to the value.
    const valueStart = skipSpace(text, i + 1);
    const valueEnd = valueEndAt(text, valueStart);
    if (matches) found = [valueStart, valueEnd];
    i = skipSpace(text, valueEnd);
    if (text.charCodeAt(i) !== COMMA) break;
    i = skipSpace(text, i + 1);
  }
  return found === undefined ? undefined : JSON.parse(text.slice(found[0], found[1]));
}

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    // JSON's whitespace: space, tab, line feed, carriage return.
    if (c !== SPACE && c !== TAB && c !== LINE_FEED && c !== CARRIAGE_RETURN) return i;
    i++;
  }
}

/** Where the string whose opening quote is at `start` ends (past its closing quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) throw new SyntaxError('unterminated string in a stored record');
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    // An odd run of backslashes escapes the quote.
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

function keyOf(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** Where the value starting at `start` ends: a string, an object or list (strings inside skipped whole), or a scalar. */
function valueEndAt(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i = stringEnd(text, i);
        continue;
      }
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      } else if (Number.isNaN(c)) throw new SyntaxError('unterminated value in a stored record');
      i++;
    }
  }
  let i = start;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN || Number.isNaN(c))
      return i;
    i++;
  }
}
