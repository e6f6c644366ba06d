import { BodyError } from './body-error';

export const MAX_BODY_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Rejects numbers that do not survive a round trip, and what could poison a merge or exhaust the stack later: prototype keys at any depth
 * and nesting deeper than MAX_BODY_DEPTH. Runs once on every parsed body.
 */
export function assertSafeBody(value: unknown): void {
  walk(value, 1);
}

function walk(value: unknown, depth: number): void {
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
    walk((value as Record<string, unknown>)[key], depth + 1);
  }
}
