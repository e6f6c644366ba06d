import { BodyError, nestedTooDeep } from './body-error';

export const MAX_BODY_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Rejects what could poison a merge or exhaust the stack later (prototype keys at any depth,
 * nesting deeper than MAX_BODY_DEPTH), numbers that do not survive a round trip, and text that
 * the two databases would store differently (docs/records.md): a lone UTF-16 surrogate becomes
 * U+FFFD in UTF-8, so `X\ud800` and `X\udc00` would be one id on both; PostgreSQL refuses NUL in
 * text, and keys become text in the value index. Runs once on every parsed body.
 */
export function assertSafeBody(value: unknown): void {
  walk(value, 1, true);
}

/**
 * `assertSafeBody`, answering for each top-level record (the body, or each item of a list) how
 * many members its objects hold in all, duplicates parsed away: what `keepSentTexts` compares
 * with the members the text spelled.
 *
 * `escaped` says whether the body's text held a backslash. Without one, no string of it can hold
 * a lone surrogate or a NUL: JSON spells either only as a `\u` escape (a raw control character is
 * not JSON, and UTF-8 decoding turns an encoded surrogate into U+FFFD), so those checks of every
 * string and key are skipped: half of this walk's time on W4's records (1.0–1.1 against 0.55 µs each).
 */
export function assertSafeRecords(body: unknown, escaped = true): number[] {
  if (!Array.isArray(body)) return [walk(body, 1, escaped)];
  return body.map((item) => walk(item, 2, escaped));
}

/** Throws at what the body must not hold; answers how many object members `value` holds in all. */
function walk(value: unknown, depth: number, escaped: boolean): number {
  if (typeof value === 'string') {
    if (escaped && !isWellFormed(value)) throw loneSurrogate();
    return 0;
  }
  // JSON.parse turns 1e400 into Infinity, which JSON.stringify would store as null.
  if (typeof value === 'number' && !Number.isFinite(value)) throw new BodyError('body contains a number out of range');
  if (typeof value !== 'object' || value === null) return 0;
  if (depth > MAX_BODY_DEPTH) throw nestedTooDeep(MAX_BODY_DEPTH);
  let members = 0;
  if (Array.isArray(value)) {
    for (const item of value) members += walk(item, depth + 1, escaped);
    return members;
  }
  const keys = Object.keys(value);
  for (const key of keys) {
    if (FORBIDDEN_KEYS.has(key)) throw new BodyError(`body contains the forbidden key "${key}"`);
    if (escaped) {
      if (key.includes('\u0000')) throw new BodyError('body contains a key holding NUL (\\u0000)');
      if (!isWellFormed(key)) throw loneSurrogate();
    }
    members += walk((value as Record<string, unknown>)[key], depth + 1, escaped);
  }
  return members + keys.length;
}

/** Native since Node 20 (ES2024); the project's TypeScript lib is ES2023. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function loneSurrogate(): BodyError {
  return new BodyError('body contains a string holding a lone UTF-16 surrogate');
}
