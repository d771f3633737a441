import type { GrantEndMode, GrantKind } from '../../../contract/licenses.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { MinimumStability } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { issueFirstHolderToken } from '../credentials/holder-tokens.service.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import { getOwnedProduct } from '../products/products.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { emitWebhookEvent, licenseEventData } from '../webhooks/webhook-events.service.js';
import { grantGivesAccess, isGrantActive } from './grant-rules.js';
import * as repository from './grants.repository.js';
import {
  type CustomerRecord,
  findCustomerByEmail,
  type Grant,
  parseHolderEmail,
  type Queryable,
} from './grants.service.js';
import { describeGrantCoverage, hasCoverageTerms } from './license-coverage-words.js';
import type { LicenseEmailInput, LicenseTerms } from './license-email.js';
import { getLicenseMailSeller, type LicenseMailSeller, sendLicenseEmail } from './license-mail.service.js';
import * as licenses from './licenses.repository.js';
import { assertSeatsCoverTokens } from './version-terms.js';

// Issuing a license: the rules every way of issuing one shares (temporary licenses, manual and lasting ones, sales,
// API v1): the holder limit, the holder's customer record and first token, a new grant or the renewal of the
// holder's existing one, its audit event and webhook, and the license e-mail of what was written.

export type CreateGrantInput = {
  email: string;
  /** The package licensed; a product's license (loadGrantParties with productId) leaves it out. */
  packageId?: string;
  kind: GrantKind;
  /** Version terms and seats (issue 31), checked by parseVersionTerms; left out: every version, no seat limit. */
  versionConstraint?: string | null;
  minimumStability?: MinimumStability;
  seats?: number | null;
  expiresAt?: Date | null;
  endMode: GrantEndMode;
  downloadLimit?: number | null;
  note?: string | null;
  /** The length the seller chose, named in the e-mail. */
  durationDays?: number;
  /** The plan's cap on license holders, enforced under a lock when the holder is new. */
  holderLimit?: HolderLimit;
  /** A seller's test purchase (billing off): the e-mail says that nothing was paid. */
  isTestPurchase?: boolean;
};

export type CreateGrantResult = {
  grant: Grant;
  customer: CustomerRecord;
  /** What the grant licenses: a package, or a product and its packages. */
  target: GrantTarget;
  /** created: a new grant; renewed: the holder's existing grant for the package took the new terms. */
  outcome: 'created' | 'renewed';
  isNewCustomer: boolean;
  /** The new holder's Composer token (only when isNewCustomer): the one moment it exists in clear. */
  composerToken?: string;
};

/** A plan's cap on distinct license holders. */
export type HolderLimit = { tierName: string; maxHolders: number };

/** Refuses a new license holder beyond the plan's cap; a holder the seller already has always fits. */
export async function assertRoomForHolder(
  db: Queryable,
  sellerId: string,
  email: string,
  limit: HolderLimit,
): Promise<void> {
  if (await findCustomerByEmail(db, sellerId, email)) return;
  if ((await repository.countHolders(db, sellerId)) >= limit.maxHolders) {
    throw new AppError('FORBIDDEN', `Your ${limit.tierName} plan allows up to ${limit.maxHolders} license holders.`, {
      title: 'Plan Limit Reached',
      suggestion: 'Upgrade your plan to add more license holders.',
    });
  }
}

/**
 * Gives the holder (by e-mail) access to one of the seller's packages and e-mails them. A holder new to
 * the seller gets a customer record and a token, which only the e-mail carries; a known holder keeps
 * theirs. An existing grant for the package is renewed rather than duplicated; a temporary license never
 * replaces a purchased or manual license that still gives access (409), nor shortens a running one.
 * The seller's audit trail records `license.created` or `license.renewed` by `actor`, in the grant's transaction.
 */
export async function createGrant(
  ctx: AppContext,
  actor: Principal,
  input: CreateGrantInput,
  options: { notify?: boolean } = {},
): Promise<CreateGrantResult> {
  parseHolderEmail(input.email);
  const loaded = await loadGrantParties(ctx, actor.sellerId, input.packageId ?? '');
  const notify = options.notify !== false;
  // The e-mail goes out inside the transaction: if it cannot be sent, no token exists that nobody holds.
  return ctx.db.transaction(async (tx) => {
    const result = await createGrantIn(ctx, tx, loaded, input);
    if (notify) await sendGrantEmail(ctx, tx, loaded.seller, result, input);
    await recordAuditEvent(tx, ctx, actor, {
      action: result.outcome === 'created' ? 'license.created' : 'license.renewed',
      targetType: 'license',
      targetId: result.grant.id,
      details: grantAuditDetails(result.grant, result.customer.email, loaded.target.name, { emailSent: notify }),
    });
    return result;
  });
}

