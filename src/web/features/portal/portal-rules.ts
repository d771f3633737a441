import type { PortalLicense } from '@contract/portal';
import { formatDate } from '../../lib/format-date';

// What the portal says about a license, from the state the server decided by the Composer grant rules.

export type StateBadge = { label: string; tone: 'good' | 'warning' | 'bad' | 'muted' };

export function stateBadge(license: Pick<PortalLicense, 'state' | 'daysLeft'>): StateBadge {
  switch (license.state) {
    case 'active':
      return { label: 'Active', tone: 'good' };
    case 'expiring':
      return {
        label: license.daysLeft === 1 ? 'Expires in 1 day' : `Expires in ${license.daysLeft} days`,
        tone: 'warning',
      };
    case 'frozen':
      return { label: 'Updates ended', tone: 'warning' };
    case 'revoked':
      return { label: 'Revoked', tone: 'bad' };
    case 'expired':
      return { label: 'Expired', tone: 'bad' };
    case 'unavailable':
      return { label: 'Unavailable', tone: 'muted' };
    case 'limit-reached':
      return { label: 'Download limit reached', tone: 'bad' };
  }
}

/** One line on how long the license lasts, or what it still covers. */
export function termsLine(license: Pick<PortalLicense, 'state' | 'expiresAt' | 'lastVersionCovered'>): string {
  if (license.state === 'frozen') {
    const until = license.expiresAt ? ` on ${formatDate(license.expiresAt)}` : '';
    return license.lastVersionCovered
      ? `Updates ended${until}. Versions up to ${license.lastVersionCovered} stay installable.`
      : `Updates ended${until}. No version was released before then.`;
  }
  if (license.state === 'revoked') return 'The seller has revoked this license.';
  if (!license.expiresAt) return 'No end date.';
  const date = formatDate(license.expiresAt);
  return license.state === 'expired' ? `Ended on ${date}.` : `Ends on ${date}.`;
}

export function downloadsLine(license: Pick<PortalLicense, 'downloadCount' | 'downloadLimit'>): string {
  const used = license.downloadCount === 1 ? '1 download' : `${license.downloadCount} downloads`;
  return license.downloadLimit === null
    ? `${used}, no limit`
    : `${Math.min(license.downloadCount, license.downloadLimit)} of ${license.downloadLimit} downloads used`;
}

export function lastUseLine(lastUsedAt: string | null): string {
  return lastUsedAt ? `Last used ${formatDate(lastUsedAt)}` : 'Not used yet';
}

/** How many versions a card lists before "and N more". */
export const VERSIONS_SHOWN = 8;

/**
 * What a holder types to install what a license covers: its package, or every package of its product in one
 * command (`composer require acme/a acme/b acme/c`), since Composer knows no product's name.
 */
export function requireTarget(license: Pick<PortalLicense, 'packageName' | 'packageNames'>): string {
  return license.packageNames.length > 0 ? license.packageNames.join(' ') : license.packageName;
}
