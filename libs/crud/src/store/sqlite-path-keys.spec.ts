import Database from 'better-sqlite3';
import { SqlitePathKeys } from './sqlite-path-keys';
import { createDatabase } from './store.fixtures';

describe('SqlitePathKeys', () => {
  let db: Database.Database;
  let keys: SqlitePathKeys;
  const stored = () => db.prepare('SELECT family, path, key FROM inventory_value_path ORDER BY key').all();
  /** One write: its lookup inside a transaction, then `confirm` outside it, as SqliteGroupCommit does. */
  const write = <T>(work: () => T, outcome: 'commit' | 'rollback' = 'commit'): T => {
    db.exec('BEGIN IMMEDIATE');
    const result = work();
    db.exec(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
    keys.confirm();
    return result;
  };

  beforeEach(() => {
    db = createDatabase();
    keys = new SqlitePathKeys(db);
  });
  afterEach(() => db.close());

  it('hands out one key per family and path, and the same key again', () => {
    const [a, b, a2] = write(() => {
      const ofEvent = keys.forWrite('event');
      return [ofEvent('source'), ofEvent('host.name'), ofEvent('source')];
    });
    const other = write(() => keys.forWrite('other')('source'));
    expect(a2).toBe(a);
    expect(new Set([a, b, other]).size).toBe(3);
    expect(write(() => keys.forWrite('event')('source'))).toBe(a);
    expect(stored()).toEqual([
      { family: 'event', path: 'source', key: a },
      { family: 'event', path: 'host.name', key: b },
      { family: 'other', path: 'source', key: other },
    ]);
  });

  it('never keeps a key whose transaction rolled back: its number may go to another path', () => {
    const rolledBack = write(() => keys.forWrite('event')('source'), 'rollback');
    const host = write(() => keys.forWrite('event')('host'));
    expect(host).toBe(rolledBack);
    const source = write(() => keys.forWrite('event')('source'));
    expect(source).not.toBe(host);
    expect(stored()).toEqual([
      { family: 'event', path: 'host', key: host },
      { family: 'event', path: 'source', key: source },
    ]);
  });

  it('keeps a committed key without asking SQL again', () => {
    const key = write(() => keys.forWrite('event')('source'));
    // A table changed behind its back shows whether the key still comes from SQL.
    db.exec('DELETE FROM inventory_value_path');
    expect(write(() => keys.forWrite('event')('source'))).toBe(key);
    expect(stored()).toEqual([]);
  });

  it('finds a key another connection committed', () => {
    db.exec("INSERT INTO inventory_value_path (key, family, path) VALUES (41, 'event', 'source')");
    expect(write(() => keys.forWrite('event')('source'))).toBe(41);
  });

  it('confirms nothing while a transaction is open, and leaves it for later', () => {
    db.exec('BEGIN IMMEDIATE');
    const key = keys.forWrite('event')('source');
    keys.confirm();
    db.exec('ROLLBACK');
    keys.confirm();
    expect(write(() => keys.forWrite('event')('host'))).toBe(key);
    expect(write(() => keys.forWrite('event')('source'))).not.toBe(key);
  });
});
