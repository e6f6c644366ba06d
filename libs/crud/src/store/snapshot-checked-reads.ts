import type { QueryBudget } from '../core/query/query-budget';
import { parametersKey } from './grouped-selections';
import type { SqlFragment } from './sql-dialect';

/** What a statement answered, and the snapshot (`pg_current_snapshot()`) it read under. */
export interface UnderSnapshot<T> {
  snapshot: string;
  answer: T;
}

export interface SnapshotStatements<T> {
  /** The read's statement, with its snapshot. */
  read(fragment: SqlFragment, budget: QueryBudget | undefined): Promise<UnderSnapshot<T>>;
  /** The snapshot of a statement sent after this call: never of one already in flight. */
  snapshot(budget: QueryBudget | undefined): Promise<string>;
  /** How much an answer weighs against `maxSize` (characters, say). */
  sizeOf(answer: T): number;
}

interface Kept<T> extends UnderSnapshot<T> {
  size: number;
}

/**
 * Answers of PostgreSQL reads kept in this process with the snapshot each was read under, and
 * given again only once a later statement's snapshot is the same: then no transaction has
 * committed since (a commit moves `xmax` or leaves `xip`, whichever database of the cluster it
 * wrote, and whichever process or client sent it), so the statement would answer exactly what it
 * answered. The later statement is sent after the read arrived, never one already in flight: a
 * write that a client saw acknowledged before it asked is in its snapshot. It is a statement that
 * reads nothing (`snapshot`), shared by every read that waits for one (`GroupedSelections`).
 *
 * A kept answer is asked about only while its snapshot is the latest this process saw: while
 * writes go on, each read's snapshot differs from the last one's, and a check that would fail
 * costs no statement. Answers are forgotten oldest first past `maxSize`, and one over a
 * sixteenth of it is not kept.
 *
 * Why: on PostgreSQL every read is a statement that wakes a backend on the service's cores, and
 * the backend's CPU is taken from the service's (README "Performance", W3 on PostgreSQL); the
 * check is a statement too, but one that reads no record and is shared.
 */
export class SnapshotCheckedReads<T> {
  private readonly kept = new Map<string, Kept<T>>();
  private keptSize = 0;
  private latest: string | undefined;

  constructor(
    private readonly statements: SnapshotStatements<T>,
    private readonly maxSize: number,
  ) {}

  /** `key` names the answer (equal keys, equal statements and parameters); undefined: read, never kept. */
  async read(key: string | undefined, fragment: SqlFragment, budget: QueryBudget | undefined): Promise<T> {
    const kept = key === undefined ? undefined : this.candidate(key);
    if (kept) {
      const snapshot = await this.statements.snapshot(budget);
      this.latest = snapshot;
      if (snapshot === kept.snapshot) return kept.answer;
    }
    const { snapshot, answer } = await this.statements.read(fragment, budget);
    this.latest = snapshot;
    if (key !== undefined) this.keep(key, { snapshot, answer, size: this.statements.sizeOf(answer) });
    return answer;
  }

  /** The answers kept, and their size in all: what a test asks. */
  get size(): { answers: number; size: number } {
    return { answers: this.kept.size, size: this.keptSize };
  }

  private candidate(key: string): Kept<T> | undefined {
    const kept = this.kept.get(key);
    if (kept === undefined || kept.snapshot === this.latest) return kept;
    this.forget(key, kept);
    return undefined;
  }

  private keep(key: string, answer: Kept<T>): void {
    const before = this.kept.get(key);
    if (before) this.forget(key, before);
    if (answer.size > this.maxSize / 16) return;
    this.kept.set(key, answer);
    this.keptSize += answer.size;
    while (this.keptSize > this.maxSize) {
      const [oldestKey, oldest] = this.kept.entries().next().value!;
      this.forget(oldestKey, oldest);
    }
  }

  private forget(key: string, kept: Kept<T>): void {
    this.kept.delete(key);
    this.keptSize -= kept.size;
  }
}

/** A key equal for reads of one statement with equal parameters; undefined where JSON would not tell the parameters apart exactly. */
export function statementKey(fragment: SqlFragment): string | undefined {
  const params = parametersKey(fragment.params);
  return params === undefined ? undefined : `${fragment.sql}\u0000${params}`;
}
