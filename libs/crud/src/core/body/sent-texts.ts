import { isAscii } from 'node:buffer';
import type { ItemSpan } from './json-depth';

/**
 * The text each record of a body came in, by its position in the body (one for a body that is an
 * object): a new record whose object the service did not replace (an id was sent, nothing to
 * convert or default) is stored as that text instead of JSON.stringify's (`NewRecord.text`).
 * Serializing every record of a batch again was a tenth of the service's CPU in batch ingest
 * (W4, 2026-11-27).
 *
 * One entry per body, keyed by the parsed body: an entry per record made the garbage collector
 * walk a thousand ephemerons per batch, and took back most of what it saved. The texts are cut
 * out when a create asks for them, not for every body read (a query's, an update's). A batch
 * written a slice at a time hands its slices on (`sliceSentBody`).
 */
const sentBodies = new WeakMap<object, SentBody>();

/** What `sentTextsOf` needs to cut a body's record texts out, when asked: only creates ask. */
interface SentBody {
  members: readonly number[];
  spans: readonly (ItemSpan | undefined)[];
  bytes: Buffer;
}

/** Remembers where the records of a parsed body lie in its bytes (`JsonDepthScanner.items`), and how many members JSON.parse kept of each. */
export function keepSentTexts(body: unknown, members: readonly number[], spans: readonly (ItemSpan | undefined)[], bytes: Buffer): void {
  if (typeof body === 'object' && body !== null && spans.length > 0) sentBodies.set(body, { members, spans, bytes });
}

/**
 * The texts of the records of a parsed body, by position, of those that parse back to exactly
 * their object: none with whitespace between tokens (stored texts stay compact, as
 * JSON.stringify writes them) and none whose text spells a member twice (JSON.parse keeps the
 * last; the text would keep both). What remains can differ from JSON.stringify's only in how a
 * number or a string is spelled (`1.0`, `\u0041`): the record as sent. Undefined for a body
 * `keepSentTexts` was not given.
 */
export function sentTextsOf(body: unknown): readonly (string | undefined)[] | undefined {
  const sent = typeof body === 'object' && body !== null ? sentBodies.get(body) : undefined;
  if (!sent) return undefined;
  const { members, spans, bytes } = sent;
  const items = Array.isArray(body) ? (body as unknown[]) : [body];
  // Each text is copied out of the bytes, not sliced from the body's string: a slice would keep a
  // whole batch's text alive, into the old generation, for as long as any one record's.
  const encoding = isAscii(bytes) ? 'latin1' : 'utf8';
  return items.map((_item, position) => {
    const span = spans[position];
    if (!span || span.spaced || span.members !== members[position]) return undefined;
    return bytes.toString(encoding, span.start, span.end);
  });
}

/** `body.slice(start, end)`, with the texts of its records known as they are for the body's. */
export function sliceSentBody(body: unknown[], start: number, end: number): unknown[] {
  const part = body.slice(start, end);
  const sent = sentBodies.get(body);
  if (sent) sentBodies.set(part, { ...sent, members: sent.members.slice(start, end), spans: sent.spans.slice(start, end) });
  return part;
}
