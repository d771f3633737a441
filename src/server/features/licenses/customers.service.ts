import {
  CUSTOMER_PAGE_DEFAULT,
  type Customer,
  type CustomerGrant,
  type CustomerListQuery,
  licenseMessages,
  type RegenerateTokenResponse,
} from '../../../contract/licenses.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { withEmailDelivery } from '../../jobs/mail-delivery.js';
import { replaceDefaultHolderToken } from '../credentials/holder-tokens.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import {
  findCustomerByEmail,
  type Grant,
  grantGivesAccess,
  isGrantActive,
  parseHolderEmail,
} from './grants.service.js';
import { findHolderPage, holderPosition } from './holder-pages.service.js';
import { markHolderTokenIssued, selectHolderPackageGrants, selectHoldersWithGrants } from './holders.repository.js';
import { getLicenseMailSeller, sendLicenseEmail } from './license-mail.service.js';

// License holders as the seller sees them (the Access Management tab), and their tokens.

/**
 * One page of the seller's license holders, newest first (`after` a holder's id: the page after that holder), each
 * with every grant they hold (all kinds, all states); `search` keeps the holders whose e-mail or a held package's name
 * contains it.
 */
export async function listCustomers(
  ctx: AppContext,
  sellerId: string,
  query: CustomerListQuery = { limit: CUSTOMER_PAGE_DEFAULT },
): Promise<Customer[]> {
  const after = query.after === undefined ? undefined : await holderPosition(ctx, sellerId, query.after);
  const page = await findHolderPage(ctx, sellerId, { limit: query.limit, after, search: query.q });
  if (page.holders.length === 0) return [];
  const rows = await selectHoldersWithGrants(
    ctx.db,
    page.holders.map((holder) => holder.id),
  );
  const now = ctx.clock.now();
  const byId = new Map<string, Customer>();
  for (const { customer, grant, packageName } of rows) {
    let entry = byId.get(customer.id);
    if (!entry) {
      entry = {
        id: customer.id,
        email: customer.email,
        createdAt: customer.createdAt.toISOString(),
        tokenIssuedAt: customer.tokenIssuedAt.toISOString(),
        grants: [],
      };
      byId.set(customer.id, entry);
    }
    if (!grant) continue;
    entry.grants.push(presentCustomerGrant(grant, packageName ?? '', now));
  }
  const holders = [...byId.values()];
  // One query for every grant's latest license e-mail.
  const withDelivery = await withEmailDelivery(
    ctx.db,
    holders.flatMap((holder) => holder.grants),
  );
  const byGrant = new Map(withDelivery.map((grant) => [grant.id, grant]));
  for (const holder of holders) holder.grants = holder.grants.map((grant) => byGrant.get(grant.id) ?? grant);
  return holders;
}

/** A grant's terms and state as the seller reads them; lasting licenses add their holder and history to it. */
export function presentCustomerGrant(grant: Grant, packageName: string, now: Date): CustomerGrant {
  return {
    id: grant.id,
    packageId: grant.packageId,
    productId: grant.productId,
    packageName,
    kind: grant.kind,
    status: grant.status,
    isActive: isGrantActive(grant, now),
    expiresAt: grant.expiresAt?.toISOString() ?? null,
    endMode: grant.endMode,
    downloadLimit: grant.downloadLimit,
    downloadCount: grant.downloadCount,
    lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
    versionConstraint: grant.versionConstraint,
    minimumStability: grant.minimumStability,
    seats: grant.seats,
  };
}

/**
 * Replaces the holder's default Composer token and e-mails the new one. The old one is revoked, so it fails on
 * its next request. The e-mail goes out inside the transaction: if it cannot be sent, the
 * old token keeps working rather than the holder being left with none.
 */
export async function regenerateToken(
  ctx: AppContext,
  actor: Principal,
  emailInput: string | undefined,
): Promise<RegenerateTokenResponse> {
  const replaced = await replaceHolderToken(ctx, actor, emailInput, { notify: true });
  return {
    success: true,
    message: `A new token was e-mailed to ${replaced.email}. The previous token no longer works.`,
    email: replaced.email,
    tokenIssuedAt: replaced.tokenIssuedAt.toISOString(),
  };
}

export type ReplacedHolderToken = { email: string; token: string; tokenIssuedAt: Date };

/**
 * Gives the holder a new Composer token (the old one stops working) and, with `notify`, e-mails it with every
 * package it installs. Answers the token: API v1 hands it to the seller's shop, which may show it itself.
 * Every door (the dashboard, API v1, the holder in the portal: `byHolder`) leaves one `customer.token_regenerated`
 * event in the seller's audit trail, in the token's transaction.
 */
export async function replaceHolderToken(
  ctx: AppContext,
  actor: Principal,
  emailInput: string | undefined,
  options: { notify: boolean; byHolder?: boolean },
): Promise<ReplacedHolderToken> {
  const { sellerId } = actor;
  const email = parseHolderEmail(emailInput);
  const customer = await findCustomerByEmail(ctx.db, sellerId, email);
  if (!customer) throw new AppError('NOT_FOUND', licenseMessages.customerNotFound);
  const seller = await getLicenseMailSeller(ctx, sellerId);
  const now = ctx.clock.now();

  const issued = await ctx.db.transaction(async (tx) => {
    // The holder's default named token is replaced; tokens they named themselves keep working (issue 32).
    const replaced = await replaceDefaultHolderToken(ctx, tx, customer.id, options.byHolder ? 'holder' : 'seller');
    await markHolderTokenIssued(tx, customer.id, now);
    await recordAuditEvent(tx, ctx, actor, {
      action: 'customer.token_regenerated',
      targetType: 'customer',
      targetId: customer.id,
      details: { email: customer.email, emailSent: options.notify, by: options.byHolder ? 'license_holder' : 'seller' },
    });
    if (!options.notify) return replaced;
    const held = await selectHolderPackageGrants(tx, customer.id);
    const packageNames = held
      .filter((row) => row.isPackageActive && grantGivesAccess(row.grant, now))
      .map((row) => row.packageName);
    await sendLicenseEmail(ctx, seller, customer.email, {
      reason: 'token-regenerated',
      token: replaced.token,
      packageNames,
    });
    return replaced;
  });
  return { email: customer.email, token: issued.token, tokenIssuedAt: now };
}
