import { BodyError } from './body-error';

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
  walk(value, 1);
}

function walk(value: unknown, depth: number): void {
  if (typeof value === 'string') {
    if (!isWellFormed(value)) throw loneSurrogate();
    return;
  }
  // JSON.parse turns 1e400 into Infinity, which JSON.stringify would store as null.
  if (typeof value === 'number' && !Number.isFinite(value)) throw new BodyError('body contains a number out of range');
  if (typeof value !== 'object' || value === null) return;
  if (depth > MAX_BODY_DEPTH) throw new BodyError(`body is nested deeper than ${MAX_BODY_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (const item of value) walk(item, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw new BodyError(`body contains the forbidden key "${key}"`);
    if (key.includes('\u0000')) throw new BodyError('body contains a key holding NUL (\\u0000)');
    if (!isWellFormed(key)) throw loneSurrogate();
    walk((value as Record<string, unknown>)[key], depth + 1);
  }
}

/** Native since Node 20 (ES2024); the project's TypeScript lib is ES2023. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function loneSurrogate(): BodyError {
  return new BodyError('body contains a string holding a lone UTF-16 surrogate');
}
