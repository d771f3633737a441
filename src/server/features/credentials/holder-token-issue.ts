import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import type { HolderTokenKind } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { generateHolderToken, holderTokenHint } from '../../lib/holder-token-format.js';
import {
  findLiveHolderTokenByHash,
  type HolderTokenRow,
  insertHolderToken,
  markHolderTokenUsed,
  revokeHolderTokensNamed,
  revokeTokensMintedByTrust,
  revokeTokensOfSellersHolders,
} from './holder-tokens.repository.js';

// Issuing a license holder's Composer token (issue 32): the one place a holder_tokens row is born, whoever asks (a
// sale or a new license, the holder in the portal, the seller on API v1, an OIDC exchange). Only the SHA-256 is kept,
// the same hash the Composer door computes from the token it receives; the token itself is answered once.

export type { HolderTokenRow };
export type HolderTokenCreator = HolderTokenRow['createdBy'];

/** The database or an open transaction. */
export type TokenWriter = Pick<Database, 'insert' | 'update' | 'select' | 'execute'>;

export type IssueHolderTokenInput = {
  customerId: string;
  name: string;
  kind: HolderTokenKind;
  expiresAt?: Date | null;
  createdBy: HolderTokenCreator;
  /** The CI identity an OIDC exchange minted this token for. */
  oidcTrustId?: string | null;
};

/** The name a holder's token gets when a license or a regeneration makes it without one being asked. */
export const DEFAULT_HOLDER_TOKEN_NAME = 'Composer token';

/**
 * Writes a new token for the holder and answers it with its row. Checks nothing (names, seats, who may): callers
 * validate first; the seat rule is in holder-tokens.service.ts. `db` may be an open transaction.
 */
export async function issueHolderToken(
  ctx: Pick<AppContext, 'clock'>,
  db: TokenWriter,
  input: IssueHolderTokenInput,
): Promise<{ token: string; row: HolderTokenRow }> {
  const token = generateHolderToken();
  const row = await insertHolderToken(db, {
    customerId: input.customerId,
    name: input.name,
    kind: input.kind,
    tokenHash: sha256Hex(token),
    tokenHint: holderTokenHint(token),
    createdBy: input.createdBy,
    expiresAt: input.expiresAt ?? null,
    oidcTrustId: input.oidcTrustId ?? null,
    createdAt: ctx.clock.now(),
  });
  return { token, row };
}

/** A holder's first token, made with their first license (a sale, the seller, API v1): a developer token. */
export async function issueFirstHolderToken(
  ctx: Pick<AppContext, 'clock'>,
  db: TokenWriter,
  customerId: string,
  createdBy: HolderTokenCreator,
): Promise<{ token: string; row: HolderTokenRow }> {
  return issueHolderToken(ctx, db, { customerId, name: DEFAULT_HOLDER_TOKEN_NAME, kind: 'developer', createdBy });
}

/**
 * "Regenerate the token" of the screens and API v1 that predate named tokens: the holder's default token (named
 * DEFAULT_HOLDER_TOKEN_NAME) stops working at once and a new one takes its name. Their other named tokens stay.
 */
export async function replaceDefaultHolderToken(
  ctx: Pick<AppContext, 'clock'>,
  db: TokenWriter,
  customerId: string,
  createdBy: HolderTokenCreator,
): Promise<{ token: string; row: HolderTokenRow }> {
  await revokeHolderTokensNamed(db, customerId, DEFAULT_HOLDER_TOKEN_NAME, ctx.clock.now());
  return issueFirstHolderToken(ctx, db, customerId, createdBy);
}

/** Closing a seller's account (issue 35): every token of every holder of theirs stops working; answers how many. */
export function revokeSellersHolderTokens(db: TokenWriter, sellerId: string, now: Date): Promise<number> {
  return revokeTokensOfSellersHolders(db, sellerId, now);
}

/**
 * Revokes the short-lived tokens a CI identity minted that still work, when the holder stops trusting it: they would
 * otherwise keep installing for up to 30 minutes. Answers how many.
 */
export function revokeTokensOfTrust(db: TokenWriter, trustId: string, now: Date): Promise<number> {
  return revokeTokensMintedByTrust(db, trustId, now);
}

/** Composer's door records a token's use at most once a minute: a write only when the last one is older. */
export async function recordHolderTokenUse(db: TokenWriter, tokenId: string, now: Date): Promise<void> {
  await markHolderTokenUsed(db, tokenId, now, new Date(now.getTime() - 60_000));
}

/** The token's row while it opens Composer (not revoked, not past its expiry or overlap); undefined otherwise. */
export function findLiveHolderToken(
  db: Pick<Database, 'select'>,
  token: string,
  now: Date,
): Promise<HolderTokenRow | undefined> {
  return findLiveHolderTokenByHash(db, sha256Hex(token), now);
}
