import { z } from 'zod';
import { type GrantEndMode, licenseMessages } from '../../../contract/licenses.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { customers, grants, packages } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { clientNetwork } from '../../lib/client-network.js';
import { findLiveHolderToken } from '../credentials/holder-tokens.service.js';
import { findSellerProfile, normalizeEmail, type SellerProfile } from '../users/users.service.js';
import { emitLicenseChange } from '../webhooks/webhook-events.service.js';
import * as repository from './grants.repository.js';
import * as licenses from './licenses.repository.js';

// License holders (customers) and their grants as Composer's doors and the sales see them: the holder a token
// belongs to, the download count against a grant's limit, the holder's e-mail check, and the terms a purchase gives.
// Issuing a license is grant-issuing.service.ts; the license e-mail's sender and rendering, license-mail.service.ts.

export type Grant = typeof grants.$inferSelect;
export type CustomerRecord = typeof customers.$inferSelect;
export type PackageRecord = typeof packages.$inferSelect;
type Seller = SellerProfile;
/** The database or an open transaction. */
export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

// The pure grant rules live in grant-rules.ts (Composer and the portal decide through them too).
export { daysRemaining, grantGivesAccess, isGrantActive } from './grant-rules.js';

export const COMPOSER_TOKEN_PREFIX = 'pgc';

/** The license holder a Composer token belongs to (any seller's); undefined for unknown or replaced tokens. */
export async function findCustomerByToken(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  token: string,
): Promise<CustomerRecord | undefined> {
  if (!token.startsWith(`${COMPOSER_TOKEN_PREFIX}_`)) return undefined;
  const held = await findLiveHolderToken(ctx.db, token, ctx.clock.now());
  return held ? repository.findCustomerById(ctx.db, held.customerId) : undefined;
}

/**
 * Counts one dist download against the grant and records it, atomically against the limit (download-counts.ts may
 * count it in one statement with others that arrive together): two concurrent downloads can never both take the
 * last one under the limit. False when the grant is revoked,
 * expired (access mode) or at its limit by the time the statement runs. Version rules of frozen grants
 * are the caller's (it knows the version's release time).
 */
export async function recordDownload(
  ctx: Pick<AppContext, 'downloadCounter' | 'clock'>,
  grantId: string,
  version: string,
  /** The downloading client's address; only its network (/24, /48) is stored, for the seller's sharing signal. */
  clientAddress?: string,
  /** The package downloaded; needed for a product's license, which names no package itself. */
  packageId?: string,
): Promise<boolean> {
  return ctx.downloadCounter.count(downloadToCount(ctx, grantId, version, clientAddress, packageId));
}

/**
 * Counts a download of a grant without a download limit, which is answered without waiting for its count (see
 * download-counts.ts): nothing about it depends on the count, and every other request of this process sees it.
 */
export function recordDownloadAfterAnswer(
  ctx: Pick<AppContext, 'downloadCounter' | 'clock'>,
  grantId: string,
  version: string,
  clientAddress?: string,
  packageId?: string,
): void {
  ctx.downloadCounter.countAfter(downloadToCount(ctx, grantId, version, clientAddress, packageId));
}

function downloadToCount(
  ctx: Pick<AppContext, 'clock'>,
  grantId: string,
  version: string,
  clientAddress: string | undefined,
  packageId: string | undefined,
): repository.DownloadToCount {
  const network = clientNetwork(clientAddress) ?? null;
  return { grantId, version, now: ctx.clock.now().toISOString(), network, packageId: packageId ?? null };
}

export async function getSeller(ctx: Pick<AppContext, 'db'>, sellerId: string): Promise<Seller> {
  const seller = await findSellerProfile(ctx, { id: sellerId });
  if (!seller) throw new AppError('NOT_FOUND', 'Seller not found');
  return seller;
}

/** Trimmed, lower-case and well-formed, or the spec's sentence. */
export function parseHolderEmail(email: string | undefined): string {
  const normalized = normalizeEmail(email ?? '');
  if (normalized === '') throw new AppError('VALIDATION_FAILED', licenseMessages.emailRequired);
  if (!z.email().safeParse(normalized).success) {
    throw new AppError('VALIDATION_FAILED', licenseMessages.emailInvalid);
  }
  return normalized;
}

export async function findCustomerByEmail(
  db: Queryable,
  sellerId: string,
  email: string,
): Promise<CustomerRecord | undefined> {
  return repository.findCustomerByNormalizedEmail(db, sellerId, normalizeEmail(email));
}

/**
 * Sets the terms a purchase gives, from what the payment provider says now (sales): a subscription's paid period
 * (expiresAt), or its end by refund or lost dispute (status revoked). Only grants of kind `purchase` move; the
 * holder's next Composer request sees the change. Terms the grant already has change nothing and announce nothing,
 * so that an event applied again (a retried job) is not announced twice. Pass the open transaction as `db`.
 */
export async function setPurchaseGrantTerms(
  ctx: AppContext,
  grantId: string,
  terms: { expiresAt?: Date | null; endMode?: GrantEndMode; status?: 'active' | 'revoked' },
  options: { db?: Database } = {},
): Promise<Grant | undefined> {
  const db = options.db ?? ctx.db;
  const current = await licenses.findPurchaseGrant(db, grantId);
  if (!current) return undefined;
  const changes: licenses.GrantChanges = {};
  if (terms.expiresAt !== undefined && current.expiresAt?.getTime() !== terms.expiresAt?.getTime()) {
    changes.expiresAt = terms.expiresAt;
  }
  if (terms.endMode !== undefined && current.endMode !== terms.endMode) changes.endMode = terms.endMode;
  if (terms.status === 'revoked' && current.status !== 'revoked') {
    Object.assign(changes, { status: 'revoked', revokedAt: ctx.clock.now() });
  }
  if (terms.status === 'active' && current.status !== 'active') {
    Object.assign(changes, { status: 'active', revokedAt: null });
  }
  if (Object.keys(changes).length === 0) return current;
  const updated = await licenses.updatePurchaseGrant(db, grantId, changes);
  if (updated) {
    const event = updated.status === 'revoked' ? 'license.revoked' : 'license.updated';
    await emitLicenseChange(ctx, updated.id, event, { db });
  }
  return updated;
}
