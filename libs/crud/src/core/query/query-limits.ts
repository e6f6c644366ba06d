/** Caps from CONTRACT.md §4: no query may cost the service more than these. */
export const QUERY_LIMITS = {
  leafConditions: 100,
  depth: 16,
  inValues: 1000,
  patternLength: 256,
  selectPaths: 100,
  segmentLength: 128,
  orderTerms: 16,
} as const;
