import { toPostgresPlaceholders } from './sql-dialect';
import { ReadStatements, statementName, StatementNames } from './statement-names';

describe('StatementNames', () => {
  it('gives a text the same name every time, and different texts different names', () => {
    const names = new StatementNames();
    const first = names.nameOf('SELECT 1');
    expect(first).toBeDefined();
    expect(names.nameOf('SELECT 1')).toBe(first);
    expect(names.nameOf('SELECT 2')).not.toBe(first);
  });

  it('gives a text the same name in every instance, since stores on one pool share its connections', () => {
    const [one, other] = [new StatementNames(), new StatementNames()];
    // Each instance's first text: numbered in order of sight, both would be named alike.
    const selectOne = one.nameOf('SELECT 1');
    const selectTwo = other.nameOf('SELECT 2');
    expect(selectTwo).not.toBe(selectOne);
    expect(other.nameOf('SELECT 1')).toBe(selectOne);
    expect(one.nameOf('SELECT 2')).toBe(selectTwo);
  });

  it('names no new text past its cap, and keeps the names it gave', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('a');
    const b = names.nameOf('b');
    expect(names.nameOf('c')).toBeUndefined();
    expect([names.nameOf('a'), names.nameOf('b')]).toEqual([a, b]);
  });

  it('names a write by its text alone, apart from a read of the same text', () => {
    expect(statementName('write', 'INSERT 1')).toBe(statementName('write', 'INSERT 1'));
    expect(statementName('write', 'INSERT 1')).not.toBe(statementName('write', 'INSERT 2'));
    expect(statementName('write', 'INSERT 1')).toMatch(/^inventory-write-/);
    expect(new StatementNames().nameOf('INSERT 1')).toBe(statementName('read', 'INSERT 1'));
  });
});

describe('ReadStatements', () => {
  it("turns a text into pg's once, and names the result as StatementNames does", () => {
    const turned: string[] = [];
    const statements = new ReadStatements((sql) => {
      turned.push(sql);
      return toPostgresPlaceholders(sql);
    }, new StatementNames());
    const first = statements.of('SELECT ? + ?');
    expect(first).toEqual({ text: 'SELECT $1 + $2', name: statementName('read', 'SELECT $1 + $2') });
    expect(statements.of('SELECT ? + ?')).toBe(first);
    expect(statements.of('SELECT ?')).toEqual({ text: 'SELECT $1', name: statementName('read', 'SELECT $1') });
    expect(turned).toEqual(['SELECT ? + ?', 'SELECT ?']);
  });

  it('counts the texts of every instance sharing one StatementNames against its cap, and runs later texts unnamed', () => {
    const names = new StatementNames(2);
    const plain = new ReadStatements(toPostgresPlaceholders, names);
    const other = new ReadStatements((sql) => `${toPostgresPlaceholders(sql)} -- other`, names);
    expect(plain.of('SELECT ?').name).toBeDefined();
    expect(other.of('SELECT ?').name).toBeDefined();
    expect(plain.of('SELECT ?, ?')).toEqual({ text: 'SELECT $1, $2', name: undefined });
    expect(other.of('SELECT ?, ?')).toEqual({ text: 'SELECT $1, $2 -- other', name: undefined });
    expect(plain.of('SELECT ?').name).toBe(statementName('read', 'SELECT $1'));
  });
});
