import { describeLicenseTerms, termsCoverVersion } from '../../lib/composer-versions/license-terms.js';
import { compareStableVersions } from '../../lib/composer-versions/version-order.js';
import { parseStability } from '../../lib/composer-versions/version-parser.js';
import { evaluateGrant, grantNotice } from '../licenses/grant-rules.js';
import type { CoveringGrant, PackageAccess } from './access-view.repository.js';

// What the union of a holder's licenses for one package lets them install at a request's time (issue 31): each
// covering license (direct, or through a product) is decided by the grant rules (revoked, expired, frozen, inactive
// package, download limit); a version is shown and downloadable when any license allowed now covers it: its version
// terms (constraint, minimum stability) match and, for a frozen license, it was published before the freeze. Pure:
// the metadata and dist services decide through these functions, from the view at the request's time.

/** A license allowed now, with the freeze that applies to it (only tags published before it). */
export type AllowedGrant = { grant: CoveringGrant; publishedBefore: Date | undefined };

export type PackageDecision =
  /** Every license covering the package refuses now: why, once per distinct reason. */
  | { kind: 'denied'; messages: string[] }
  /** At least one license allows; `notices` are what the holder should know of them (ending soon, frozen). */
  | { kind: 'allowed'; allowed: AllowedGrant[]; notices: string[] };

/** No notice: shared, so that the common decision allocates no array for it. */
const NO_NOTICES: string[] = [];

export function decidePackage(access: PackageAccess, now: Date): PackageDecision {
  // The common case on every warm request: one license.
  if (access.grants.length === 1) {
    const grant = access.grants[0]!;
    const decision = evaluateGrant(grant, now);
    if (!decision.isAllowed) return { kind: 'denied', messages: [decision.message] };
    const notice = grantNotice(grant, now, decision);
    return {
      kind: 'allowed',
      allowed: [{ grant, publishedBefore: decision.publishedBefore }],
      notices: notice ? [notice] : NO_NOTICES,
    };
  }
  const allowed: AllowedGrant[] = [];
  const denials: string[] = [];
  for (const grant of access.grants) {
    const decision = evaluateGrant(grant, now);
    if (decision.isAllowed) allowed.push({ grant, publishedBefore: decision.publishedBefore });
    else denials.push(decision.message);
  }
  if (allowed.length === 0) return { kind: 'denied', messages: unique(denials) };
  const notices: string[] = [];
  for (const { grant } of allowed) {
    const notice = grantNotice(grant, now);
    if (notice) notices.push(notice);
  }
  return { kind: 'allowed', allowed, notices: unique(notices) };
}

/** A version as the coverage rules need it. */
export type CoverableVersion = { normalizedVersion: string; kind: 'tag' | 'branch'; publishedAt: number };

function allows(entry: AllowedGrant, version: CoverableVersion): boolean {
  if (!termsCoverVersion(entry.grant.terms, version.normalizedVersion)) return false;
  if (entry.publishedBefore === undefined) return true;
  // A frozen license keeps releases published before its end; a branch always means its newest commit.
  return version.kind === 'tag' && version.publishedAt < entry.publishedBefore.getTime();
}

export function isVersionCovered(allowed: AllowedGrant[], version: CoverableVersion): boolean {
  return allowed.some((entry) => allows(entry, version));
}

/**
 * The license a download of `version` is counted against: one that allows it, picked deterministically so that a
 * license without a download limit is used before one whose downloads are counted, then in the view's order (direct
 * licenses before product licenses, each in id order).
 */
export function grantForVersion(allowed: AllowedGrant[], version: CoverableVersion): AllowedGrant | undefined {
  const covering = allowed.filter((entry) => allows(entry, version));
  return covering.find((entry) => entry.grant.downloadLimit === null) ?? covering[0];
}

/**
 * What distinguishes one union's p2 file from another's: empty when every allowed license covers every version
 * (the common case: one rendered body for all such holders), else their terms and freezes.
 */
export function coverageKey(allowed: AllowedGrant[]): string {
  // Asked at every warm p2 request: the common case allocates nothing.
  if (allowed.some(coversEverything)) return '';
  const parts = new Set<string>();
  for (const { grant, publishedBefore } of allowed) {
    const { constraintText, minimumStability } = grant.terms;
    parts.add(`${constraintText ?? '*'}\u0000${minimumStability}\u0000${publishedBefore?.getTime() ?? ''}`);
  }
  return [...parts].sort().join('\u0001');
}

/** An allowed license without a range, a stability floor or a freeze: it covers every version. */
function coversEverything({ grant, publishedBefore }: AllowedGrant): boolean {
  return grant.terms.constraintText === null && grant.terms.minimumStability === 'dev' && publishedBefore === undefined;
}

/** What the allowed licenses cover, in words: `^1.0`, or `^1.0 or ^3.0 (stable releases only)` for several. */
export function describeCoverage(allowed: AllowedGrant[]): string {
  return unique(allowed.map(({ grant }) => describeLicenseTerms(grant.terms))).join(' or ');
}

/** The license's range in a refusal: `^1.0`, `^1.0 (stable releases only)`. */
export function outsideRangeMessage(
  packageName: string,
  version: string,
  allowed: AllowedGrant[],
  upgradeUrl: string,
): string {
  return `Your license for ${packageName} covers ${describeCoverage(allowed)}; ${version} is outside it. Composer installs the newest version your license covers when you run composer update ${packageName}; to use ${version}, upgrade your license at ${upgradeUrl}`;
}

/**
 * When a stable release newer than anything the licenses' terms reach exists, what to tell the holder: which version,
 * what the license covers, and where to upgrade. Versions a frozen license no longer reaches are the freeze notice's
 * business, so terms alone decide here.
 */
export function newerVersionNotice(
  packageName: string,
  tags: readonly { version: string; normalizedVersion: string }[],
  allowed: AllowedGrant[],
  upgradeUrl: string,
): string | undefined {
  let newest: { version: string; normalizedVersion: string } | undefined;
  for (const tag of tags) {
    if (parseStability(tag.normalizedVersion) !== 'stable') continue;
    if (!newest || compareStableVersions(tag.normalizedVersion, newest.normalizedVersion) > 0) newest = tag;
  }
  if (!newest) return undefined;
  const normalizedVersion = newest.normalizedVersion;
  if (allowed.some(({ grant }) => termsCoverVersion(grant.terms, normalizedVersion))) return undefined;
  return `${packageName} ${newest.version} is available, but your license covers ${describeCoverage(allowed)}. Composer installs the newest version your license covers; to use ${newest.version}, upgrade your license at ${upgradeUrl}`;
}

function unique(texts: string[]): string[] {
  return [...new Set(texts)];
}
