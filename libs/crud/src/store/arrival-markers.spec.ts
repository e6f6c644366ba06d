import Database from 'better-sqlite3';
import { ArrivalMarkers, MARKER_STRIDE } from './arrival-markers';
import { SqliteRecordStore } from './sqlite-record.store';
import { createDatabase, insertAll, readIds, temporaryDatabaseFile } from './store.fixtures';
import { ValueIndex } from './value-index';

const SIZE = 3 * MARKER_STRIDE + 100;
const docs = (prefix: string, from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: `${prefix}${from + i}` }));

describe('ArrivalMarkers', () => {
  /** A family's seqs in arrival order, with a counter of the lookups made. */
  const lookups = (seqs: number[]) => {
    const asked: [number, number][] = [];
    const markers = new ArrivalMarkers((_family, fromSeq, skip) => {
      asked.push([fromSeq, skip]);
      const start = seqs.findIndex((seq) => seq >= fromSeq);
      return start === -1 ? undefined : seqs[start + skip];
    });
    return { markers, asked };
  };
  const SEQS = Array.from({ length: SIZE }, (_, i) => 10 + 3 * i);

  it('answers the seq at every offset, the family over and past its end', () => {
    const { markers } = lookups(SEQS);
    for (const offset of [0, 1, MARKER_STRIDE - 1, MARKER_STRIDE, MARKER_STRIDE + 1, 2 * MARKER_STRIDE + 7, SIZE - 1, SIZE, SIZE + 5000]) {
      expect([offset, markers.seqAt('f', offset, 1)]).toEqual([offset, SEQS[offset]]);
    }
  });

  it('counts past the nearest marker only, once the markers are known, until another connection commits or a record is removed', () => {
    const { markers, asked } = lookups(SEQS);
    markers.seqAt('f', 3 * MARKER_STRIDE + 5, 1);
    // The first record, three markers, then five places.
    expect(asked).toEqual([
      [0, 0],
      [SEQS[0], MARKER_STRIDE],
      [SEQS[MARKER_STRIDE], MARKER_STRIDE],
      [SEQS[2 * MARKER_STRIDE], MARKER_STRIDE],
      [SEQS[3 * MARKER_STRIDE], 5],
    ]);
    asked.length = 0;
    expect(markers.seqAt('f', 2 * MARKER_STRIDE + 9, 1)).toBe(SEQS[2 * MARKER_STRIDE + 9]);
    expect(asked).toEqual([[SEQS[2 * MARKER_STRIDE], 9]]);
    asked.length = 0;
    markers.seqAt('f', 2 * MARKER_STRIDE + 9, 2);
    expect(asked).toHaveLength(4);
    asked.length = 0;
    markers.removed();
    markers.seqAt('f', 2 * MARKER_STRIDE + 9, 2);
    expect(asked).toHaveLength(4);
  });
});

describe('pages at an offset on SQLite (ArrivalMarkers in the store)', () => {
  let database: { file: string; remove: () => void };
  let db: Database.Database;
  let store: SqliteRecordStore;

  beforeEach(async () => {
    database = temporaryDatabaseFile('arrival-markers-');
    db = createDatabase(database.file);
    db.pragma('journal_mode = WAL');
    store = new SqliteRecordStore(db);
    // Another family's records between these, so that offsets count this family's alone.
    for (let from = 0; from < SIZE; from += 500) {
      await insertAll(store, 'paged', docs('p', from, Math.min(SIZE, from + 500)));
      await insertAll(store, 'other', docs('o', from, from + 50));
    }
  });
  afterEach(() => {
    db.close();
    database.remove();
  });

  const page = (offset: number, count = 3) => readIds(store, { family: 'paged', offset, count });
  const expected = (ids: string[], offset: number, count = 3) => ids.slice(offset, offset + count);
  const OFFSETS = [0, 5, MARKER_STRIDE, 2 * MARKER_STRIDE + 17, SIZE - 2, SIZE];

  it('reads the same page as counting from the start, after new records too', async () => {
    let ids = docs('p', 0, SIZE).map((doc) => doc.id);
    for (const offset of OFFSETS) expect(await page(offset)).toEqual(expected(ids, offset));
    await insertAll(store, 'paged', docs('p', SIZE, SIZE + 10));
    ids = docs('p', 0, SIZE + 10).map((doc) => doc.id);
    for (const offset of [...OFFSETS, SIZE + 7]) expect(await page(offset)).toEqual(expected(ids, offset));
  });

  it('forgets its markers when records are removed, through the store or by another connection', async () => {
    let ids = docs('p', 0, SIZE).map((doc) => doc.id);
    for (const offset of OFFSETS) expect(await page(offset)).toEqual(expected(ids, offset));

    const removed = await store.delete({ family: 'paged', offset: 0, count: 7, order: [], valueIndex: ValueIndex.EVERY_PATH });
    expect(removed).toHaveLength(7);
    ids = ids.slice(7);
    for (const offset of OFFSETS) expect(await page(offset)).toEqual(expected(ids, offset));

    const other = new Database(database.file);
    other.prepare("DELETE FROM inventory_record WHERE family = 'paged' AND id IN ('p1500', 'p1501', 'p3000')").run();
    other.close();
    ids = ids.filter((id) => !['p1500', 'p1501', 'p3000'].includes(id));
    for (const offset of OFFSETS) expect(await page(offset)).toEqual(expected(ids, offset));
  });
});
