import { Logger } from '@nestjs/common';
import { createServer, Server } from 'node:net';
import { once } from 'node:events';
import { maskedDatabaseUrl, retryFor, waitForDatabase } from './wait-for-database';
import { StartError } from '../startup/start-error';

describe('maskedDatabaseUrl', () => {
  it.each([
    ['postgres://u:secret@db:5432/inv', 'postgres://u:***@db:5432/inv'],
    ['postgres://u:p%40ss%3Aword@db/inv?sslmode=require', 'postgres://u:***@db/inv?sslmode=require'],
    ['postgres://u@db/inv', 'postgres://u@db/inv'],
    ['postgres://db/inv', 'postgres://db/inv'],
  ])('%s → %s', (url, masked) => {
    expect(maskedDatabaseUrl(url)).toBe(masked);
  });
});

/** A clock the test moves: each sleep advances it, so retries take no real time. */
function fakeClock() {
  let time = 1_000_000;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => time,
    sleep: async (ms: number) => {
      pauses.push(ms);
      time += ms;
    },
    advance: (ms: number) => (time += ms),
  };
}

const transient = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

describe('retryFor', () => {
  it('retries until the attempt succeeds, with growing pauses', async () => {
    const clock = fakeClock();
    let calls = 0;
    await retryFor(
      30_000,
      async () => {
        if (++calls < 6) throw transient();
      },
      { permanent: () => false, ...clock },
    );
    expect(calls).toBe(6);
    expect(clock.pauses).toEqual([250, 500, 1000, 2000, 2000]);
  });

  it('gives up with the last failure once the retry time has passed', async () => {
    const clock = fakeClock();
    let calls = 0;
    const failures: number[] = [];
    const attempt = async () => {
      calls++;
      clock.advance(100);
      throw transient();
    };
    await expect(
      retryFor(5000, attempt, { permanent: () => false, onFailure: (_, left) => failures.push(left), ...clock }),
    ).rejects.toThrow('ECONNREFUSED');
    expect(clock.now() - 1_000_000).toBeGreaterThanOrEqual(5000);
    expect(clock.now() - 1_000_000).toBeLessThan(5000 + 100 + 1);
    expect(calls).toBeGreaterThan(3);
    expect(failures.every((left) => left > 0)).toBe(true);
  });

  it('makes one attempt when the retry time is 0', async () => {
    const clock = fakeClock();
    let calls = 0;
    await expect(
      retryFor(
        0,
        async () => {
          calls++;
          throw transient();
        },
        { permanent: () => false, ...clock },
      ),
    ).rejects.toThrow();
    expect(calls).toBe(1);
  });

  it('stops at once on a permanent failure', async () => {
    const clock = fakeClock();
    let calls = 0;
    const refused = Object.assign(new Error('password authentication failed for user "u"'), { code: '28P01' });
    await expect(
      retryFor(
        30_000,
        async () => {
          calls++;
          throw refused;
        },
        { permanent: (error) => (error as { code?: string }).code === '28P01', ...clock },
      ),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });

  it('gives each attempt the time left, within 0.25 to 3 s', async () => {
    const clock = fakeClock();
    const timeouts: number[] = [];
    await expect(
      retryFor(
        4000,
        async (timeoutMs) => {
          timeouts.push(timeoutMs);
          clock.advance(timeoutMs);
          throw transient();
        },
        { permanent: () => false, ...clock },
      ),
    ).rejects.toThrow();
    expect(timeouts[0]).toBe(3000);
    expect(timeouts.slice(1).every((ms) => ms >= 250 && ms <= 1000)).toBe(true);
  });
});

describe('waitForDatabase (PostgreSQL URL, no server)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    Logger.overrideLogger(false);
    // A port that accepts and hangs up at once: the driver fails fast, as when the server is starting.
    server = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it('fails with a StartError naming DATABASE_URL, the password masked, after the retry time', async () => {
    const started = Date.now();
    const failure = await waitForDatabase({
      database: { type: 'postgres', url: `postgres://u:hunter2@127.0.0.1:${port}/x` },
      databaseRetryMs: 1000,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartError);
    expect((failure as StartError).message).toMatch(
      new RegExp(`^DATABASE_URL: postgres://u:\\*\\*\\*@127\\.0\\.0\\.1:${port}/x did not answer within 1 s`),
    );
    expect((failure as StartError).message).not.toContain('hunter2');
    expect((failure as StartError).message).not.toContain('\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});
