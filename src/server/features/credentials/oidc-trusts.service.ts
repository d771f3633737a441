import {
  OIDC_TRUSTS_PER_HOLDER,
  type OidcTrust,
  type OidcTrustInput,
  oidcTrustMessages,
} from '../../../contract/oidc-trusts.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { revokeTokensOfTrust } from './holder-token-issue.js';
import { findSellersHolderContact } from './holder-tokens.repository.js';
import { checkIssuerAddress, IssuerFetchError } from './oidc-http.js';
import { issuerAccess } from './oidc-keys.js';
import { parseIssuer } from './oidc-trust-rules.js';
import {
  countTrustsOfHolder,
  deleteTrustOfHolder,
  insertOidcTrust,
  type OidcTrustRow,
  selectTrustsOfHolder,
} from './oidc-trusts.repository.js';

// A holder's trusted CI identities (issue 32 item 3): the holder in the portal, the seller on Management or API
// v1 lists, adds and removes them. Every door names the holder by its customer row; the seller's doors first check
// that the holder is theirs (404 otherwise, as for any id of another seller).

type TrustRow = OidcTrustRow;
export type TrustCreator = TrustRow['createdBy'];

/** How long registering waits on DNS for the issuer's name. */
const ADDRESS_CHECK_MS = 3000;

function present(row: TrustRow): OidcTrust {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    audience: row.audience,
    subject: row.subject,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The seller's holder, or 404: an id of another seller's holder is as unknown as a made-up one. */
async function getSellersHolder(
  ctx: Pick<AppContext, 'db'>,
  sellerId: string,
  customerId: string,
): Promise<{ id: string; sellerId: string }> {
  const holder = await findSellersHolderContact(ctx.db, sellerId, customerId);
  if (!holder) throw new AppError('NOT_FOUND', 'Customer not found');
  return { id: holder.id, sellerId: holder.sellerId };
}

export async function listOidcTrusts(ctx: Pick<AppContext, 'db'>, customerId: string): Promise<OidcTrust[]> {
  const rows = await selectTrustsOfHolder(ctx.db, customerId);
  return rows.map(present);
}

/** The trusted CI identities of the seller's holder `customerId`, as the dashboard and API v1 list them (404 for another seller's). */
export async function listSellersHolderOidcTrusts(
  ctx: Pick<AppContext, 'db'>,
  sellerId: string,
  customerId: string,
): Promise<OidcTrust[]> {
  const holder = await getSellersHolder(ctx, sellerId, customerId);
  return listOidcTrusts(ctx, holder.id);
}

/**
 * The issuer's name must not resolve to a private, loopback or link-local address (unless OIDC_ALLOW_PRIVATE_ISSUERS).
 * A name that does not resolve now, or not in time, is accepted: every key fetch checks the addresses again before
 * connecting, so the rule holds where it matters, and a passing DNS failure does not block the holder.
 */
async function checkIssuerAddressAllowed(ctx: AppContext, issuer: string): Promise<void> {
  try {
    await checkIssuerAddress(new URL(issuer), issuerAccess(ctx), AbortSignal.timeout(ADDRESS_CHECK_MS));
  } catch (error) {
    if (!(error instanceof IssuerFetchError)) throw error;
    if (error.reason === 'not-public') throw new AppError('VALIDATION_FAILED', error.message);
  }
}

/** Adds a trusted CI identity for the holder `customerId` of `actor.sellerId`. */
export async function createOidcTrust(
  ctx: AppContext,
  actor: Principal,
  customerId: string,
  input: OidcTrustInput,
  createdBy: TrustCreator,
): Promise<OidcTrust> {
  const issuer = parseIssuer(input.issuer, { allowHttp: ctx.config.oidcAllowPrivateIssuers });
  await checkIssuerAddressAllowed(ctx, issuer);
  return ctx.db.transaction(async (tx) => {
    await getSellersHolder({ db: tx }, actor.sellerId, customerId);
    if ((await countTrustsOfHolder(tx, customerId)) >= OIDC_TRUSTS_PER_HOLDER)
      throw new AppError('VALIDATION_FAILED', oidcTrustMessages.tooMany);
    const row = await insertOidcTrust(tx, {
      customerId,
      name: input.name,
      issuer,
      audience: input.audience,
      subject: input.subject,
      createdBy,
      createdAt: ctx.clock.now(),
    });
    await recordAuditEvent(tx, ctx, actor, {
      action: 'customer.oidc_trust_created',
      targetType: 'customer',
      targetId: customerId,
      details: { trustId: row.id, name: input.name, issuer, audience: input.audience, subject: input.subject },
    });
    return present(row);
  });
}

/** Removes a trusted CI identity: its next job token is refused; tokens it already gave end by their own expiry. */
export async function deleteOidcTrust(
  ctx: AppContext,
  actor: Principal,
  customerId: string,
  trustId: string,
): Promise<OidcTrust> {
  return ctx.db.transaction(async (tx) => {
    await getSellersHolder({ db: tx }, actor.sellerId, customerId);
    const row = await deleteTrustOfHolder(tx, customerId, trustId);
    if (!row) throw new AppError('NOT_FOUND', oidcTrustMessages.notFound);
    const tokensRevoked = await revokeTokensOfTrust(tx, trustId, ctx.clock.now());
    await recordAuditEvent(tx, ctx, actor, {
      action: 'customer.oidc_trust_deleted',
      targetType: 'customer',
      targetId: customerId,
      details: { trustId, name: row.name, issuer: row.issuer, tokensRevoked },
    });
    return present(row);
  });
}
