import { randomBytes } from 'node:crypto';
import type { SignInErrorCode } from '../../../contract/auth.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { appUrl } from '../../http/public-urls.js';
import { encryptSecret, openSignedJson, safeEqual, signJson } from '../../lib/crypto.js';
import {
  createUser,
  findUserByEmail,
  findUserByGithubId,
  findUserById,
  type NewUser,
  type User,
  updateUser,
} from '../users/users.service.js';
import { authorizeUrl, fetchGithubIdentity, type GithubIdentity, GithubOAuthError } from './github-oauth.js';

/** The OAuth `state` and the chosen tier wait in this cookie while the browser is at GitHub. */
export const OAUTH_STATE_COOKIE = 'packgate_github_oauth';
export const OAUTH_STATE_COOKIE_PATH = '/api/auth/github';
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

type OAuthState = { state: string; tier?: string; expiresAt: number };

export function githubCallbackUrl(ctx: AppContext): string {
  return appUrl(ctx.config, '/api/auth/github/callback');
}

/** Where to send the browser to sign in with GitHub, and the cookie value that proves it started here. */
export function beginGithubSignIn(ctx: AppContext, tier: string | undefined): { redirectTo: string; cookie: string } {
  const github = ctx.config.github;
  if (!github) throw new Error('GitHub sign-in is not configured');
  const state = randomBytes(24).toString('base64url');
  const payload: OAuthState = { state, tier, expiresAt: ctx.clock.now().getTime() + OAUTH_STATE_TTL_MS };
  return {
    redirectTo: authorizeUrl(github, { redirectUri: githubCallbackUrl(ctx), state }),
    cookie: sealState(ctx, payload),
  };
}

export type GithubSignInResult = { ok: true; user: User } | { ok: false; reason: SignInErrorCode };

/**
 * Finishes the OAuth web flow: checks `state` against the cookie (a callback this browser did not start is
 * refused), exchanges the code, and creates or updates the seller. A signed-in user (not impersonating)
 * connects GitHub to their own account instead of signing in as someone else.
 */
export async function completeGithubSignIn(
  ctx: AppContext,
  input: {
    code?: string;
    state?: string;
    error?: string;
    stateCookie?: string;
    signedInUserId?: string;
  },
): Promise<GithubSignInResult> {
  const github = ctx.config.github;
  if (!github) return { ok: false, reason: 'github_failed' };
  const expected = input.stateCookie ? unsealState(ctx, input.stateCookie) : undefined;
  if (!expected || !input.state || !safeEqual(expected.state, input.state)) {
    return { ok: false, reason: 'github_state' };
  }
  if (input.error) return { ok: false, reason: 'github_denied' };
  if (!input.code) return { ok: false, reason: 'github_failed' };

  let identity: GithubIdentity;
  try {
    identity = await fetchGithubIdentity(github, { code: input.code, redirectUri: githubCallbackUrl(ctx) });
  } catch (error) {
    if (!(error instanceof GithubOAuthError)) throw error;
    ctx.log.warn({ reason: error.message }, 'GitHub sign-in failed');
    return { ok: false, reason: 'github_failed' };
  }

  try {
    return await saveGithubIdentity(ctx, identity, expected.tier, input.signedInUserId);
  } catch (error) {
    // Two callbacks for the same new account raced; the second finds the first one's row.
    if (!isUniqueViolation(error, 'users_github_id_unique') && !isUniqueViolation(error, 'users_email_unique'))
      throw error;
    return saveGithubIdentity(ctx, identity, expected.tier, input.signedInUserId);
  }
}

async function saveGithubIdentity(
  ctx: AppContext,
  identity: GithubIdentity,
  tier: string | undefined,
  signedInUserId: string | undefined,
): Promise<GithubSignInResult> {
  const byGithubId = await findUserByGithubId(ctx, identity.id);
  let target: User | undefined;
  if (signedInUserId) {
    target = await findUserById(ctx, signedInUserId);
    if (byGithubId && target && byGithubId.id !== target.id) return { ok: false, reason: 'github_account_conflict' };
  }
  if (!target) target = byGithubId;
  if (!target && identity.email) {
    target = await findUserByEmail(ctx, identity.email);
    // The address belongs to an account tied to a different GitHub user: never merge the two silently.
    if (target?.githubId && target.githubId !== identity.id) return { ok: false, reason: 'github_account_conflict' };
  }

  const githubFields: NewUser = {
    userType: target?.userType ?? 'seller',
    githubId: identity.id,
    githubUsername: identity.login,
    displayName: identity.name,
    avatarUrl: identity.avatarUrl,
    githubAccessTokenEncrypted: encryptSecret(ctx.config.secretKey, identity.accessToken),
    githubScopes: identity.scopes,
    ...(tier ? { selectedTier: tier } : {}),
  };
  if (!target) return { ok: true, user: await createUser(ctx, { ...githubFields, email: identity.email }) };

  const email = (await shouldAdoptGithubEmail(ctx, target, identity.email)) ? identity.email : undefined;
  return { ok: true, user: await updateUser(ctx, target.id, { ...githubFields, ...(email ? { email } : {}) }) };
}

// GitHub's primary verified address follows the seller's changes there, unless another account holds it.
// An admin's address is the key to the admin login, so it only changes from the command line.
async function shouldAdoptGithubEmail(ctx: AppContext, user: User, email: string | null): Promise<boolean> {
  if (!email || email.toLowerCase() === user.email?.toLowerCase()) return false;
  if (user.userType === 'admin' && user.email) return false;
  const holder = await findUserByEmail(ctx, email);
  return !holder || holder.id === user.id;
}

function sealState(ctx: AppContext, payload: OAuthState): string {
  return signJson(ctx.config.secretKey, 'github-oauth-state', payload);
}

function unsealState(ctx: AppContext, cookie: string): OAuthState | undefined {
  const payload = openSignedJson(ctx.config.secretKey, 'github-oauth-state', cookie) as Partial<OAuthState> | undefined;
  if (typeof payload?.state !== 'string' || typeof payload.expiresAt !== 'number') return undefined;
  return payload.expiresAt > ctx.clock.now().getTime() ? (payload as OAuthState) : undefined;
}
