// The bench's summaries of repeated measurements: each figure is the median or a percentile of its runs.

/**
 * The nearest-rank percentile of `sorted` (ascending): the smallest value with at least `share` of the values at or
 * below it (`share` 0.99 for p99). NaN when there is none.
 */
export function percentileOf(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

/** The middle of `values` (any order): the mean of the two middle ones when their count is even. NaN when none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
