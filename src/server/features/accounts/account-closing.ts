import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { type Principal, systemPrincipal } from '../../http/principal.js';
import { deleteSessionsOfOrganization } from '../../http/session-ending.js';
import { disconnectSessions } from '../../http/session-organization.js';
import { deleteAllTokensOfOrganization } from '../api-tokens/account-closing.service.js';
import { eraseBrandPersonalData } from '../branding/account-closing.service.js';
import { eraseHolderPersonalData, revokeAllHolderAccess } from '../licenses/account-closing.service.js';
import { deactivateAllPrices, eraseBuyerPersonalData } from '../sales/account-closing.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { eraseAuditPersonalData } from '../shared/audit/audit-erasure.service.js';
import { eraseAccountIdentity, markAccountClosed } from '../users/account-state.service.js';
import { findUserById, type User } from '../users/users.service.js';
import { disableAllEndpoints } from '../webhooks/account-closing.service.js';

// Closing a seller's account (issue 35 item 5). One transaction ends everything the account gave others: every
// license revoked and every holder token voided, API tokens deleted, webhook endpoints disabled, prices inactive (and
// checkout refused), every member's session ended, `account.closed` in the audit trail, and the erasure job queued
// for `erase_after` (closing + ACCOUNT_RETENTION_DAYS). Until then the owner may sign in, sees the account closed
// and can still download the export. The job then erases the personal data: holders' and buyers' e-mail addresses,
// download networks, the account's e-mail and names, the brand's logo and contact addresses, names and details in
// the audit trail. The sales stay (amounts, dates, currency, invoice ids), as tax law requires.

export const ACCOUNT_ERASE_JOB = 'account.erase';
/** A failed erasure is tried again with backoff (each step is safe to repeat). */
export const ACCOUNT_ERASE_MAX_ATTEMPTS = 10;

export const accountMessages = {
  alreadyClosed: 'This account is already closed.',
  exportOwnerOnly: "Only the organisation's owner can export its data: use an API token the owner created.",
  confirmSlug: (slug: string) => `Type the account's slug (${slug}) to confirm closing it.`,
} as const;

export type ClosedAccount = { closedAt: Date; eraseAfter: Date };

/** Closes the account `actor` acts on once `confirmSlug` repeats its slug; refused with nothing changed otherwise. */
export async function closeAccount(
  ctx: AppContext,
  actor: Principal,
  account: User,
  confirmSlug: string,
): Promise<ClosedAccount> {
  if (account.closedAt) throw new AppError('CONFLICT', accountMessages.alreadyClosed);
  if (confirmSlug.trim().toLowerCase() !== account.slug.toLowerCase()) {
    throw new AppError('VALIDATION_FAILED', accountMessages.confirmSlug(account.slug));
  }
  const closedAt = ctx.clock.now();
  const eraseAfter = new Date(closedAt.getTime() + ctx.config.accountRetentionMs);
  const endedSessions = await ctx.db.transaction(async (tx) => {
    // The conditional update is the lock: of two closings at once, one finds the account still open.
    if (!(await markAccountClosed(tx, account.id, closedAt, eraseAfter))) {
      throw new AppError('CONFLICT', accountMessages.alreadyClosed);
    }
    const access = await revokeAllHolderAccess(tx, account.id, closedAt);
    const apiTokens = await deleteAllTokensOfOrganization(tx, account.id, closedAt);
    const webhookEndpoints = await disableAllEndpoints(tx, account.id, closedAt);
    const prices = await deactivateAllPrices(tx, account.id, closedAt);
    const sessions = await deleteSessionsOfOrganization(tx, account.id);
    await recordAuditEvent(tx, ctx, actor, {
      action: 'account.closed',
      targetType: 'account',
      targetId: account.id,
      details: {
        eraseAfter: eraseAfter.toISOString(),
        licensesRevoked: access.licenses,
        holderTokensRevoked: access.holders,
        apiTokensDeleted: apiTokens,
        webhookEndpointsDisabled: webhookEndpoints,
        pricesDeactivated: prices,
        sessionsEnded: sessions.length,
      },
    });
    await ctx.jobs.enqueue(
      ACCOUNT_ERASE_JOB,
      { accountId: account.id },
      {
        db: tx,
        delayMs: ctx.config.accountRetentionMs,
        reference: `account:${account.id}`,
      },
    );
    return sessions;
  });
  disconnectSessions(ctx, endedSessions);
  return { closedAt, eraseAfter };
}

/**
 * Erases the closed account's personal data once its erase date has passed; answers what it did. An account that is
 * not closed, or whose date is still ahead, is left alone (the job is queued for the date; this guards a clock or a
 * reopened account).
 */
export async function eraseClosedAccount(ctx: AppContext, accountId: string): Promise<Record<string, unknown>> {
  const account = await findUserById(ctx, accountId);
  const now = ctx.clock.now();
  if (!account?.closedAt || !account.eraseAfter) return { skipped: 'not closed' };
  if (account.eraseAfter.getTime() > now.getTime()) return { skipped: 'erase date ahead' };
  const logoPrefix = await ctx.db.transaction(async (tx) => {
    const holders = await eraseHolderPersonalData(tx, account.id);
    const buyers = await eraseBuyerPersonalData(tx, account.id);
    const prefix = await eraseBrandPersonalData(tx, account.id, now);
    await eraseAuditPersonalData(tx, account.id);
    await eraseAccountIdentity(tx, account.id, now);
    await recordAuditEvent(tx, ctx, systemPrincipal(account.id), {
      action: 'account.erased',
      targetType: 'account',
      targetId: account.id,
      details: { holdersErased: holders, salesKeptWithoutBuyerEmail: buyers },
    });
    return prefix;
  });
  // After the commit: a logo removed before a rollback could not be brought back.
  const logos = await ctx.storage.deletePrefix(logoPrefix);
  return { erased: true, logos };
}
