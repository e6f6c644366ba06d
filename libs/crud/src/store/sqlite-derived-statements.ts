import type { Statement } from 'better-sqlite3';

/**
 * Statements derived from others (the same read selecting its records another way), prepared
 * once and found by the statement they derive from: the derived text is neither built nor
 * hashed again at each read. A statement `derive` makes nothing of maps to null.
 */
export class DerivedStatements {
  private readonly derived = new WeakMap<Statement, Statement | null>();

  constructor(private readonly derive: (sql: string) => Statement | null) {}

  /** The statement derived from `from`, whose text is `sql`. */
  of(from: Statement, sql: string): Statement | null {
    let derived = this.derived.get(from);
    if (derived === undefined) {
      derived = this.derive(sql);
      this.derived.set(from, derived);
    }
    return derived;
  }
}
