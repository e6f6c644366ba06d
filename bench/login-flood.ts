/**
 * How long a correct Basic login that is not yet cached takes while clients flood the service
 * with wrong passwords for another user from another address (README "Throttling").
 *
 *   npx ts-node --transpile-only -r tsconfig-paths/register bench/login-flood.ts            # 20 guessing clients
 *   FLOOD_CLIENTS=0 npx ts-node --transpile-only -r tsconfig-paths/register bench/login-flood.ts   # the login alone
 *
 * A fresh service process (SQLite) per run, so the login's password check is never cached. The
 * guesses come from 127.0.0.2 and the login from 127.0.0.3 (loopback aliases, Linux).
 */
import { request } from 'node:http';
import { startServiceProcess } from '../test/support/service-process';
import { TEST_ADMIN } from '../test/support/test-credentials';
import { createTestDatabase } from '../test/support/test-databases';

const CLIENTS = Number(process.env.FLOOD_CLIENTS ?? 20);
const FLOOD_MS = 1000;

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function get(url: string, authorization: string, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${url}/type/network-link`, { agent: false, localAddress, headers: { Authorization: authorization } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const database = await createTestDatabase('sqlite');
  const service = await startServiceProcess(database.url);
  try {
    let flooding = true;
    const statuses: Record<number, number> = {};
    const flood = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; flooding; i++) {
        const { status } = await get(service.url, basic('intruder', `guess-${client}-${i}`), '127.0.0.2');
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    });
    if (CLIENTS > 0) await new Promise((resolve) => setTimeout(resolve, FLOOD_MS));
    const login = await get(service.url, basic(TEST_ADMIN.username, TEST_ADMIN.password), '127.0.0.3');
    flooding = false;
    await Promise.all(flood);
    process.stdout.write(
      `${JSON.stringify({ clients: CLIENTS, login: login.status, loginMs: Math.round(login.ms), guesses: statuses })}\n`,
    );
  } finally {
    await service.stop();
    await database.drop();
  }
}

void main();
