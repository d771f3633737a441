import { LICENSE_ENDING_WARNING_DAYS } from '../../../contract/composer.js';
import { DAY_MS } from '../../lib/clock.js';

// What a license (grant) lets its holder install right now, and what the holder's terminal is told about it: the
// one home of the grant rules. Pure: Composer's metadata, packages.json and dist endpoints, the portal and the
// licenses service all decide through these functions.

export type GrantFacts = {
  packageName: string;
  packageIsActive: boolean;
  status: 'active' | 'revoked';
  expiresAt: Date | null;
  /** `access`: everything ends at expiry; `updates`: versions published before expiry stay installable. */
  endMode: 'access' | 'updates';
  downloadLimit: number | null;
  downloadCount: number;
};

export type DenialReason = 'revoked' | 'expired' | 'package-inactive' | 'download-limit';

export type GrantDecision =
  | {
      isAllowed: true;
      /**
       * Set once a frozen grant has ended: only tags published strictly before it are installable. Publication is when
       * Packgate first saw the tag at its commit (package_versions.published_at), never a date a committer can set.
       */
      publishedBefore?: Date;
    }
  | { isAllowed: false; reason: DenialReason; message: string };

/** A UTC calendar date (2026-03-06): what a license holder reads, whatever their time zone. */
export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function isDownloadLimitReached(grant: Pick<GrantFacts, 'downloadLimit' | 'downloadCount'>): boolean {
  return grant.downloadLimit !== null && grant.downloadCount >= grant.downloadLimit;
}

/** The common decision, one object for all: every warm Composer request decides its grants (issue 34). */
const ALLOWED: GrantDecision = Object.freeze({ isAllowed: true });

/**
 * Decides a grant at `now`. Order: a revoked license says so whatever else holds; an expired one says when it
 * ended; then the package itself; the download limit last, as it is the one the holder can ask to raise.
 */
export function evaluateGrant(grant: GrantFacts, now: Date): GrantDecision {
  const name = grant.packageName;
  if (grant.status === 'revoked') {
    return { isAllowed: false, reason: 'revoked', message: `Your license for ${name} has been revoked.` };
  }
  const hasEnded = grant.expiresAt !== null && grant.expiresAt.getTime() <= now.getTime();
  if (hasEnded && grant.endMode === 'access') {
    return {
      isAllowed: false,
      reason: 'expired',
      message: `Your license for ${name} expired on ${formatDay(grant.expiresAt!)}. Ask the seller to renew it.`,
    };
  }
  if (!grant.packageIsActive) {
    return {
      isAllowed: false,
      reason: 'package-inactive',
      message: `${name} is no longer available: the seller has deactivated it.`,
    };
  }
  if (isDownloadLimitReached(grant)) {
    return { isAllowed: false, reason: 'download-limit', message: downloadLimitMessage(grant) };
  }
  return hasEnded ? { isAllowed: true, publishedBefore: grant.expiresAt! } : ALLOWED;
}

export function downloadLimitMessage(grant: Pick<GrantFacts, 'packageName' | 'downloadLimit' | 'downloadCount'>) {
  const limit = grant.downloadLimit ?? 0;
  return `Download limit reached for ${grant.packageName}: ${Math.min(grant.downloadCount, limit)} of ${limit} downloads used. Ask the seller for more.`;
}

/** Why a frozen grant does not cover a version: it was published on or after the end of updates. */
export function frozenVersionMessage(packageName: string, version: string, publishedBefore: Date): string {
  return `Your license for ${packageName} ended on ${formatDay(publishedBefore)}: ${version} is not covered, only versions released before then. Ask the seller to renew it.`;
}

/**
 * What packages.json tells the holder about one grant, printed by Composer on every run against the repository:
 * why a package is unavailable, that updates have stopped, or that the license ends within a week.
 */
export function grantNotice(
  grant: GrantFacts,
  now: Date,
  /** evaluateGrant(grant, now), when the caller has it already. */
  decision: GrantDecision = evaluateGrant(grant, now),
): string | undefined {
  if (!decision.isAllowed) return decision.message;
  if (decision.publishedBefore) {
    return `Your license for ${grant.packageName} ended on ${formatDay(decision.publishedBefore)}: versions released before then stay installable, later ones are not available. Ask the seller to renew it.`;
  }
  if (grant.expiresAt === null) return undefined;
  const remainingMs = grant.expiresAt.getTime() - now.getTime();
  if (remainingMs > LICENSE_ENDING_WARNING_DAYS * DAY_MS) return undefined;
  const days = Math.ceil(remainingMs / DAY_MS);
  const when = `in ${days} ${days === 1 ? 'day' : 'days'} (${formatDay(grant.expiresAt)})`;
  return grant.endMode === 'updates'
    ? `Your license for ${grant.packageName} ends ${when}; versions released before then will stay installable.`
    : `Your license for ${grant.packageName} ends ${when}.`;
}

/** packages.json, while a lapsed seller's license holders are still served (README, "Billing"). */
export function repositoryGraceNotice(until: Date): string {
  return `This repository's subscription has lapsed; access continues until ${formatDay(until)}. Contact the seller to keep access after that.`;
}

/** Every door, once the grace period after the seller's subscription lapsed is over. */
export function repositoryClosedMessage(endedAt: Date): string {
  return `This repository's subscription has lapsed and access ended on ${formatDay(endedAt)}. Contact the seller to restore access.`;
}

/** Not revoked and not past its expiry. A frozen grant (endMode updates) past its end reads false here. */
export function isGrantActive(grant: Pick<GrantFacts, 'status' | 'expiresAt'>, now: Date): boolean {
  return grant.status === 'active' && (grant.expiresAt === null || grant.expiresAt > now);
}

/** Whether the holder can still install anything under the grant (a frozen grant can, after its end). */
export function grantGivesAccess(grant: Pick<GrantFacts, 'status' | 'expiresAt' | 'endMode'>, now: Date): boolean {
  return isGrantActive(grant, now) || (grant.status === 'active' && grant.endMode === 'updates');
}

/** Whole days until expiry, rounded up (0 or negative once past); null without an expiry. */
export function daysRemaining(expiresAt: Date | null, now: Date): number | null {
  if (!expiresAt) return null;
  const days = Math.ceil((expiresAt.getTime() - now.getTime()) / 86_400_000);
  return days === 0 ? 0 : days; // no -0 in JSON-minded code
}
