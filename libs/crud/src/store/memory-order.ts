import { valuesAtPath } from '../core/query/field-path';
import { compareCodePoints } from '../core/query/query-evaluator';
import { JsonObject, OrderTerm } from '../core/query/query.types';
import { scalarText } from '../core/query/scalar-text';
import { isRecordId } from './where-compiler';

type Key = number | string | null;

/** A record's place in a query order: its keys (per term a number and a text, or the id), then its arrival. */
export interface Ranked {
  seq: number;
  keys: Key[];
}

/**
 * The order SQL gives from the value index (see `RecordSelection.orderBy`), computed from the
 * record itself, for paths the index does not hold. Per term: the smallest (ascending) or
 * largest (descending) number at the path, then the smallest or largest text, where numbers and
 * booleans count by their JSON text just as the index stores them; texts compare by code point
 * (UTF-8 byte order, as both databases compare the index); a record without one sorts last in
 * either direction. Ties keep arrival order. The unit tests pin this to the SQL order.
 */
export class MemoryOrder {
  constructor(private readonly terms: readonly OrderTerm[]) {}

  rank(seq: number, id: string, doc: JsonObject): Ranked {
    const keys: Key[] = [];
    for (const term of this.terms) {
      if (isRecordId(term.path)) {
        keys.push(id);
        continue;
      }
      const better = term.descending ? 1 : -1;
      let num: number | null = null;
      let text: string | null = null;
      for (const value of valuesAtPath(doc, term.path)) {
        if (typeof value === 'number' && (num === null || Math.sign(value - num) === better)) num = value;
        const valueText = scalarText(value);
        if (valueText !== undefined && (text === null || Math.sign(compareCodePoints(valueText, text)) === better)) text = valueText;
      }
      keys.push(num, text);
    }
    return { seq, keys };
  }

  compare(a: Ranked, b: Ranked): number {
    let key = 0;
    for (const term of this.terms) {
      const width = isRecordId(term.path) ? 1 : 2;
      for (let end = key + width; key < end; key++) {
        const order = compareKeys(a.keys[key], b.keys[key], term.descending);
        if (order !== 0) return order;
      }
    }
    return a.seq - b.seq;
  }
}

/** SQL's `ASC|DESC NULLS LAST`, for keys of one kind. */
function compareKeys(a: Key, b: Key, descending: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = typeof a === 'number' ? Math.sign(a - (b as number)) : compareCodePoints(a, b as string);
  return descending ? -order : order;
}

/**
 * The `size` first records of those offered, in order. It holds at most twice `size` entries
 * (it sorts and cuts when full), so memory depends on `size`, never on how many are offered.
 */
export class FirstRanked {
  private entries: Ranked[] = [];
  private last?: Ranked;

  constructor(
    private readonly size: number,
    private readonly order: MemoryOrder,
  ) {}

  offer(entry: Ranked): void {
    // Once `size` entries are known, anything after the last of them can never be among the first.
    if (this.last && this.order.compare(entry, this.last) >= 0) return;
    this.entries.push(entry);
    if (this.entries.length >= 2 * this.size) this.cut();
  }

  sorted(): Ranked[] {
    this.cut();
    return this.entries;
  }

  private cut(): void {
    this.entries.sort((a, b) => this.order.compare(a, b));
    if (this.entries.length < this.size) return;
    this.entries.length = this.size;
    this.last = this.entries[this.size - 1];
  }
}
