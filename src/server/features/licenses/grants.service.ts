import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type GrantEndMode, type GrantKind, licenseMessages } from '../../../contract/licenses.js';
import type { MailSendOptions } from '../../adapters/mail/mailer.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { customers, grants, type MinimumStability, type packages } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { grantMailReference } from '../../jobs/mail-delivery.js';
import { clientNetwork } from '../../lib/client-network.js';
import { type EmailBrand, getEmailBrand, repositoryUrlFor } from '../branding/branding.service.js';
import { findLiveHolderToken, issueFirstHolderToken } from '../credentials/holder-tokens.service.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import { getOwnedProduct } from '../products/products.service.js';
import { type Actor, recordAuditEvent } from '../shared/audit/audit.service.js';
import { findSellerIdentity, normalizeEmail, type SellerIdentity } from '../users/users.service.js';
import { emitLicenseChange, emitWebhookEvent, licenseEventData } from '../webhooks/webhook-events.service.js';
import { grantGivesAccess, isGrantActive } from './grant-rules.js';
import * as repository from './grants.repository.js';
import { describeGrantCoverage, hasCoverageTerms } from './license-coverage-words.js';
import { buildLicenseEmail, type LicenseEmailInput, type LicenseTerms } from './license-email.js';
import { assertSeatsCoverTokens } from './version-terms.js';

// License holders (customers), their Composer tokens and their grants: the rules every way of issuing
// a license shares (temporary licenses now, sales and API v1 later), and the checks Composer's doors use.

export type Grant = typeof grants.$inferSelect;
export type CustomerRecord = typeof customers.$inferSelect;
export type PackageRecord = typeof packages.$inferSelect;
type Seller = SellerIdentity;
/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

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
  const seller = await findSellerIdentity(ctx, { id: sellerId });
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
  actor: Actor,
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
export type GrantParties = { seller: LicenseSender; target: GrantTarget };

/**
 * What createGrant reads before its transaction (a query outside an open transaction waits for it on PGlite): a
 * package by id, or `{ productId }` for a product of the seller's.
 */
export async function loadGrantParties(
  ctx: AppContext,
  sellerId: string,
  what: string | { productId: string },
): Promise<GrantParties> {
  const [seller, target] = await Promise.all([getLicenseSender(ctx, sellerId), loadGrantTarget(ctx, sellerId, what)]);
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
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`holder-limit:${sellerId}`}))`);
    await assertRoomForHolder(tx, sellerId, email, input.holderLimit);
  }
  const [insertedCustomer] = await tx
    .insert(customers)
    .values({ sellerId, email, tokenIssuedAt: now, createdAt: now })
    .onConflictDoNothing()
    .returning();
  const customer = insertedCustomer ?? (await findCustomerByEmail(tx, sellerId, email));
  if (!customer) throw new Error('License holder vanished while being created');
  // A new holder's first named token (features/credentials keeps every holder token, issue 32).
  const issued = insertedCustomer
    ? await issueFirstHolderToken(ctx, tx, customer.id, input.kind === 'purchase' ? 'sale' : 'seller')
    : undefined;

  // Seats below the developer tokens the holder already has are refused (a new holder has only their first token).
  await assertSeatsCoverTokens(tx, customer.id, input.seats, now);
  const targetColumns = { packageId: target.packageId, productId: target.productId };
  const [insertedGrant] = await tx
    .insert(grants)
    .values({
      customerId: customer.id,
      ...targetColumns,
      ...terms,
      ...versionTerms,
      note: input.note ?? null,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  let grant: Grant;
  if (insertedGrant) {
    grant = insertedGrant;
  } else {
    const [existing] = await tx
      .select()
      .from(grants)
      .where(
        and(
          eq(grants.customerId, customer.id),
          target.packageId ? eq(grants.packageId, target.packageId) : eq(grants.productId, target.productId!),
        ),
      )
      .for('update');
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
  seller: LicenseSender,
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
  const [renewed] = await tx
    .update(grants)
    .set({
      ...terms,
      expiresAt,
      note: terms.note ?? existing.note,
      // A new limit applies to the new term; without one the running count is only history.
      ...(terms.downloadLimit !== null ? { downloadCount: 0 } : {}),
    })
    .where(eq(grants.id, existing.id))
    .returning();
  return renewed!;
}

/** A seller with the brand their license e-mails wear. */
export type LicenseSender = Seller & { brand: EmailBrand };

/**
 * The seller and their brand, loaded before the transaction that sends the e-mail: a query outside an open
 * transaction would wait for it on PGlite's single connection.
 */
export async function getLicenseSender(ctx: AppContext, sellerId: string): Promise<LicenseSender> {
  const seller = await getSeller(ctx, sellerId);
  return { ...seller, brand: await getEmailBrand(ctx, seller) };
}

/**
 * Renders and sends one license e-mail in the seller's brand (name, colour, logo, support address, Reply-To, the
 * verified custom domain in the repository URL), logging only the repository URL.
 */
export async function sendLicenseEmail(
  ctx: AppContext,
  seller: LicenseSender,
  to: string,
  content: Omit<LicenseEmailInput, 'repositoryUrl' | 'sellerSlug' | 'sellerName' | 'brand'>,
  delivery: { grantId?: string; db?: MailSendOptions['db']; queueOnly?: boolean } = {},
): Promise<void> {
  const { brand } = seller;
  const repositoryUrl = repositoryUrlFor(ctx, { slug: seller.slug, brandDomain: brand.verifiedDomain });
  const mail = buildLicenseEmail({
    ...content,
    sellerName: brand.brandName,
    sellerSlug: seller.slug,
    repositoryUrl,
    brand,
  });
  await ctx.mailer.send(
    {
      to,
      ...mail,
      fromName: brand.fromName,
      replyTo: brand.replyTo,
      links: [repositoryUrl],
      reference: delivery.grantId ? grantMailReference(delivery.grantId) : undefined,
    },
    { db: delivery.db, queueOnly: delivery.queueOnly },
  );
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
  const [current] = await db
    .select()
    .from(grants)
    .where(and(eq(grants.id, grantId), eq(grants.kind, 'purchase')))
    .limit(1);
  if (!current) return undefined;
  const changes: Partial<typeof grants.$inferInsert> = {};
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
  const [updated] = await db
    .update(grants)
    .set(changes)
    .where(and(eq(grants.id, grantId), eq(grants.kind, 'purchase')))
    .returning();
  if (updated) {
    const event = updated.status === 'revoked' ? 'license.revoked' : 'license.updated';
    await emitLicenseChange(ctx, updated.id, event, { db });
  }
  return updated;
}
