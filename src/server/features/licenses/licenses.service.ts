import {
  type CreateTemporaryLicenseInput,
  DEFAULT_TEMPORARY_LICENSE_DURATION,
  licenseMessages,
  TEMPORARY_LICENSE_DURATIONS,
  type TemporaryLicense,
} from '../../../contract/licenses.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { withEmailDelivery } from '../../jobs/mail-delivery.js';
import { DAY_MS } from '../../lib/clock.js';
import { getOwnedPackage } from '../packages/packages.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { findPlanLimits, type PlanAccount, requireActiveAccess } from '../subscriptions/subscriptions.service.js';
import { emitWebhookEvent, licenseEventData } from '../webhooks/webhook-events.service.js';
import { assertRoomForHolder, createGrant, grantAuditDetails, type HolderLimit } from './grant-issuing.service.js';
import { daysRemaining, type Grant, isGrantActive, parseHolderEmail } from './grants.service.js';
import * as repository from './licenses.repository.js';

// Temporary licenses (spec seller-app §3, §5, §7): trial access to one package, by e-mail, for a few days.

/** Revoked licenses show no days left; expired ones count down below zero (the spec colours ≤ 0 red). */
export function presentTemporaryLicense(grant: Grant, email: string, now: Date): TemporaryLicense {
  return {
    id: grant.id,
    email,
    isActive: isGrantActive(grant, now),
    daysRemaining: grant.status === 'revoked' ? 0 : daysRemaining(grant.expiresAt, now),
    createdAt: grant.createdAt.toISOString(),
    expiresAt: grant.expiresAt?.toISOString() ?? null,
    lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
    note: grant.note,
    revokedAt: grant.revokedAt?.toISOString() ?? null,
  };
}

/** The package's temporary licenses, newest first. */
export async function listTemporaryLicenses(
  ctx: AppContext,
  sellerId: string,
  packageId: string,
): Promise<TemporaryLicense[]> {
  const pkg = await getOwnedPackage(ctx, sellerId, packageId);
  const rows = await repository.selectTemporaryLicenses(ctx.db, sellerId, pkg.id);
  const now = ctx.clock.now();
  return withEmailDelivery(
    ctx.db,
    rows.map((row) => presentTemporaryLicense(row.grant, row.email, now)),
  );
}

export function parseDuration(durationDays: number | undefined): number {
  const duration = durationDays ?? DEFAULT_TEMPORARY_LICENSE_DURATION;
  if (!(TEMPORARY_LICENSE_DURATIONS as readonly number[]).includes(duration)) {
    throw new AppError('VALIDATION_FAILED', licenseMessages.durationInvalid);
  }
  return duration;
}

/**
 * Issues (or renews) a temporary license: access ends entirely after `durationDays`. Needs a trial or an
 * active subscription, and room under the plan's license-holder limit when the holder is new.
 */
export async function createTemporaryLicense(
  ctx: AppContext,
  seller: PlanAccount,
  actor: Principal,
  packageId: string,
  input: CreateTemporaryLicenseInput,
): Promise<TemporaryLicense> {
  await getOwnedPackage(ctx, seller.id, packageId);
  const email = parseHolderEmail(input.email);
  const durationDays = parseDuration(input.durationDays);
  await requireActiveAccess(ctx, seller);
  const holderLimit = await findHolderLimit(ctx, seller);
  // Checked early for a clear answer; createGrant checks again under a lock when it adds the holder.
  if (holderLimit) await assertRoomForHolder(ctx.db, seller.id, email, holderLimit);

  const now = ctx.clock.now();
  const { grant, customer } = await createGrant(ctx, actor, {
    email,
    packageId,
    kind: 'temporary',
    expiresAt: new Date(now.getTime() + durationDays * DAY_MS),
    endMode: 'access',
    note: input.note?.trim() || null,
    durationDays,
    holderLimit,
  });
  return presentTemporaryLicense(grant, customer.email, now);
}

/** The tier's maxCustomers caps distinct license holders (-1: unlimited; admins: no plan, no cap). */
export async function findHolderLimit(ctx: AppContext, seller: PlanAccount): Promise<HolderLimit | undefined> {
  const limits = await findPlanLimits(ctx, seller);
  if (!limits || limits.maxHolders === null) return undefined;
  return { tierName: limits.tierName, maxHolders: limits.maxHolders };
}

/**
 * Revokes a temporary license; the holder's next Composer request is refused (tokens are checked on every
 * request, nothing is cached). Revoking a revoked license changes nothing and answers it again.
 */
export async function revokeTemporaryLicense(
  ctx: AppContext,
  actor: Principal,
  packageId: string,
  licenseId: string,
): Promise<TemporaryLicense> {
  const { sellerId } = actor;
  const pkg = await getOwnedPackage(ctx, sellerId, packageId);
  const now = ctx.clock.now();
  const [found] = await repository.selectTemporaryLicenses(ctx.db, sellerId, pkg.id, licenseId);
  if (!found) throw new AppError('NOT_FOUND', licenseMessages.licenseNotFound);
  if (found.grant.status === 'revoked') return presentTemporaryLicense(found.grant, found.email, now);
  const revoked = await ctx.db.transaction(async (tx) => {
    const changed = await repository.revokeActiveGrant(tx, found.grant.id, now);
    if (!changed) return undefined;
    const parties = { email: found.email, packageName: pkg.name };
    await emitWebhookEvent(ctx, sellerId, 'license.revoked', licenseEventData(changed, parties), { db: tx });
    await recordAuditEvent(tx, ctx, actor, {
      action: 'license.revoked',
      targetType: 'license',
      targetId: changed.id,
      details: grantAuditDetails(changed, found.email, pkg.name),
    });
    return changed;
  });
  return presentTemporaryLicense(revoked ?? { ...found.grant, status: 'revoked', revokedAt: now }, found.email, now);
}
