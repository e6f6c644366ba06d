import { valuesAtPath } from '../core/query/field-path';
import { ENDLESS_SLICE, SliceClock } from '../core/query/query-budget';
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
 * The `size` first records of those offered, in order. It keeps them in a heap whose top is the
 * last of them, so each offer costs a few comparisons: sorting a full buffer at once (100,000
 * entries by 16 terms: half a second measured) would hold the event loop. Memory depends on
 * `size`, never on how many are offered.
 */
export class FirstRanked {
  private readonly heap: Ranked[] = [];

  constructor(
    private readonly size: number,
    private readonly order: MemoryOrder,
  ) {}

  offer(entry: Ranked): void {
    const { heap } = this;
    if (heap.length < this.size) {
      heap.push(entry);
      this.up(heap.length - 1);
    } else if (heap.length > 0 && this.order.compare(entry, heap[0]) < 0) {
      // Anything after the last of the first `size` can never be among them.
      heap[0] = entry;
      this.down(0);
    }
  }

  /** The kept entries in order; the heap is used up. */
  sorted(): Ranked[] {
    const run = this.drain(ENDLESS_SLICE);
    let step = run.next();
    while (!step.done) step = run.next();
    return step.value;
  }

  /**
   * The same a few comparisons at a time (taking the last off the heap, repeatedly), pausing
   * when the slice is spent: sorting 50,000 entries by 16 terms at once took 0.6 s.
   */
  *drain(clock: SliceClock): Generator<void, Ranked[], void> {
    const { heap } = this;
    const out = new Array<Ranked>(heap.length);
    for (let at = heap.length - 1; at >= 0; at--) {
      out[at] = heap[0];
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        this.down(0);
      }
      if (clock.sliceSpent) yield;
    }
    return out;
  }

  /** A max-heap by query order: each parent comes after its children. */
  private after(a: number, b: number): boolean {
    return this.order.compare(this.heap[a], this.heap[b]) > 0;
  }

  private up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.after(at, parent)) return;
      this.swap(at, parent);
      at = parent;
    }
  }

  private down(at: number): void {
    const { length } = this.heap;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let largest = at;
      if (left < length && this.after(left, largest)) largest = left;
      if (right < length && this.after(right, largest)) largest = right;
      if (largest === at) return;
      this.swap(at, largest);
      at = largest;
    }
  }

  private swap(a: number, b: number): void {
    const held = this.heap[a];
    this.heap[a] = this.heap[b];
    this.heap[b] = held;
  }
}
