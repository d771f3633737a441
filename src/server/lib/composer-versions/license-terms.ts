import {
  InvalidConstraintError,
  matchesConstraint,
  parseConstraints,
  type VersionConstraint,
} from './version-constraints.js';
import { parseStability, type Stability } from './version-parser.js';

// The version terms of a license (issue 31): a Composer constraint (`^1.0`, `>=2.0 <3.0`; none = every version) and a
// minimum stability (`stable` .. `dev`; `dev` = everything). Parsed once when a holder's access is read, matched per
// version as Composer itself would: the constraint against the normalized version (Constraint::matchSpecific), the
// stability from the version string (VersionParser::parseStability, so `2.1.0-beta1` is beta and branches are dev).

/** Longest constraint a license may carry: the licenses domain refuses longer ones before they are stored. */
export const LICENSE_CONSTRAINT_MAX_LENGTH = 200;

/** Composer's BasePackage::STABILITIES: the lower, the more stable. */
const STABILITY_RANK: Record<Stability, number> = { stable: 0, RC: 5, beta: 10, alpha: 15, dev: 20 };

export type LicenseTerms = {
  /** The constraint as the seller wrote it (shown to the holder), or null for every version. */
  constraintText: string | null;
  /** Parsed once; null for every version. */
  constraint: VersionConstraint | null;
  minimumStability: Stability;
};

/**
 * A license's terms, parsed. Throws InvalidConstraintError (with Composer's wording) for a constraint Composer would
 * not parse or one longer than LICENSE_CONSTRAINT_MAX_LENGTH.
 */
export function parseLicenseTerms(constraintText: string | null, minimumStability: Stability = 'dev'): LicenseTerms {
  if (constraintText === null || constraintText.trim() === '') {
    return { constraintText: null, constraint: null, minimumStability };
  }
  if (constraintText.length > LICENSE_CONSTRAINT_MAX_LENGTH) {
    throw new InvalidConstraintError(
      `A license's version constraint has at most ${LICENSE_CONSTRAINT_MAX_LENGTH} characters`,
    );
  }
  const constraint = parseConstraints(constraintText);
  return { constraintText: constraintText.trim(), constraint, minimumStability };
}

/** Whether a version of `stability` is at least as stable as `minimum` (Composer's minimum-stability rule). */
export function isStableEnough(stability: Stability, minimum: Stability): boolean {
  return STABILITY_RANK[stability] <= STABILITY_RANK[minimum];
}

/** Whether the terms cover a version, given as Composer normalizes it (`1.1.0.0`, `2.1.0.0-beta1`, `dev-main`). */
export function termsCoverVersion(terms: LicenseTerms, normalizedVersion: string): boolean {
  if (!isStableEnough(parseStability(normalizedVersion), terms.minimumStability)) return false;
  return terms.constraint === null || matchesConstraint(terms.constraint, normalizedVersion);
}

/** Whether the terms cover every version: no constraint and `dev` stability. */
export function coversEveryVersion(terms: LicenseTerms): boolean {
  return terms.constraint === null && terms.minimumStability === 'dev';
}

const STABILITY_WORDS: Record<Exclude<Stability, 'dev'>, string> = {
  stable: 'stable releases only',
  RC: 'release candidates and stable releases',
  beta: 'beta, RC and stable releases',
  alpha: 'alpha, beta, RC and stable releases',
};

/** What the terms cover, in words for a holder: `^1.0`, `^1.0 (stable releases only)`, `every version`. */
export function describeLicenseTerms(terms: LicenseTerms): string {
  const range = terms.constraintText ?? 'every version';
  return terms.minimumStability === 'dev' ? range : `${range} (${STABILITY_WORDS[terms.minimumStability]})`;
}