/** What a license's audit event says of it, whichever its kind and door. */
export function grantAuditDetails(
  grant: Grant,
  email: string,
  packageName: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    packageName,
    email,
    kind: grant.kind,
    status: grant.status,
    expiresAt: grant.expiresAt?.toISOString() ?? null,
    endMode: grant.endMode,
    downloadLimit: grant.downloadLimit,
    ...extra,
  };
}

/**
 * What a grant licenses: one package, or a product (issue 31), which covers its packages as they are at each request;
 * packageNames are the product's now, for the e-mail and the answer.
 */
export type GrantTarget = { packageId: string | null; productId: string | null; name: string; packageNames: string[] };

/** The seller (with their brand) and what a grant is about, loaded before the transaction that writes it. */
export type GrantParties = { seller: LicenseMailSeller; target: GrantTarget };

/**
 * What createGrant reads before its transaction (a query outside an open transaction waits for it on PGlite): a
 * package by id, or `{ productId }` for a product of the seller's.
 */
export async function loadGrantParties(
  ctx: AppContext,
  sellerId: string,
  what: string | { productId: string },
): Promise<GrantParties> {
  const [seller, target] = await Promise.all([
    getLicenseMailSeller(ctx, sellerId),
    loadGrantTarget(ctx, sellerId, what),
  ]);
  return { seller, target };
}

/** The seller's package or product as a grant's target; 404 for another seller's or an unknown one. */
export async function loadGrantTarget(
  ctx: AppContext,
  sellerId: string,
  what: string | { productId: string },
): Promise<GrantTarget> {
  if (typeof what === 'string') {
    const pkg = await getOwnedPackage(ctx, sellerId, what);
    return { packageId: pkg.id, productId: null, name: pkg.name, packageNames: [pkg.name] };
  }
  const product = await getOwnedProduct(ctx, sellerId, what.productId);
  return {
    packageId: null,
    productId: product.id,
    name: product.name,
    packageNames: product.packages.map((pkg) => pkg.name),
  };
}

/**
 * createGrant's writes in the caller's transaction (a sale's fulfilment writes its grant with the sale), without
 * the e-mail: the caller sends it with sendGrantEmail in the same transaction.
 */
export async function createGrantIn(
  ctx: AppContext,
  tx: Database,
  parties: GrantParties,
  input: CreateGrantInput,
): Promise<CreateGrantResult> {
  const { target } = parties;
  const sellerId = parties.seller.id;
  const email = parseHolderEmail(input.email);
  const now = ctx.clock.now();
  const terms = {
    kind: input.kind,
    status: 'active' as const,
    revokedAt: null,
    expiresAt: input.expiresAt ?? null,
    endMode: input.endMode,
    downloadLimit: input.downloadLimit ?? null,
  };
  // Version terms a renewal leaves out keep the license's own; a new license starts from every version, no seat limit.
  const versionTerms = {
    ...(input.versionConstraint !== undefined ? { versionConstraint: input.versionConstraint } : {}),
    ...(input.minimumStability !== undefined ? { minimumStability: input.minimumStability } : {}),
    ...(input.seats !== undefined ? { seats: input.seats } : {}),
  };
  if (input.holderLimit) {
    // Two licenses for new holders at the cap must not both pass the count: the second waits for the first.
    await licenses.lockHolderLimitOf(tx, sellerId);
    await assertRoomForHolder(tx, sellerId, email, input.holderLimit);
  }
  const insertedCustomer = await licenses.insertCustomerIfNew(tx, {
    sellerId,
    email,
    tokenIssuedAt: now,
    createdAt: now,
  });
  const customer = insertedCustomer ?? (await findCustomerByEmail(tx, sellerId, email));
  if (!customer) throw new Error('License holder vanished while being created');
  // A new holder's first named token (features/credentials keeps every holder token, issue 32).
  const issued = insertedCustomer
    ? await issueFirstHolderToken(ctx, tx, customer.id, input.kind === 'purchase' ? 'sale' : 'seller')
    : undefined;

  // Seats below the developer tokens the holder already has are refused (a new holder has only their first token).
  await assertSeatsCoverTokens(tx, customer.id, input.seats, now);
  const targetColumns = { packageId: target.packageId, productId: target.productId };
  const insertedGrant = await licenses.insertGrantIfNew(tx, {
    customerId: customer.id,
    ...targetColumns,
    ...terms,
    ...versionTerms,
    note: input.note ?? null,
    createdAt: now,
  });
  let grant: Grant;
  if (insertedGrant) {
    grant = insertedGrant;
  } else {
    const existing = await licenses.lockHolderGrant(tx, customer.id, targetColumns);
    if (!existing) throw new Error('Grant vanished while being renewed');
    grant = await renewGrant(
      tx,
      existing,
      { ...terms, ...versionTerms, note: input.note ?? null },
      { email, target, now },
    );
  }

  const event = insertedGrant ? 'license.created' : 'license.updated';
  await emitWebhookEvent(ctx, sellerId, event, licenseEventData(grant, { email, packageName: target.name }), {
    db: tx,
  });
  return {
    grant,
    customer,
    target,
    outcome: insertedGrant ? 'created' : 'renewed',
    isNewCustomer: Boolean(insertedCustomer),
    composerToken: issued?.token,
  };
}

