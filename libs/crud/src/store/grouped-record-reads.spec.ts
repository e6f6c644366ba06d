import { GROUPED_READ_MAX_KEYS, GroupedRecordReads, ReadRecordsNow } from './grouped-record-reads';
import { StoredRow } from './record-selection';

/** A table of (family, id) → doc that records every statement it was asked. */
function table(rows: { family: string; id: string; doc: string }[]) {
  const statements: [string[], string[]][] = [];
  const readNow: ReadRecordsNow = async (families, ids) => {
    statements.push([families, ids]);
    return rows
      .map((row, seq) => ({ ...row, seq: seq + 1 }))
      .filter((row) => families.some((family, i) => family === row.family && ids[i] === row.id))
      .reverse();
  };
  return { statements, readNow };
}

describe('GroupedRecordReads', () => {
  it('asks the lookups of one turn in one statement, and answers each with its own record', async () => {
    const { statements, readNow } = table([
      { family: 'event', id: 'a', doc: '{"id":"a"}' },
      { family: 'link', id: 'a', doc: '{"id":"a","link":1}' },
      { family: 'event', id: 'b', doc: '{"id":"b"}' },
    ]);
    const reads = new GroupedRecordReads(readNow);
    const found = await Promise.all([
      reads.read('event', 'a'),
      reads.read('link', 'a'),
      reads.read('event', 'missing'),
      reads.read('event', 'b'),
    ]);
    expect(statements).toEqual([
      [
        ['event', 'link', 'event', 'event'],
        ['a', 'a', 'missing', 'b'],
      ],
    ]);
    expect(found).toEqual([
      { seq: 1, id: 'a', doc: '{"id":"a"}' },
      { seq: 2, id: 'a', doc: '{"id":"a","link":1}' },
      undefined,
      { seq: 3, id: 'b', doc: '{"id":"b"}' },
    ]);
  });

  it('starts a new statement for lookups of a later turn', async () => {
    const { statements, readNow } = table([{ family: 'event', id: 'a', doc: '{}' }]);
    const reads = new GroupedRecordReads(readNow);
    await reads.read('event', 'a');
    await reads.read('event', 'a');
    expect(statements).toHaveLength(2);
  });

  it('takes lookups arriving over the next turns into the same statement while each turn brings more', async () => {
    const { statements, readNow } = table(['a', 'b', 'c'].map((id) => ({ family: 'event', id, doc: '{}' })));
    const reads = new GroupedRecordReads(readNow);
    // As requests read from sockets over the next two turns: b before the group's first look, c after it.
    const later = new Promise<(StoredRow | undefined)[]>((resolve) =>
      setImmediate(() => {
        const b = reads.read('event', 'b');
        setImmediate(() => resolve(Promise.all([b, reads.read('event', 'c')])));
      }),
    );
    const a = reads.read('event', 'a');
    expect([await a, ...(await later)].map((row) => row?.id)).toEqual(['a', 'b', 'c']);
    expect(statements).toEqual([
      [
        ['event', 'event', 'event'],
        ['a', 'b', 'c'],
      ],
    ]);
  });

  it(`splits a turn of more than ${GROUPED_READ_MAX_KEYS} lookups into several statements`, async () => {
    const { statements, readNow } = table([]);
    const reads = new GroupedRecordReads(readNow);
    await Promise.all(Array.from({ length: GROUPED_READ_MAX_KEYS + 1 }, (_, i) => reads.read('event', `id-${i}`)));
    expect(statements.map(([families]) => families.length)).toEqual([GROUPED_READ_MAX_KEYS, 1]);
  });

  it('fails every lookup of a statement that failed', async () => {
    const reads = new GroupedRecordReads(async () => {
      throw new Error('database unreachable');
    });
    const outcomes = await Promise.allSettled([reads.read('event', 'a'), reads.read('event', 'b')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  });
});
