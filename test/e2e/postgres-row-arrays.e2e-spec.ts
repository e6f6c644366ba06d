import { Pool, PoolClient } from 'pg';
import { queryRowArrays } from '../../libs/crud/src/store/postgres-row-arrays';
import { statementName } from '../../libs/crud/src/store/statement-names';
import { createTestDatabase, describeOnPostgres, TestDatabase } from '../support/test-databases';

// The store's reads of records go through queryRowArrays (a query object of its own that pg runs):
// what pg's own queries would answer, on a real PostgreSQL, and the connection left as pg expects.

const READ = 'SELECT $1::int AS g, $2::bigint AS seq, $3::text AS id, $4::text AS doc FROM generate_series(1, $5::int)';

/** The messages the client wrote to PostgreSQL while `work` ran, by their type byte. */
async function messagesSent<T>(client: PoolClient, work: () => Promise<T>): Promise<{ result: T; types: string[] }> {
  const stream = (client as unknown as { connection: { stream: { write: (chunk: Buffer, ...rest: unknown[]) => boolean } } }).connection
    .stream;
  const write = stream.write;
  const types: string[] = [];
  stream.write = function (chunk: Buffer, ...rest: unknown[]) {
    for (let at = 0; at < chunk.length; at += 1 + chunk.readUInt32BE(at + 1)) types.push(String.fromCharCode(chunk[at]));
    return write.call(this, chunk, ...rest);
  };
  try {
    return { result: await work(), types };
  } finally {
    stream.write = write;
  }
}

describeOnPostgres('queryRowArrays on %s', 'read rows through a query object of its own', () => {
  let database: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // As the service's pool: pg then arms a timer per query, which the query must clear.
    pool = new Pool({ connectionString: database.url, max: 1, query_timeout: 30_000 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  async function onClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }

  it("answers pg's rows as arrays of texts, with the columns' names, NULL as null, and parameters as pg sends them", async () => {
    await onClient(async (client) => {
      const params = [3, '9007199254740993', 'a', '{"x":"é\\u001e"}', 2];
      const answer = await queryRowArrays(client, READ, undefined, params);
      const expected = (await client.query({ text: READ, values: params, rowMode: 'array' })).rows as unknown[][];
      expect(answer.columns.names).toEqual(['g', 'seq', 'id', 'doc']);
      expect(answer.columns.typeIds).toEqual([23, 20, 25, 25]);
      expect(answer.rows).toEqual(expected.map((row) => row.map(String)));
      const lists = await queryRowArrays(client, 'SELECT array_length($1::text[], 1) AS n, NULL::text AS nothing', undefined, [
        ['a', 'b,c'],
      ]);
      expect(lists.rows).toEqual([['2', null]]);
    });
  });

  it('prepares a named statement once per connection and asks for its columns once per process', async () => {
    const name = statementName('read', READ);
    await onClient(async (client) => {
      const first = await messagesSent(client, () => queryRowArrays(client, READ, name, [0, '1', 'a', 'd', 1]));
      const second = await messagesSent(client, () => queryRowArrays(client, READ, name, [1, '2', 'b', 'e', 2]));
      // Parse, Bind, Describe, Execute, Sync; then only Bind, Execute, Sync.
      expect(first.types).toEqual(['P', 'B', 'D', 'E', 'S']);
      expect(second.types).toEqual(['B', 'E', 'S']);
      expect(second.result).toEqual({
        columns: { names: ['g', 'seq', 'id', 'doc'], typeIds: [23, 20, 25, 25] },
        rows: [
          ['1', '2', 'b', 'e'],
          ['1', '2', 'b', 'e'],
        ],
      });
      // pg's own queries still find the statement prepared under that name.
      expect((await client.query({ text: READ, name, values: [2, '3', 'c', 'f', 1] })).rows).toEqual([
        { g: 2, seq: '3', id: 'c', doc: 'f' },
      ]);
    });
  });

  it("rejects with PostgreSQL's error and leaves the connection usable, a failed name free to prepare again", async () => {
    await onClient(async (client) => {
      const broken = 'SELECT nonsense FROM nowhere WHERE x = $1';
      const name = statementName('read', broken);
      await expect(queryRowArrays(client, broken, name, [1])).rejects.toMatchObject({ code: '42P01' });
      await expect(queryRowArrays(client, broken, name, [1])).rejects.toMatchObject({ code: '42P01' });
      await expect(queryRowArrays(client, 'SELECT 1 / $1::int AS q', undefined, [0])).rejects.toMatchObject({ code: '22012' });
      expect((await queryRowArrays(client, 'SELECT $1::text AS fine', undefined, ['yes'])).rows).toEqual([['yes']]);
    });
  });

  it('is stopped by pg_cancel_backend like any statement', async () => {
    await onClient(async (client) => {
      const backend = (client as unknown as { processID: number }).processID;
      // Expected before the cancel: the rejection may come while the other pool is still closing.
      const stopped = expect(queryRowArrays(client, 'SELECT pg_sleep(20)::text AS slept', undefined, [])).rejects.toMatchObject({
        code: '57014',
      });
      const other = new Pool({ connectionString: database.url, max: 1 });
      try {
        await new Promise((resolve) => setTimeout(resolve, 200));
        await other.query('SELECT pg_cancel_backend($1)', [backend]);
      } finally {
        await other.end();
      }
      await stopped;
    });
  });

  it('clears its query_timeout timer on every ending, so no query outlives its answer', async () => {
    await onClient(async (client) => {
      const active = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
      const before = active();
      for (let i = 0; i < 20; i++) await queryRowArrays(client, READ, undefined, [i, '1', 'a', 'd', 1]);
      await expect(queryRowArrays(client, 'SELECT 1 / $1::int AS q', undefined, [0])).rejects.toThrow();
      expect(active()).toBeLessThanOrEqual(before);
    });
  });
});