/**
 * The license e-mail of a grant createGrantIn wrote, in its transaction (its delivery is recorded with the
 * license; a refused mail is retried, src/server/jobs). `queueOnly`: the runner sends it after the commit.
 */
export async function sendGrantEmail(
  ctx: AppContext,
  tx: Database,
  seller: LicenseMailSeller,
  result: CreateGrantResult,
  input: CreateGrantInput,
  options: { queueOnly?: boolean } = {},
): Promise<void> {
  const { grant } = result;
  const reason: LicenseEmailInput['reason'] = result.isNewCustomer
    ? 'new-holder'
    : result.outcome === 'created'
      ? 'package-added'
      : 'license-renewed';
  const license: LicenseTerms = {
    kind: grant.kind,
    durationDays: input.durationDays,
    expiresAt: grant.expiresAt,
    endMode: grant.endMode,
  };
  await sendLicenseEmail(
    ctx,
    seller,
    result.customer.email,
    {
      reason,
      token: result.composerToken,
      packageNames: result.target.packageNames,
      coverage: hasCoverageTerms(grant) ? [describeGrantCoverage(grant, result.target)] : undefined,
      license,
      isTestPurchase: input.isTestPurchase,
    },
    { grantId: grant.id, db: tx, queueOnly: options.queueOnly },
  );
}

type GrantTerms = Pick<Grant, 'kind' | 'status' | 'revokedAt' | 'expiresAt' | 'endMode' | 'downloadLimit' | 'note'> &
  Partial<Pick<Grant, 'versionConstraint' | 'minimumStability' | 'seats'>>;

async function renewGrant(
  tx: Queryable,
  existing: Grant,
  terms: GrantTerms,
  context: { email: string; target: GrantTarget; now: Date },
): Promise<Grant> {
  if (terms.kind === 'temporary' && existing.kind !== 'temporary' && grantGivesAccess(existing, context.now)) {
    throw new AppError('CONFLICT', `${context.email} already holds a license for ${context.target.name}`, {
      suggestion: 'A temporary license would cut it short; the holder can already install the package.',
    });
  }
  let expiresAt = terms.expiresAt;
  // Renewing a running temporary license for fewer days must not take days away from the holder.
  if (
    terms.kind === 'temporary' &&
    existing.kind === 'temporary' &&
    isGrantActive(existing, context.now) &&
    existing.expiresAt &&
    expiresAt &&
    existing.expiresAt > expiresAt
  ) {
    expiresAt = existing.expiresAt;
  }
  const renewed = await licenses.updateGrantRow(tx, existing.id, {
    ...terms,
    expiresAt,
    note: terms.note ?? existing.note,
    // A new limit applies to the new term; without one the running count is only history.
    ...(terms.downloadLimit !== null ? { downloadCount: 0 } : {}),
  });
  return renewed!;
}
