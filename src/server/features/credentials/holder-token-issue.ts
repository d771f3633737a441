import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { type HolderTokenKind, holderTokens } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { generateHolderToken, holderTokenHint } from '../../lib/holder-token-format.js';

// Issuing a license holder's Composer token (issue 32): the one place a holder_tokens row is born, whoever asks (a
// sale or a new license, the holder in the portal, the seller on API v1, an OIDC exchange). Only the SHA-256 is kept,
// the same hash the Composer door computes from the token it receives; the token itself is answered once.

export type HolderTokenRow = typeof holderTokens.$inferSelect;
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
  const [row] = await db
    .insert(holderTokens)
    .values({
      customerId: input.customerId,
      name: input.name,
      kind: input.kind,
      tokenHash: sha256Hex(token),
      tokenHint: holderTokenHint(token),
      createdBy: input.createdBy,
      expiresAt: input.expiresAt ?? null,
      oidcTrustId: input.oidcTrustId ?? null,
      createdAt: ctx.clock.now(),
    })
    .returning();
  if (!row) throw new Error('The new holder token was not written');
  return { token, row };
}
