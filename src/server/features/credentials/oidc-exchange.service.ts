import {
  normalizeIssuer,
  OIDC_TOKEN_LIFETIME_MINUTES,
  type OidcExchangeResponse,
  subjectMatches,
} from '../../../contract/oidc-trusts.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { RequestHost } from '../../http/hosts.js';
import { sha256Hex } from '../../lib/crypto.js';
import { findHostSeller } from '../users/users.service.js';
import { issueHolderToken } from './holder-token-issue.js';
import { CLOCK_TOLERANCE_SECONDS, readUnverified, shown, type VerifiedJobToken, verifyJobToken } from './oidc-jwt.js';
import { oidcKeyStore } from './oidc-keys.js';
import {
  deleteExpiredTokenUses,
  insertTokenUseOnce,
  markTrustUsed,
  type OidcTrustRow,
  selectSellersTrustsOfIssuer,
} from './oidc-trusts.repository.js';

// The exchange (issue 32 item 3): a CI job posts its OIDC token to its seller's repository host and gets a
// read-only Composer token for the license holder whose trusted CI identity the token matches. Only the trusts of
// this seller's holders are considered, and only an issuer one of them names is ever asked for keys, so a made-up
// `iss` sends the server nowhere. Every refusal comes before anything is written.
//
// The Composer token lives OIDC_TOKEN_LIFETIME_MINUTES from the exchange, whatever the job token's own `exp`: job
// tokens are minted to be traded at once and often expire within minutes, while an install may run longer; the
// job token proves who asks at the moment of the exchange, and the short, fixed lifetime bounds what a leaked
// Composer token is worth. It is kind `ci`, so it takes no seat, and it can only read (the repository has no writes).

type Trust = OidcTrustRow;

const LIFETIME_MS = OIDC_TOKEN_LIFETIME_MINUTES * 60_000;
const NAME_MAX = 100;

function refused(message: string, suggestion?: string): AppError {
  return new AppError('UNAUTHENTICATED', message, suggestion ? { suggestion } : {});
}

async function getHostSellerId(ctx: AppContext, host: RequestHost): Promise<{ id: string; slug: string }> {
  const seller = await findHostSeller(ctx, host);
  if (!seller) {
    throw new AppError('BAD_REQUEST', "Exchange the CI job's token on your seller's repository host.", {
      suggestion:
        'Use the repository URL from your license e-mail: https://{seller}.{repository domain}/api/composer/oidc-token',
    });
  }
  return seller;
}

/** The trusts of the seller's holders that name this issuer. */
function trustsOfIssuer(ctx: AppContext, sellerId: string, issuer: string): Promise<Trust[]> {
  return selectSellersTrustsOfIssuer(ctx.db, sellerId, issuer);
}

/** The one holder's trust the verified token satisfies: exact subjects before wildcards; several holders → refused. */
function chooseTrust(candidates: Trust[], token: VerifiedJobToken): Trust {
  const forAudience = candidates.filter((trust) => token.audiences.includes(trust.audience));
  if (forAudience.length === 0) {
    throw refused(
      `The token's audience (${shown(token.audiences.join(', '))}) is not the audience of any CI identity trusted for ${token.issuer}.`,
      'Request the job token with the audience shown beside the trusted CI identity in the license portal.',
    );
  }
  const matching = forAudience.filter((trust) => subjectMatches(trust.subject, token.subject));
  if (matching.length === 0) {
    throw refused(
      `The token's subject (${shown(token.subject)}) matches no CI identity trusted for ${token.issuer} with this audience.`,
      'Compare the subject of the trusted CI identity with the repository, branch or environment the job runs for.',
    );
  }
  if (new Set(matching.map((trust) => trust.customerId)).size > 1) {
    throw new AppError(
      'BAD_REQUEST',
      'This token matches CI identities of more than one license holder, so it cannot tell whose license to use.',
      { suggestion: 'Ask the seller to make the holders’ subjects or audiences distinct.' },
    );
  }
  return matching.find((trust) => !trust.subject.endsWith('*')) ?? matching[0]!;
}

/** What identifies one job token for the replay check: issuer and jti when it has one, else the whole token. */
function useKey(token: VerifiedJobToken, jwt: string): string {
  return sha256Hex(token.jti ? `${token.issuer}\n${token.jti}` : jwt);
}

/** POST /api/composer/oidc-token: verifies the job token and answers a Composer token for the matching holder. */
export async function exchangeOidcToken(
  ctx: AppContext,
  host: RequestHost,
  jwt: string,
): Promise<OidcExchangeResponse> {
  const seller = await getHostSellerId(ctx, host);
  const issuer = normalizeIssuer(readUnverified(jwt).issuer);
  const candidates = await trustsOfIssuer(ctx, seller.id, issuer);
  if (candidates.length === 0) {
    throw refused(
      `No license holder of this repository trusts CI identities from the issuer ${shown(issuer)}.`,
      'Add the CI identity in the license portal (Trusted CI identities), with this exact issuer URL.',
    );
  }
  const now = ctx.clock.now();
  const verified = await verifyJobToken(jwt, issuer, oidcKeyStore(ctx).keyGetter(issuer), now);
  const trust = chooseTrust(candidates, verified);
  const expiresAt = new Date(now.getTime() + LIFETIME_MS);
  return ctx.db.transaction(async (tx) => {
    // Uses whose job token has expired can never be replayed: dropping them keeps the table small.
    await deleteExpiredTokenUses(tx, now);
    const isFirstUse = await insertTokenUseOnce(tx, {
      tokenHash: useKey(verified, jwt),
      trustId: trust.id,
      expiresAt: new Date((verified.exp + CLOCK_TOLERANCE_SECONDS) * 1000),
      usedAt: now,
    });
    if (!isFirstUse) {
      throw refused('This job token has already been exchanged: each one works once.', 'Request a new job token.');
    }
    await markTrustUsed(tx, trust.id, now);
    const { token } = await issueHolderToken(ctx, tx, {
      customerId: trust.customerId,
      name: `CI: ${trust.name}`.slice(0, NAME_MAX),
      kind: 'ci',
      expiresAt,
      createdBy: 'oidc',
      oidcTrustId: trust.id,
    });
    return { token, expiresAt: expiresAt.toISOString() };
  });
}
