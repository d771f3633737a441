import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import {
  type IssuedLicense,
  type IssueLicenseInput,
  type License,
  type LicenseTermsInput,
  lastingLicenseMessages,
  licenseMessages,
  type UpdateLicenseInput,
} from '../../../contract/licenses.js';
import { setupCommands, TOKEN_PLACEHOLDER } from '../../../contract/setup-commands.js';
import type { AppContext } from '../../context.js';
import { customers, grants, packages } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { withEmailDelivery } from '../../jobs/mail-delivery.js';
import { repositoryUrlFor } from '../branding/branding.service.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import { type Actor, recordAuditEvent } from '../shared/audit/audit.service.js';
import { requireActiveAccess, type SubscriptionUser } from '../subscriptions/subscriptions.service.js';
import { normalizeEmail } from '../users/users.service.js';
import { emitWebhookEvent, licenseEventData } from '../webhooks/webhook-events.service.js';
import { presentCustomerGrant } from './customers.service.js';
import {
  assertRoomForHolder,
  createGrant,
  type Grant,
  getLicenseSender,
  grantAuditDetails,
  parseHolderEmail,
} from './grants.service.js';
import { findHolderLimit } from './licenses.service.js';

// Lasting licenses (issue 16): the terms a seller sets by hand in Management and a shop sets through API v1,
// checked by one set of rules. Kind `manual`: no expiry or a date, a download limit or none, what ends at expiry
// (access, or updates only), a note. Every change is an audit event naming who made it, in the change's transaction.

type LicenseRow = { grant: Grant; email: string; packageName: string };

export function presentLicense(row: LicenseRow, now: Date): License {
  const { grant } = row;
  return {
    ...presentCustomerGrant(grant, row.packageName, now),
    email: row.email,
    note: grant.note,
    createdAt: grant.createdAt.toISOString(),
    revokedAt: grant.revokedAt?.toISOString() ?? null,
  };
}

type ParsedTerms = {
  expiresAt?: Date | null;
  downloadLimit?: number | null;
  endMode?: 'access' | 'updates';
  note?: string | null;
};

/** The one rule set: an expiry must lie in the future (null: never expires); a blank note is no note. */
export function parseLicenseTerms(input: LicenseTermsInput, now: Date): ParsedTerms {
  const terms: ParsedTerms = {};
  if (input.expiresAt !== undefined) {
    const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt.getTime() <= now.getTime()) {
      throw new AppError('VALIDATION_FAILED', lastingLicenseMessages.expiryInPast);
    }
    terms.expiresAt = expiresAt;
  }
  if (input.downloadLimit !== undefined) terms.downloadLimit = input.downloadLimit;
  if (input.endMode !== undefined) terms.endMode = input.endMode;
  if (input.note !== undefined) terms.note = input.note?.trim() || null;
  return terms;
}

/**
 * Issues a lasting license (or gives the holder's existing license of the package these terms), e-mails the
 * holder unless `sendEmail` is false, and answers what the holder needs: repository URL, setup commands, and the
 * Composer token when this created the holder (its only appearance in clear besides the e-mail).
 */
export async function issueLicense(
  ctx: AppContext,
  seller: SubscriptionUser,
  actor: Actor,
  packageId: string,
  input: IssueLicenseInput,
): Promise<IssuedLicense> {
  const pkg = await getOwnedPackage(ctx, seller.id, packageId);
  const email = parseHolderEmail(input.email);
  const now = ctx.clock.now();
  const terms = parseLicenseTerms(input, now);
  await requireActiveAccess(ctx, seller);
  const holderLimit = await findHolderLimit(ctx, seller);
  if (holderLimit) await assertRoomForHolder(ctx.db, seller.id, email, holderLimit);

  const sendEmail = input.sendEmail !== false;
  const created = await createGrant(
    ctx,
    actor,
    {
      email,
      packageId: pkg.id,
      kind: 'manual',
      expiresAt: terms.expiresAt ?? null,
      endMode: terms.endMode ?? 'access',
      downloadLimit: terms.downloadLimit ?? null,
      note: terms.note ?? null,
      holderLimit,
    },
    { notify: sendEmail },
  );
  const sender = await getLicenseSender(ctx, seller.id);
  const repositoryUrl = repositoryUrlFor(ctx, { slug: sender.slug, brandDomain: sender.brand.verifiedDomain });
  const license = presentLicense({ grant: created.grant, email: created.customer.email, packageName: pkg.name }, now);
  return {
    license,
    outcome: created.outcome,
    emailSent: sendEmail,
    repositoryUrl,
    composerToken: created.composerToken ?? null,
    setupCommands: setupCommands({
      repositoryUrl,
      sellerSlug: sender.slug,
      packageName: pkg.name,
      token: created.composerToken ?? TOKEN_PLACEHOLDER,
    }),
  };
}

