// What a license covers, in words a holder reads (issue 31): on the portal and in the license e-mail.
// "acme/lib versions ^1.0, stable releases only", "Suite: acme/a, acme/b, acme/c", "5 developer seats".

type Stability = 'stable' | 'RC' | 'beta' | 'alpha' | 'dev';

const STABILITY_WORDS: Record<Exclude<Stability, 'dev'>, string> = {
  stable: 'stable releases only',
  RC: 'release candidates and stable releases',
  beta: 'beta, RC and stable releases',
  alpha: 'alpha, beta, RC and stable releases',
};

export type CoverageFacts = {
  versionConstraint: string | null;
  minimumStability: Stability;
  seats: number | null;
};

/** "versions ^1.0, stable releases only", "stable releases only", or '' for every version. */
export function describeVersionTerms(terms: Pick<CoverageFacts, 'versionConstraint' | 'minimumStability'>): string {
  const parts: string[] = [];
  if (terms.versionConstraint) parts.push(`versions ${terms.versionConstraint}`);
  if (terms.minimumStability !== 'dev') parts.push(STABILITY_WORDS[terms.minimumStability]);
  return parts.join(', ');
}

export function describeSeats(seats: number | null): string {
  if (seats === null) return '';
  return seats === 1 ? '1 developer seat' : `${seats} developer seats`;
}

/**
 * One license in words: the package (or the product and its packages now), the versions it covers, the seats.
 * "acme/lib versions ^1.0, stable releases only"; "Suite: acme/a, acme/b; versions ^2.0; 5 developer seats".
 */
export function describeGrantCoverage(
  grant: CoverageFacts,
  target: { productId: string | null; name: string; packageNames: string[] },
): string {
  const versions = describeVersionTerms(grant);
  const seats = describeSeats(grant.seats);
  if (target.productId) {
    const what = `${target.name}: ${target.packageNames.length > 0 ? target.packageNames.join(', ') : 'no packages yet'}`;
    return [what, versions, seats].filter(Boolean).join('; ');
  }
  const what = versions ? `${target.name} ${versions}` : target.name;
  return [what, seats].filter(Boolean).join('; ');
}

/** Whether the words say more than the package's name: a product, a version range, a stability or seats. */
export function hasCoverageTerms(grant: CoverageFacts & { productId: string | null }): boolean {
  return (
    grant.productId !== null ||
    Boolean(grant.versionConstraint) ||
    grant.minimumStability !== 'dev' ||
    grant.seats !== null
  );
}
