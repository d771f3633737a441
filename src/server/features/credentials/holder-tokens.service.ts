import {
  type CreatedHolderToken,
  type CreateHolderTokenInput,
  type HolderToken,
  type HolderTokenState,
  holderTokenMessages,
  ROTATION_OVERLAP_DEFAULT_HOURS,
} from '../../../contract/holder-tokens.js';
import { licenseMessages } from '../../../contract/licenses.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { HOUR_MS } from '../../lib/clock.js';
import { recordAuditEvent, type Transaction } from '../shared/audit/audit.service.js';
import { findSellerProfile } from '../users/users.service.js';
import { type HolderTokenCreator, type HolderTokenRow, issueHolderToken } from './holder-token-issue.js';
import {
  countSeatedDeveloperTokens,
  findHolderTokenForUpdate,
  findSellersHolderContact,
  lockHolderSeats,
  selectTokensOfHolder,
  updateHolderToken,
} from './holder-tokens.repository.js';

// What other domains use of holder-token-issue.ts (a domain reaches another through its services only).
export {
  findLiveHolderToken,
  issueFirstHolderToken,
  recordHolderTokenUse,
  replaceDefaultHolderToken,
  revokeSellersHolderTokens,
  type TokenWriter,
} from './holder-token-issue.js';
/** Developer tokens holding a seat at `now`: the licenses domain checks a license's new seats against them. */
export { countSeatedDeveloperTokens } from './holder-tokens.repository.js';

// The holder's named tokens as people manage them (issue 32): list, create (developer tokens take seats), rotate
// with an overlap, revoke. Every door (the portal, Management, API v1) calls these, and each leaves one audit event.

/** The seat limit a holder's licenses set (null: unlimited), asked of the licenses domain by the door that calls. */
export type SeatRule = { limit: number | null };

/** Whether the token opens Composer at `now`, and why not. */
export function holderTokenState(row: HolderTokenRow, now: Date): HolderTokenState {
  if (row.revokedAt) return 'revoked';
  const isPast = row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
  if (row.replacedById) return isPast ? 'replaced' : 'overlap';
  if (isPast) return 'expired';
  return row.leakedAt ? 'leaked' : 'active';
}

export function presentHolderToken(row: HolderTokenRow, now: Date): HolderToken {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    tokenHint: row.tokenHint,
    state: holderTokenState(row, now),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    expiresAt: iso(row.expiresAt),
    rotatedAt: iso(row.rotatedAt),
    replacedById: row.replacedById,
    revokedAt: iso(row.revokedAt),
    leakedAt: iso(row.leakedAt),
    leakUrl: row.leakUrl,
  };
}

/** The seller's holder (NOT_FOUND for another seller's, so ids of others reveal nothing). */
async function getSellersHolder(ctx: AppContext, sellerId: string, customerId: string) {
  const holder = await findSellersHolderContact(ctx.db, sellerId, customerId);
  if (!holder) throw new AppError('NOT_FOUND', licenseMessages.customerNotFound);
  return holder;
}

/** Every token of the holder, oldest first (never the tokens themselves: only their hints). */
export async function listHolderTokens(ctx: AppContext, sellerId: string, customerId: string): Promise<HolderToken[]> {
  await getSellersHolder(ctx, sellerId, customerId);
  const rows = await selectTokensOfHolder(ctx.db, customerId);
  const now = ctx.clock.now();
  return rows.map((row) => presentHolderToken(row, now));
}

async function sellerName(ctx: AppContext, sellerId: string): Promise<string> {
  const seller = await findSellerProfile(ctx, { id: sellerId });
  return seller?.displayName?.trim() || seller?.githubUsername || seller?.slug || 'the seller';
}

