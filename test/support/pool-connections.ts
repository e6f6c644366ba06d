import { Pool, PoolClient } from 'pg';

/** `count` connections of `pool` held at once, so that the pool opens as many as it must (its `max`: every one). */
export async function holding<T>(pool: Pool, count: number, use: (clients: PoolClient[]) => Promise<T>): Promise<T> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  try {
    return await use(clients);
  } finally {
    for (const client of clients) client.release();
  }
}
