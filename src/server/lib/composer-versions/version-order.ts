import { parseStability } from './version-parser.js';

// Ordering of normalized stable versions (`1.10.0.0` after `1.9.0.0`; date versions like `2024.01.15` too), enough
// to pick the newest stable tag for `/latest` without Composer's whole constraint solver.

function numericParts(normalized: string): number[] {
  // A stable version may carry a patch suffix (`1.0.0.0-patch2`): it sorts after its base, by patch number.
  const [base = '', suffix = ''] = normalized.split('-', 2);
  const patch = /^patch(\d*)$/.exec(suffix);
  return [...base.split('.').map(Number), patch ? Number(patch[1] || 0) + 1 : 0];
}

/** Compares two normalized stable versions numerically, part by part (missing parts count as 0). */
export function compareStableVersions(left: string, right: string): number {
  const leftParts = numericParts(left);
  const rightParts = numericParts(right);
  // The patch rank is last in each list; align the version parts before it.
  const leftPatch = leftParts.pop()!;
  const rightPatch = rightParts.pop()!;
  for (let index = 0; index < Math.max(leftParts.length, rightParts.length); index++) {
    const difference = (leftParts[index] ?? 0) - (rightParts[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return leftPatch - rightPatch;
}

/** The newest stable version of a list, or undefined when none is stable. */
export function newestStable<T extends { normalizedVersion: string }>(versions: readonly T[]): T | undefined {
  let newest: T | undefined;
  for (const candidate of versions) {
    if (parseStability(candidate.normalizedVersion) !== 'stable') continue;
    if (!newest || compareStableVersions(candidate.normalizedVersion, newest.normalizedVersion) > 0) {
      newest = candidate;
    }
  }
  return newest;
}
