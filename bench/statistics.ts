/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Each pair's own ratio (`numerators[k] / denominators[k]`), each pair two windows measured back to back. */
export function pairRatios(numerators: readonly number[], denominators: readonly number[]): number[] {
  if (numerators.length !== denominators.length)
    throw new Error(`pairs of unequal length: ${numerators.length} and ${denominators.length}`);
  return numerators.map((numerator, k) => numerator / denominators[k]);
}

/**
 * The median of `pairRatios`. Not the ratio of two medians: this VM goes through stretches of
 * ~20 s in which every function of every process costs 1.6–2× its usual CPU (bench/README.md, "A
 * machine whose speed moves"), and two medians may then come from windows of different stretches.
 */
export function medianOfRatios(numerators: readonly number[], denominators: readonly number[]): number {
  return median(pairRatios(numerators, denominators));
}
