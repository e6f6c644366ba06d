import fc from 'fast-check';
import { SeqSet } from './seq-set';

const RUNS = Number(process.env.FC_RUNS ?? 100);
const SEED = 11_2026;
const UNIVERSE = Array.from({ length: 12 }, (_, seq) => seq + 1);

type Expr = { kind: 'set'; seqs: number[]; negated: boolean } | { kind: 'and' | 'or'; a: Expr; b: Expr } | { kind: 'not'; a: Expr };

const expr: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('set' as const), seqs: fc.subarray(UNIVERSE), negated: fc.boolean() }),
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), a: tie('expr'), b: tie('expr') }),
    fc.record({ kind: fc.constant('not' as const), a: tie('expr') }),
  ),
})).expr;

function evaluate(node: Expr): SeqSet {
  switch (node.kind) {
    case 'set':
      return new SeqSet(new Set(node.seqs), node.negated);
    case 'and':
      return evaluate(node.a).and(evaluate(node.b));
    case 'or':
      return evaluate(node.a).or(evaluate(node.b));
    case 'not':
      return evaluate(node.a).not();
  }
}

/** The plain meaning: the members of the universe, one by one. */
function reference(node: Expr): number[] {
  const holds = (seq: number, n: Expr): boolean => {
    switch (n.kind) {
      case 'set':
        return n.seqs.includes(seq) !== n.negated;
      case 'and':
        return holds(seq, n.a) && holds(seq, n.b);
      case 'or':
        return holds(seq, n.a) || holds(seq, n.b);
      case 'not':
        return !holds(seq, n.a);
    }
  };
  return UNIVERSE.filter((seq) => holds(seq, node));
}

describe('SeqSet', () => {
  it('and, or and not of sets and complements mean what they say', () => {
    fc.assert(
      fc.property(expr, (node) => {
        const set = evaluate(node);
        expect(UNIVERSE.filter((seq) => set.has(seq))).toEqual(reference(node));
        if (!set.negated) expect(set.sorted()).toEqual(reference(node));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('lists members in arrival (numeric) order, not text order', () => {
    expect(new SeqSet(new Set([10, 9, 100, 1]), false).sorted()).toEqual([1, 9, 10, 100]);
    expect(() => SeqSet.ALL.sorted()).toThrow();
    expect(SeqSet.ALL.isAll && SeqSet.NONE.isNone).toBe(true);
  });
});
