import {
  type IssuedLicense,
  type IssueLicenseInput,
  type License,
  lastingLicenseMessages,
  licenseMessages,
  type UpdateLicenseInput,
} from '../../../contract/licenses.js';
import type { AppContext } from '../../context.js';
import { decodeCursor, type KeysetPosition, pageOf } from '../../db/keyset-page.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { withEmailDelivery } from '../../jobs/mail-delivery.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import { getOwnedProduct } from '../products/products.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import type { PlanAccount } from '../subscriptions/subscriptions.service.js';
import { normalizeEmail } from '../users/users.service.js';
import { emitWebhookEvent, licenseEventData } from '../webhooks/webhook-events.service.js';
import { grantAuditDetails } from './grant-issuing.service.js';
import { issueLicenses } from './license-batch.service.js';
import { type LicenseRow, parseLicenseTermsInput, presentLicense } from './license-terms-input.js';
import * as repository from './licenses.repository.js';
import { assertSeatsCoverTokens } from './version-terms.js';

// Lasting licenses (issue 16): the terms a seller sets by hand in Management and a shop sets through API v1,
// checked by one set of rules. Kind `manual`: no expiry or a date, a download limit or none, what ends at expiry
// (access, or updates only), a note. Every change is an audit event naming who made it, in the change's transaction.

/**
 * Issues a lasting license (or gives the holder's existing license of the package these terms), e-mails the
 * holder unless `sendEmail` is false, and answers what the holder needs: repository URL, setup commands, and the
 * Composer token when this created the holder (its only appearance in clear besides the e-mail).
 */
export async function issueLicense(
  ctx: AppContext,
  seller: PlanAccount,
  actor: Principal,
  packageId: string,
  input: IssueLicenseInput,
): Promise<IssuedLicense> {
  return issueLicenses(ctx, seller, actor, { packageId }, input);
}

type LicenseRowAt = LicenseRow & { position: KeysetPosition };

async function findLicenseRows(
  ctx: AppContext,
  sellerId: string,
  filter: repository.LicenseFilterQuery,
  limit?: number,
): Promise<LicenseRowAt[]> {
  const rows = await repository.selectLicensesOfSeller(ctx.db, sellerId, filter, limit);
  return rows.map(({ productName, packageName, micros, ...row }) => ({
    ...row,
    packageName: packageName ?? productName ?? '',
    position: { micros: String(micros), id: row.grant.id },
  }));
}

/** The seller's license, any kind; another seller's is not found (the route's entityId has refused a malformed id). */
async function getLicenseRow(ctx: AppContext, sellerId: string, licenseId: string): Promise<LicenseRow> {
  const [row] = await findLicenseRows(ctx, sellerId, { licenseId });
  if (!row) throw new AppError('NOT_FOUND', licenseMessages.licenseNotFound);
  return row;
}

export async function getLicense(ctx: AppContext, sellerId: string, licenseId: string): Promise<License> {
  return presentLicense(await getLicenseRow(ctx, sellerId, licenseId), ctx.clock.now());
}

export type LicenseFilter = { packageId?: string; productId?: string; email?: string; customerIds?: string[] };

/** Every license of the seller's (of one package, one product, one holder or some holders, when asked), newest first. */
export async function listLicenses(ctx: AppContext, sellerId: string, filter: LicenseFilter = {}): Promise<License[]> {
  return (await listLicensesPage(ctx, sellerId, filter)).licenses;
}

/**
 * One page of the seller's licenses, newest first: `limit` of them after `cursor` (the `nextCursor` of the page
 * before), with the cursor of the next page, or null on the last; every license without `limit`.
 */
export async function listLicensesPage(
  ctx: AppContext,
  sellerId: string,
  filter: LicenseFilter & { limit?: number; cursor?: string },
): Promise<{ licenses: License[]; nextCursor: string | null }> {
  const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  if (filter.packageId !== undefined) await getOwnedPackage(ctx, sellerId, filter.packageId);
  if (filter.productId !== undefined) await getOwnedProduct(ctx, sellerId, filter.productId);
  const conditions: repository.LicenseFilterQuery = {
    packageId: filter.packageId,
    productId: filter.productId,
    email: filter.email === undefined ? undefined : normalizeEmail(filter.email),
    customerIds: filter.customerIds,
    after,
  };
  const now = ctx.clock.now();
  const rows = await findLicenseRows(
    ctx,
    sellerId,
    conditions,
    filter.limit === undefined ? undefined : filter.limit + 1,
  );
  const page = filter.limit === undefined ? { rows, nextCursor: null } : pageOf(rows, filter.limit);
  const licenses = await withEmailDelivery(
    ctx.db,
    page.rows.map((row) => presentLicense(row, now)),
  );
  return { licenses, nextCursor: page.nextCursor };
}

/**
 * Changes a license's terms (absent fields keep their value), revokes it (`status: 'revoked'`) or restores it.
 * The holder's next Composer request sees the new terms.
 */
export async function updateLicense(
  ctx: AppContext,
  actor: Principal,
  licenseId: string,
  input: UpdateLicenseInput,
): Promise<License> {
  const row = await getLicenseRow(ctx, actor.sellerId, licenseId);
  const now = ctx.clock.now();
  const terms = parseLicenseTermsInput(input, now);
  if (Object.keys(terms).length === 0 && input.status === undefined) {
    throw new AppError('VALIDATION_FAILED', lastingLicenseMessages.nothingToUpdate);
  }
  // Fewer seats than the holder's developer tokens would lock developers out unseen: refused, nothing written.
  await assertSeatsCoverTokens(ctx.db, row.grant.customerId, terms.seats, now);
  const changes: repository.GrantChanges = { ...terms };
  if (input.status === 'revoked' && row.grant.status !== 'revoked') {
    Object.assign(changes, { status: 'revoked', revokedAt: now });
  } else if (input.status === 'active' && row.grant.status !== 'active') {
    Object.assign(changes, { status: 'active', revokedAt: null });
  }
  const event = changes.status === 'revoked' ? 'license.revoked' : 'license.updated';
  const action =
    changes.status === 'revoked'
      ? 'license.revoked'
      : changes.status === 'active'
        ? 'license.restored'
        : 'license.updated';
  const updated = await ctx.db.transaction(async (tx) => {
    const changed = await repository.updateGrantRow(tx, row.grant.id, changes);
    const grant = changed ?? row.grant;
    await emitWebhookEvent(ctx, actor.sellerId, event, licenseEventData(grant, { ...row }), { db: tx });
    await recordAuditEvent(tx, ctx, actor, {
      action,
      targetType: 'license',
      targetId: grant.id,
      details: grantAuditDetails(grant, row.email, row.packageName, {
        changed: Object.keys(changes).filter((key) => key !== 'revokedAt'),
      }),
    });
    return grant;
  });
  return presentLicense({ ...row, grant: updated }, now);
}

/** Revokes any of the seller's licenses; revoking a revoked one changes nothing and answers it again. */
export async function revokeLicense(ctx: AppContext, actor: Principal, licenseId: string): Promise<License> {
  const row = await getLicenseRow(ctx, actor.sellerId, licenseId);
  if (row.grant.status === 'revoked') return presentLicense(row, ctx.clock.now());
  return updateLicense(ctx, actor, licenseId, { status: 'revoked' });
}