/** A new named token for the holder, answered once. A developer token beyond the holder's seats is refused (409). */
export async function createHolderToken(
  ctx: AppContext,
  actor: Principal,
  customerId: string,
  input: CreateHolderTokenInput,
  options: { seats: SeatRule; createdBy: HolderTokenCreator },
): Promise<CreatedHolderToken> {
  const holder = await getSellersHolder(ctx, actor.sellerId, customerId);
  const now = ctx.clock.now();
  const name = input.name.trim();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new AppError('VALIDATION_FAILED', holderTokenMessages.expiresInPast, {
      suggestion: 'Leave it out for a token that does not expire.',
    });
  }
  const limit = input.kind === 'developer' ? options.seats.limit : null;
  const seller = limit === null ? '' : await sellerName(ctx, actor.sellerId);
  const issued = await ctx.db.transaction(async (tx) => {
    if (limit !== null) {
      // Two developer tokens asked at once at the last seat must not both pass the count: the second waits.
      await lockHolderSeats(tx, holder.id);
      // Developer tokens that hold a seat: working, and not on their way out after a rotation.
      if ((await countSeatedDeveloperTokens(tx, holder.id, now)) >= limit) {
        throw new AppError(
          'CONFLICT',
          `All ${limit} developer seats of your license are taken: revoke a developer token or ask ${seller} for more seats.`,
          { suggestion: 'Tokens of kind ci, deploy or bot take no seat.' },
        );
      }
    }
    const created = await issueHolderToken(ctx, tx, {
      customerId: holder.id,
      name,
      kind: input.kind,
      expiresAt,
      createdBy: options.createdBy,
    });
    await recordAuditEvent(tx, ctx, actor, {
      action: 'customer.token_created',
      targetType: 'customer',
      targetId: holder.id,
      details: { email: holder.email, tokenId: created.row.id, name, kind: input.kind },
    });
    return created;
  });
  return { ...presentHolderToken(issued.row, now), token: issued.token };
}

/** The holder's token, locked for the change that follows (NOT_FOUND for another holder's). */
async function lockHolderToken(tx: Transaction, customerId: string, tokenId: string): Promise<HolderTokenRow> {
  const row = await findHolderTokenForUpdate(tx, customerId, tokenId);
  if (!row) throw new AppError('NOT_FOUND', holderTokenMessages.notFound);
  return row;
}

/**
 * Replaces a token by a new one of the same name and kind; the old one keeps working for `overlapHours` (0: stops
 * now) so every machine can switch before it ends. A rotated token is rotated once (409): its replacement is next.
 */
export async function rotateHolderToken(
  ctx: AppContext,
  actor: Principal,
  customerId: string,
  tokenId: string,
  overlapHours: number = ROTATION_OVERLAP_DEFAULT_HOURS,
  createdBy: HolderTokenCreator = 'seller',
): Promise<CreatedHolderToken> {
  const holder = await getSellersHolder(ctx, actor.sellerId, customerId);
  const now = ctx.clock.now();
  const issued = await ctx.db.transaction(async (tx) => {
    const old = await lockHolderToken(tx, holder.id, tokenId);
    if (old.replacedById) throw new AppError('CONFLICT', holderTokenMessages.alreadyRotated);
    const state = holderTokenState(old, now);
    if (state === 'revoked' || state === 'expired') throw new AppError('CONFLICT', holderTokenMessages.notLive);
    const created = await issueHolderToken(ctx, tx, {
      customerId: holder.id,
      name: old.name,
      kind: old.kind,
      expiresAt: old.leakedAt ? null : old.expiresAt,
      createdBy,
    });
    const overlapEnd = new Date(now.getTime() + overlapHours * HOUR_MS);
    const endsAt = old.expiresAt && old.expiresAt < overlapEnd ? old.expiresAt : overlapEnd;
    await updateHolderToken(tx, old.id, { replacedById: created.row.id, rotatedAt: now, expiresAt: endsAt });
    await recordAuditEvent(tx, ctx, actor, {
      action: 'customer.token_rotated',
      targetType: 'customer',
      targetId: holder.id,
      details: { email: holder.email, tokenId: old.id, newTokenId: created.row.id, name: old.name, overlapHours },
    });
    return created;
  });
  return { ...presentHolderToken(issued.row, now), token: issued.token };
}

/** Revokes the token at once: its next Composer request is refused. Revoking a revoked token answers it unchanged. */
export async function revokeHolderToken(
  ctx: AppContext,
  actor: Principal,
  customerId: string,
  tokenId: string,
): Promise<HolderToken> {
  const holder = await getSellersHolder(ctx, actor.sellerId, customerId);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const token = await lockHolderToken(tx, holder.id, tokenId);
    if (token.revokedAt) return token;
    const revoked = await updateHolderToken(tx, token.id, { revokedAt: now });
    await recordAuditEvent(tx, ctx, actor, {
      action: 'customer.token_revoked',
      targetType: 'customer',
      targetId: holder.id,
      details: { email: holder.email, tokenId: token.id, name: token.name },
    });
    return revoked ?? token;
  });
  return presentHolderToken(row, now);
}
