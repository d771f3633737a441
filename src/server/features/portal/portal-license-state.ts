import { LICENSE_ENDING_WARNING_DAYS } from '../../../contract/composer.js';
import type { PortalLicenseState } from '../../../contract/portal.js';
import { DAY_MS } from '../../lib/clock.js';
import { compareStableVersions } from '../../lib/composer-versions/version-order.js';
import { evaluateGrant, type GrantFacts, grantNotice } from '../licenses/grant-rules.js';

// What the portal tells a holder about one license. Pure, and decided by the Composer repository's own grant rules,
// so that the page and the holder's terminal never disagree.

/** A tagged version; `publishedAt` is when Packgate first saw it, what a frozen license's coverage is decided by. */
export type TagFacts = { version: string; normalizedVersion: string; publishedAt: Date };

export type LicenseStanding = {
  state: PortalLicenseState;
  daysLeft: number | null;
  lastVersionCovered: string | null;
  /** What the license may install now, newest first. */
  versions: string[];
  notice: string | null;
};

/** Newest first: by version, then by publication time (pre-releases of one version share its numbers). */
export function newestFirst<T extends TagFacts>(tags: readonly T[]): T[] {
  return [...tags].sort(
    (left, right) =>
      compareStableVersions(right.normalizedVersion, left.normalizedVersion) ||
      right.publishedAt.getTime() - left.publishedAt.getTime(),
  );
}

export function licenseStanding(grant: GrantFacts, tags: readonly TagFacts[], now: Date): LicenseStanding {
  const decision = evaluateGrant(grant, now);
  const notice = grantNotice(grant, now, decision) ?? null;
  const remainingMs = grant.expiresAt ? grant.expiresAt.getTime() - now.getTime() : null;
  const daysLeft = remainingMs !== null && remainingMs > 0 ? Math.ceil(remainingMs / DAY_MS) : null;
  if (!decision.isAllowed) {
    const state: Record<typeof decision.reason, PortalLicenseState> = {
      revoked: 'revoked',
      expired: 'expired',
      'package-inactive': 'unavailable',
      'download-limit': 'limit-reached',
    };
    return { state: state[decision.reason], daysLeft, lastVersionCovered: null, versions: [], notice };
  }
  const sorted = newestFirst(tags);
  if (decision.publishedBefore) {
    // The Composer repository's own cut-off (composer-render.ts, shownVersions): what the page lists is what installs.
    const before = decision.publishedBefore.getTime();
    const covered = sorted.filter((tag) => tag.publishedAt.getTime() < before).map((tag) => tag.version);
    return { state: 'frozen', daysLeft: null, lastVersionCovered: covered[0] ?? null, versions: covered, notice };
  }
  const isEnding = remainingMs !== null && remainingMs <= LICENSE_ENDING_WARNING_DAYS * DAY_MS;
  return {
    state: isEnding ? 'expiring' : 'active',
    daysLeft,
    lastVersionCovered: null,
    versions: sorted.map((tag) => tag.version),
    notice,
  };
}
