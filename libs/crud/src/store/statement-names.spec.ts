import { StatementNames } from './statement-names';

describe('StatementNames', () => {
  it('gives a text the same name every time, and different texts different names', () => {
    const names = new StatementNames();
    const first = names.nameOf('SELECT 1');
    expect(first).toBeDefined();
    expect(names.nameOf('SELECT 1')).toBe(first);
    expect(names.nameOf('SELECT 2')).not.toBe(first);
  });

  it('names no new text past its cap, and keeps the names it gave', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('a');
    const b = names.nameOf('b');
    expect(names.nameOf('c')).toBeUndefined();
    expect([names.nameOf('a'), names.nameOf('b')]).toEqual([a, b]);
  });
});
