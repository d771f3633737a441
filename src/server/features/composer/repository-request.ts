import { OIDC_EXCHANGE_PATH } from '../../../contract/oidc-trusts.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { SellerSelector } from '../../http/hosts.js';
import { hostUrl, repositoryHostname } from '../../http/public-urls.js';
import { type ErrorFacts, errorCodes } from '../../lib/app-error.js';
import { createBoundedMemo } from '../../lib/bounded-memo.js';
import { sha256Hex } from '../../lib/crypto.js';
import { recordHolderTokenUse } from '../credentials/holder-tokens.service.js';
import { findTokenView, type TokenView } from './access-view.repository.js';
import { tokenStanding } from './token-standing.js';

// Who asks the Composer repository, and the refusals the metadata and dist services share. Unknown tokens get 401
// (Composer then asks for, or reports, credentials); a package the token does not license is simply not there (404),
// whichever seller's it is, so that no host reveals another seller's names.

/** One request to a seller's repository host (or the bare COMPOSER_DOMAIN). */
export type RepositoryRequest = {
  seller: SellerSelector | undefined;
  token: string | undefined;
  /** `acme.composer.localhost:5000`: what `composer config bearer.{host}` needs, for messages. */
  authHost: string;
  /** `http://acme.composer.localhost:5000`: dist URLs sit on the host Composer sends the token to. */
  baseUrl: string;
  /** The client's address (request.ip, TRUST_PROXY-aware): only its /24 or /48 is stored with a download. */
  clientAddress?: string;
  /** sha256 of `token`, when the caller has already computed it (the fast path looks the view up first). */
  tokenHash?: string;
};

/**
 * How to get in, for a 401 (issue 32 item 5): the credential types this host accepts and where a holder finds one.
 * URLs name the request's host as configuration builds it, never a header.
 */
function credentialHelp(request: RepositoryRequest): string {
  const where = request.seller
    ? `Your token is in your license e-mail, or create one in the license portal: ${request.baseUrl}/portal`
    : "Your token is in your license e-mail, or create one in your seller's license portal";
  return `Run: composer config bearer.${request.authHost} <your token> (HTTP basic works too: the token as the password, any user name; a CI job can trade its OIDC token at POST ${request.baseUrl}${OIDC_EXCHANGE_PATH}). ${where}.`;
}

/** The request's token, or 401 with WWW-Authenticate so that Composer sends (or asks for) its credential. */
export function requireToken(request: RepositoryRequest): string {
  if (request.token) return request.token;
  throw new AppError('UNAUTHENTICATED', 'This Composer repository needs the token from your license e-mail.', {
    suggestion: credentialHelp(request),
    headers: { 'www-authenticate': 'Basic realm="Packgate"' },
  });
}

function unknownToken(request: RepositoryRequest): AppError {
  return new AppError(
    'UNAUTHENTICATED',
    'This token is not valid for this repository: it may have been replaced by a newer one.',
    {
      suggestion: credentialHelp(request),
      headers: { 'www-authenticate': 'Basic realm="Packgate"' },
    },
  );
}

/** An unknown or unlicensed package: one plain 404 for both, so that nothing tells them apart. */
const notLicensedMessage = (packageName: string) =>
  `${packageName} was not found in this repository, or your license does not include it.`;

export function notLicensed(packageName: string): AppError {
  return new AppError('NOT_FOUND', notLicensedMessage(packageName));
}

/**
 * notLicensed's facts without the Error (the warm path's quiet 404 spent a quarter of its time capturing a stack),
 * made once per package name asked for lately and shared (frozen): composer-responses.ts keeps the body serialized
 * per facts (issue 34).
 */
const notLicensedFactsByName = createBoundedMemo(
  1024,
  (packageName: string): ErrorFacts =>
    Object.freeze({ code: 'NOT_FOUND', ...errorCodes.NOT_FOUND, message: notLicensedMessage(packageName) }),
);

export function notLicensedFacts(packageName: string): ErrorFacts {
  return notLicensedFactsByName.get(packageName);
}

/** The token's own refusal (revoked, past its expiry or its rotation's overlap): 401, so Composer asks anew. */
export function tokenRefusal(refused: { message: string; suggestion: string }): AppError {
  return new AppError('UNAUTHENTICATED', refused.message, {
    suggestion: refused.suggestion,
    headers: { 'www-authenticate': 'Basic realm="Packgate"' },
  });
}

/** How often a token's last use is written at most (recordHolderTokenUse keeps the same minute in the database). */
const TOKEN_USE_RESOLUTION_MS = 60_000;

/** When each held view last wrote its token's last use: at most once a minute per process (and per database). */
const lastUseWrittenAt = new WeakMap<TokenView, number>();

/**
 * Records that the token was used, at most once a minute, without waiting for it: the answer never waits on this
 * write, and a failed write loses a hint, nothing else.
 */
export function noteTokenUse(ctx: AppContext, view: TokenView, now: Date = ctx.clock.now()): void {
  const { tokenId } = view.token;
  const last = lastUseWrittenAt.get(view) ?? view.token.lastUsedAt?.getTime();
  if (last !== undefined && now.getTime() - last < TOKEN_USE_RESOLUTION_MS) return;
  lastUseWrittenAt.set(view, now.getTime());
  recordHolderTokenUse(ctx.db, tokenId, now).catch((error: unknown) => {
    ctx.log.warn({ err: error }, "a Composer token's last use could not be recorded");
  });
}

/**
 * What the token may see: held by the process while its change feed vouches for it, else read (one statement) and
 * kept. Never a verdict on the licenses: the callers decide from these facts at the request's time. The token's own
 * state is decided here, at the request's time: a revoked or expired token is refused (401).
 */
export async function loadTokenView(ctx: AppContext, request: RepositoryRequest): Promise<TokenView> {
  const tokenHash = request.tokenHash ?? sha256Hex(requireToken(request));
  const cache = ctx.composerAccess;
  let view = cache.findView(tokenHash);
  if (!view) {
    const ticket = cache.ticket();
    view = await findTokenView(ctx.db, tokenHash);
    if (!view) throw unknownToken(request);
    cache.keepView(ticket, tokenHash, view);
  }
  const standing = tokenStanding(view.token, ctx.clock.now(), request.authHost);
  if (standing.kind === 'refused') throw tokenRefusal(standing);
  noteTokenUse(ctx, view);
  return view;
}

/** Whether the request's host belongs to the token's seller; the bare COMPOSER_DOMAIN accepts any seller. */
export function isOnHost(view: TokenView, request: RepositoryRequest): boolean {
  return request.seller === undefined || request.seller.slug === view.sellerSlug;
}

/**
 * Where a holder upgrades a license: the license portal on the seller's repository host (the host of the request when
 * it is the seller's own, else `{slug}.{COMPOSER_DOMAIN}`), built from configuration, never from a header.
 */
export function upgradeUrl(ctx: AppContext, view: TokenView, request: RepositoryRequest): string {
  const base =
    request.seller === undefined
      ? hostUrl(ctx.config, repositoryHostname(ctx.config, { slug: view.sellerSlug }))
      : request.baseUrl;
  return `${base}/portal`;
}
