/**
 * The benchmark's records, built deterministically from their number so that every process
 * (preloader, load generator, checks) agrees on them without passing data around: the load
 * generator can tell the exact byte length of a correct answer from an id alone.
 *
 * Each record is ~300 bytes of compact JSON, ASCII only (so string length == byte length).
 * `source` is shared by exactly `sourceGroup()` consecutive preloaded records (10 unless the
 * run's `--hits` says otherwise), which is what W3 filters on: events index `source` (see the
 * event family's `indexedPaths`), so W3 measures the value index.
 */

/** The W3 goal holds for 10 to 40 matches of 10k; W3 and W3U match 10 unless told otherwise. */
export const DEFAULT_SOURCE_GROUP = 10;
let groupSize = DEFAULT_SOURCE_GROUP;

/** Records sharing one `source` (and one `flow`) value: W3 and W3U match exactly this many. */
export function sourceGroup(): number {
  return groupSize;
}

/** Sets `sourceGroup()` for this process (the load generator's, to the run's `--hits`, which run.ts checks). */
export function setSourceGroup(records: number): void {
  groupSize = records;
}

export function recordId(i: number): string {
  return `ev-${String(i).padStart(7, '0')}`;
}

/** An IPv4-like address per group of `sourceGroup()` preloaded records, all under 10.0.0.0/8 (unique up to 2^24 groups). */
export function sourceOf(i: number): string {
  return address(10, Math.floor(i / groupSize));
}

export function sourceCount(records: number): number {
  return Math.ceil(records / groupSize);
}

function address(first: number, n: number): string {
  return `${first}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

const SEVERITIES = ['debug', 'info', 'notice', 'warning', 'error'];
const PROTOS = ['tcp', 'udp', 'icmp'];
const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt';

/** A cheap integer hash, so that fields (and lengths) vary from record to record but repeatably. */
function mix(i: number): number {
  let x = (i + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** One event as compact JSON; `source` is passed in so that new (W2/W4) records can use sources W3 never asks for. */
function eventJson(id: string, source: string, flow: string, i: number): string {
  const h = mix(i);
  const second = i % 86400;
  const time = `${String(Math.floor(second / 3600)).padStart(2, '0')}:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}`;
  return JSON.stringify({
    id,
    host: `host-${String((h >>> 7) % 1_000_000).padStart(6, '0')}`,
    source,
    flow,
    timestamp: `2026-11-21T${time}.${String(h % 1000).padStart(3, '0')}Z`,
    severity: SEVERITIES[h % SEVERITIES.length],
    kind: 'network.flow',
    bytes: h % 1_000_000,
    packets: h % 977,
    tags: ['bench', PROTOS[h % 3]],
    payload: {
      src_port: 1024 + (h % 60000),
      dst_port: [22, 53, 80, 443, 5432][h % 5],
      proto: PROTOS[h % 3],
      note: FILLER.slice(0, 16 + (h % 40)),
    },
  });
}

/** Preloaded record number i (0-based). */
export function recordJson(i: number): string {
  return eventJson(recordId(i), sourceOf(i), flowOf(i), i);
}

/** A record written during W2/W4: unique id, and a source under 11.0.0.0/8, outside every preloaded group. */
export function newRecordJson(id: string, seq: number): string {
  return eventJson(id, address(11, seq), 'new', seq);
}

/**
 * W3U's value: like `source`, shared by exactly `sourceGroup()` consecutive preloaded records, but on `flow`,
 * a path events do not declare (`indexedPaths`), so W3U measures a filter nobody declared.
 */
export function flowOf(i: number): string {
  return `f-${String(Math.floor(i / groupSize)).padStart(7, '0')}`;
}

/** Marks in a template of a new record (bench/wrk.lua fills them): where its id and its source go. */
export const ID_MARK = '\u0001';
export const SOURCE_MARK = '\u0002';

/** A new record's JSON with its id and source left as marks (control characters, which JSON.stringify writes as \u0001, \u0002). */
export function newRecordTemplate(seq: number): string {
  return eventJson('\u0001', '\u0002', 'new', seq).replace('\\u0001', ID_MARK).replace('\\u0002', SOURCE_MARK);
}

/** JSON array text of the records at arrival positions [from, to), as one POST body. */
export function batchBody(from: number, to: number, recordAt: (position: number) => number = (position) => position): string {
  const parts: string[] = [];
  for (let k = from; k < to; k++) parts.push(recordJson(recordAt(k)));
  return `[${parts.join(',')}]`;
}

/**
 * With `--scattered`, which record arrives at each position of a preload of `records`: position
 * k takes record k × STRIDE mod `records`, a permutation since the stride shares no factor with
 * the count. The records of one `source`/`flow` group (consecutive numbers) then arrive far
 * apart, each in a different part of the table, as events from one source arrive between other
 * sources' events; by default they arrive together, neighbours in every B-tree.
 */
export function scatteredArrival(records: number): (position: number) => number {
  let stride = SCATTER_STRIDE % records || 1;
  while (gcd(stride, records) !== 1) stride++;
  // Exact in doubles: position × stride stays far below 2^53 for any family the bench loads.
  return (position) => (position * stride) % records;
}

/** A prime far from any group size, so that neighbours in arrival order belong to unrelated groups. */
const SCATTER_STRIDE = 7919;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The envelope a create answers with, per docs/responses.md; the raw server sends the same bytes. */
export function createdEnvelope(id: string): { status: string; code: number; error: boolean; message: string } {
  return { status: 'Created', code: 201, error: false, message: `Event with id=${id} correctly created` };
}

/** Byte length of one created envelope for `id`: a fixed part plus the id. */
export const ENVELOPE_BASE_LENGTH = JSON.stringify(createdEnvelope('')).length;
