/** Caps from docs/query-language.md: no query may cost the service more than these. */
export const QUERY_LIMITS = {
  leafConditions: 100,
  depth: 16,
  inValues: 1000,
  /** `in` values of the whole query together: each one costs a lookup per candidate value. */
  inValuesTotal: 10_000,
  /** Largest `{n}` / `{n,m}` in a pattern: RE2 unrolls counted repetitions into its program. */
  repeatCount: 100,
  patternLength: 256,
  selectPaths: 100,
  segmentLength: 128,
  orderTerms: 16,
} as const;
