/**
 * The nearest-rank percentile of `sorted` (ascending): the smallest value with at least `share` of the values at or
 * below it (`share` 0.99 for p99). NaN when there is none.
 */
export function percentileOf(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
