import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { findSellersHolder, selectDownloadsOfGrantsAfter, selectHolderPackageGrants } from './holders.repository.js';

// A license holder's own data from one seller (issue 35 item 5): "Download my data" in the holder's portal. Only the
// rows of the signed-in holder (the portal's session names the holder and the seller): their address, their licenses
// and their downloads. The Composer token is never part of it (only its hash is stored, and that stays too).

const DOWNLOAD_PAGE_ROWS = 1000;

export type HolderExport = {
  format: 'packgate-holder-export';
  exportedAt: string;
  holder: { email: string; tokenIssuedAt: string; createdAt: string };
  licenses: Record<string, unknown>[];
  downloads: Record<string, unknown>[];
};

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The holder's licenses and downloads with `sellerId`; NOT_FOUND when the holder is not that seller's. */
export async function exportHolderData(ctx: AppContext, sellerId: string, customerId: string): Promise<HolderExport> {
  const holder = await findSellersHolder(ctx.db, sellerId, customerId);
  if (!holder) throw new AppError('NOT_FOUND', 'License holder not found');
  const held = await selectHolderPackageGrants(ctx.db, holder.id);
  const grantIds = held.map((row) => row.grant.id);
  const names = new Map(held.map((row) => [row.grant.id, row.packageName]));
  const downloaded: Record<string, unknown>[] = [];
  let after = 0;
  while (grantIds.length > 0) {
    const page = await selectDownloadsOfGrantsAfter(ctx.db, grantIds, after, DOWNLOAD_PAGE_ROWS);
    for (const row of page) {
      downloaded.push({
        licenseId: row.grantId,
        package: names.get(row.grantId),
        version: row.version,
        downloadedAt: row.downloadedAt.toISOString(),
        network: row.clientNetwork,
      });
    }
    if (page.length < DOWNLOAD_PAGE_ROWS) break;
    after = page[page.length - 1]!.id;
  }
  return {
    format: 'packgate-holder-export',
    exportedAt: ctx.clock.now().toISOString(),
    holder: {
      email: holder.email,
      tokenIssuedAt: holder.tokenIssuedAt.toISOString(),
      createdAt: holder.createdAt.toISOString(),
    },
    licenses: held.map(({ grant, packageName }) => ({
      id: grant.id,
      package: packageName,
      kind: grant.kind,
      status: grant.status,
      createdAt: grant.createdAt.toISOString(),
      expiresAt: iso(grant.expiresAt),
      endMode: grant.endMode,
      downloadLimit: grant.downloadLimit,
      downloadCount: grant.downloadCount,
      lastUsedAt: iso(grant.lastUsedAt),
      revokedAt: iso(grant.revokedAt),
    })),
    downloads: downloaded,
  };
}
