import { randomBytes } from 'node:crypto';
import { longerThan } from '../text/code-points';

export const MAX_ID_LENGTH = 256;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why an id is unusable (docs/records.md), or undefined when it is fine. Each rule keeps two
 * different ids from naming one record or one URL: a lone surrogate is stored as U+FFFD by both
 * databases' UTF-8, and `.`/`..` are path segments that clients and proxies resolve away.
 */
export function recordIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return 'must be a string';
  if (id.length === 0) return 'must not be empty';
  if (longerThan(id, MAX_ID_LENGTH)) return `must be at most ${MAX_ID_LENGTH} characters`;
  if (id.includes('/')) return 'must not contain "/"';
  if (CONTROL_CHARACTERS.test(id)) return 'must not contain control characters';
  if (!(id as string & { isWellFormed(): boolean }).isWellFormed()) return 'must not contain a lone UTF-16 surrogate';
  if (id === '.' || id === '..') return 'must not be "." or ".."';
  if (id.startsWith('_')) return 'must not start with "_"';
  return undefined;
}

let lastMillis = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a counter that keeps ids made in
 * the same millisecond in order, then random bits. Generated ids sort by arrival.
 */
export function generateRecordId(): string {
  let millis = Date.now();
  if (millis <= lastMillis) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMillis += 1;
    millis = lastMillis;
  } else {
    lastMillis = millis;
    sequence = randomBytes(2).readUInt16BE(0) & 0x7ff;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(millis, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