async function findLicenseRows(ctx: AppContext, sellerId: string, where: SQL | undefined): Promise<LicenseRow[]> {
  return ctx.db
    .select({ grant: grants, email: customers.email, packageName: packages.name })
    .from(grants)
    .innerJoin(customers, eq(customers.id, grants.customerId))
    .innerJoin(packages, eq(packages.id, grants.packageId))
    .where(and(eq(customers.sellerId, sellerId), eq(packages.ownerId, sellerId), where))
    .orderBy(desc(grants.createdAt), desc(grants.id));
}

/** The seller's license, any kind; another seller's is not found (the route's entityId has refused a malformed id). */
async function getLicenseRow(ctx: AppContext, sellerId: string, licenseId: string): Promise<LicenseRow> {
  const [row] = await findLicenseRows(ctx, sellerId, eq(grants.id, licenseId));
  if (!row) throw new AppError('NOT_FOUND', licenseMessages.licenseNotFound);
  return row;
}

export async function getLicense(ctx: AppContext, sellerId: string, licenseId: string): Promise<License> {
  return presentLicense(await getLicenseRow(ctx, sellerId, licenseId), ctx.clock.now());
}

/** Every license of the seller's (of one package, or of one holder, when asked), newest first. */
export async function listLicenses(
  ctx: AppContext,
  sellerId: string,
  filter: { packageId?: string; email?: string } = {},
): Promise<License[]> {
  if (filter.packageId !== undefined) await getOwnedPackage(ctx, sellerId, filter.packageId);
  const conditions = and(
    filter.packageId !== undefined ? eq(grants.packageId, filter.packageId) : undefined,
    filter.email !== undefined ? sql`lower(${customers.email}) = ${normalizeEmail(filter.email)}` : undefined,
  );
  const now = ctx.clock.now();
  return withEmailDelivery(
    ctx.db,
    (await findLicenseRows(ctx, sellerId, conditions)).map((row) => presentLicense(row, now)),
  );
}

/**
 * Changes a license's terms (absent fields keep their value), revokes it (`status: 'revoked'`) or restores it.
 * The holder's next Composer request sees the new terms.
 */
export async function updateLicense(
  ctx: AppContext,
  actor: Actor,
  licenseId: string,
  input: UpdateLicenseInput,
): Promise<License> {
  const row = await getLicenseRow(ctx, actor.sellerId, licenseId);
  const now = ctx.clock.now();
  const terms = parseLicenseTerms(input, now);
  if (Object.keys(terms).length === 0 && input.status === undefined) {
    throw new AppError('VALIDATION_FAILED', lastingLicenseMessages.nothingToUpdate);
  }
  const changes: Partial<typeof grants.$inferInsert> = { ...terms };
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
    const [changed] = await tx.update(grants).set(changes).where(eq(grants.id, row.grant.id)).returning();
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
export async function revokeLicense(ctx: AppContext, actor: Actor, licenseId: string): Promise<License> {
  const row = await getLicenseRow(ctx, actor.sellerId, licenseId);
  if (row.grant.status === 'revoked') return presentLicense(row, ctx.clock.now());
  return updateLicense(ctx, actor, licenseId, { status: 'revoked' });
}
