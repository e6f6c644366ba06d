import Database from 'better-sqlite3';
import { DerivedStatements } from './sqlite-derived-statements';

describe('DerivedStatements', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());

  it('derives once per statement, and remembers that a statement has no derivative', () => {
    const asked: string[] = [];
    const counted = new DerivedStatements((sql) => {
      asked.push(sql);
      return sql.includes('1') ? db.prepare(`SELECT count(*) FROM (${sql})`).pluck() : null;
    });
    const one = db.prepare('SELECT 1');
    const two = db.prepare('SELECT 2');
    const derived = counted.of(one, 'SELECT 1');
    expect(derived?.get()).toBe(1);
    expect(counted.of(one, 'SELECT 1')).toBe(derived);
    expect(counted.of(two, 'SELECT 2')).toBeNull();
    expect(counted.of(two, 'SELECT 2')).toBeNull();
    expect(asked).toEqual(['SELECT 1', 'SELECT 2']);
  });
});
