import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { licenseEventData, queueWebhookEvent } from './webhook-delivery.js';
import { claimAnnouncement, findLicenseOfEvent, findPackageOwnerAndName } from './webhook-events.repository.js';

// What other domains call when something a seller's systems may listen to happens (issue 14). One call per event;
// the seller's endpoints that listen to it each get a signed, retried delivery.

/**
 * Sends the event to the seller's endpoints that listen to it. Inside a transaction pass it as `db`: the
 * deliveries are queued with the change and vanish with it if it rolls back.
 */
export const emitWebhookEvent = queueWebhookEvent;

export { licenseEventData };

/** `package.version_published` for a version that became installable; the package's owner is looked up here. */
export async function emitVersionPublished(
  ctx: AppContext,
  packageId: string,
  version: { version: string; normalizedVersion: string; releasedAt: Date | null },
  options: { db?: Database } = {},
): Promise<number> {
  const db = options.db ?? ctx.db;
  const pkg = await findPackageOwnerAndName(db, packageId);
  if (!pkg) return 0;
  return queueWebhookEvent(
    ctx,
    pkg.ownerId,
    'package.version_published',
    {
      packageId,
      packageName: pkg.name,
      version: version.version,
      normalizedVersion: version.normalizedVersion,
      releasedAt: version.releasedAt?.toISOString() ?? null,
    },
    options,
  );
}

/**
 * `download.limit_reached` when the license's count has reached its limit: once per license term (a renewal or a
 * change of terms moves the grant's updatedAt and starts a new one), however many downloads race for the last one.
 */
export async function emitDownloadLimitReached(ctx: AppContext, grantId: string): Promise<number> {
  const row = await findLicenseOfEvent(ctx.db, grantId);
  if (!row || row.grant.downloadLimit === null || row.grant.downloadCount < row.grant.downloadLimit) return 0;
  const { grant } = row;
  return ctx.db.transaction(async (tx) => {
    const key = `download.limit_reached:${grant.id}:${grant.updatedAt.toISOString()}`;
    if (!(await claimAnnouncement(tx, key, ctx.clock.now()))) return 0;
    const data = licenseEventData(grant, { email: row.email, packageName: row.packageName });
    return queueWebhookEvent(ctx, row.sellerId, 'download.limit_reached', data, { db: tx });
  });
}

/** A license event for a grant changed elsewhere (a refund, a renewed subscription): the license is looked up here. */
export async function emitLicenseChange(
  ctx: AppContext,
  grantId: string,
  type: 'license.updated' | 'license.revoked',
  options: { db?: Database } = {},
): Promise<number> {
  const db = options.db ?? ctx.db;
  const row = await findLicenseOfEvent(db, grantId);
  if (!row) return 0;
  return queueWebhookEvent(
    ctx,
    row.sellerId,
    type,
    licenseEventData(row.grant, { email: row.email, packageName: row.packageName }),
    { db },
  );
}
