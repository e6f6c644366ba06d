/**
 * A set of record sequence numbers of one family, or its complement (`negated`): the result of
 * one part of a where clause, combined with the others in memory (see `seq-tree-plan.ts`).
 * Complements stay lazy, so `not` of a small set costs nothing until the rows are read.
 */
export class SeqSet {
  static readonly ALL = new SeqSet(new Set(), true);
  static readonly NONE = new SeqSet(new Set(), false);

  constructor(
    readonly seqs: ReadonlySet<number>,
    readonly negated: boolean,
  ) {}

  get isAll(): boolean {
    return this.negated && this.seqs.size === 0;
  }

  get isNone(): boolean {
    return !this.negated && this.seqs.size === 0;
  }

  has(seq: number): boolean {
    return this.seqs.has(seq) !== this.negated;
  }

  not(): SeqSet {
    return new SeqSet(this.seqs, !this.negated);
  }

  and(other: SeqSet): SeqSet {
    if (!this.negated && !other.negated) return new SeqSet(intersection(this.seqs, other.seqs), false);
    if (!this.negated) return new SeqSet(difference(this.seqs, other.seqs), false);
    if (!other.negated) return new SeqSet(difference(other.seqs, this.seqs), false);
    return new SeqSet(union(this.seqs, other.seqs), true);
  }

  or(other: SeqSet): SeqSet {
    if (!this.negated && !other.negated) return new SeqSet(union(this.seqs, other.seqs), false);
    if (!this.negated) return new SeqSet(difference(other.seqs, this.seqs), true);
    if (!other.negated) return new SeqSet(difference(this.seqs, other.seqs), true);
    return new SeqSet(intersection(this.seqs, other.seqs), true);
  }

  /** The members in arrival order; only for a set that is not a complement. */
  sorted(): number[] {
    if (this.negated) throw new Error('a complement has no finite list of members');
    // A typed array sorts numerically, faster than an array with a comparator; filled and read
    // by hand, since Float64Array.from(set) and Array.from(typed) take slow generic paths
    // (measured: 10 members 1.42 -> 0.38 µs, 1,000 members 83 -> 31 µs).
    const sorted = new Float64Array(this.seqs.size);
    let position = 0;
    for (const seq of this.seqs) sorted[position++] = seq;
    sorted.sort();
    const list = new Array<number>(sorted.length);
    for (let index = 0; index < sorted.length; index++) list[index] = sorted[index];
    return list;
  }
}

function intersection(a: ReadonlySet<number>, b: ReadonlySet<number>): Set<number> {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const out = new Set<number>();
  for (const seq of small) if (large.has(seq)) out.add(seq);
  return out;
}

function difference(a: ReadonlySet<number>, b: ReadonlySet<number>): Set<number> {
  const out = new Set<number>();
  for (const seq of a) if (!b.has(seq)) out.add(seq);
  return out;
}

function union(a: ReadonlySet<number>, b: ReadonlySet<number>): Set<number> {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const out = new Set<number>(large);
  for (const seq of small) out.add(seq);
  return out;
}
