import { randomBytes } from 'node:crypto';
import { CodeHostError } from '../../adapters/codehost/code-host.js';
import {
  createPkcePair,
  exchangeGitlabCode,
  fetchGitlabIdentity,
  fetchGitlabTokenDetails,
  GITLAB_OAUTH_SCOPES,
  gitlabAuthorizeUrl,
} from '../../adapters/codehost/gitlab-auth.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { appUrl } from '../../http/public-urls.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';
import type { CodeHostConnection } from './connection-driver.js';
import { gitlabOAuthClient } from './gitlab-driver.js';
import { assertReachableHostUrl } from './host-url.js';
import { saveConnection } from './save-connection.js';

// Connecting GitLab: through OAuth (the instance of GITLAB_URL, when an application is registered there) or with a
// project/group access token the seller pastes, for gitlab.com or a self-managed instance. Either way Packgate calls
// GitLab before storing anything, so a connection that exists has worked at least once.

export const GITLAB_CALLBACK_PATH = '/api/code-hosts/gitlab/callback';
const OAUTH_STATE_TTL_MS = 10 * 60_000;

/** What the state cookie carries between the start and the callback: sealed, so the PKCE verifier stays secret. */
type OAuthState = { state: string; verifier: string; sellerId: string; personId: string; expiresAt: number };

const tokenRefused = () =>
  new AppError('BAD_REQUEST', 'GitLab refused this token: it is wrong, revoked or expired.', {
    suggestion: 'Create a new project or group access token with the read_api and read_repository scopes and paste it.',
  });

function hostnameOf(baseUrl: string): string {
  return new URL(baseUrl).host;
}

/** Connects (or reconnects) GitLab with a pasted access token, after checking it with GitLab. */
export async function connectGitlabToken(
  ctx: AppContext,
  actor: Principal,
  input: { token: string; baseUrl?: string },
): Promise<CodeHostConnection> {
  const ownerId = actor.sellerId;
  const baseUrl = input.baseUrl ? await assertReachableHostUrl(ctx, input.baseUrl, 'baseUrl') : ctx.config.gitlab.url;
  let identity: Awaited<ReturnType<typeof fetchGitlabIdentity>>;
  let details: Awaited<ReturnType<typeof fetchGitlabTokenDetails>>;
  try {
    identity = await fetchGitlabIdentity(baseUrl, input.token);
    details = await fetchGitlabTokenDetails(baseUrl, input.token);
  } catch (error) {
    if (error instanceof CodeHostError && error.code === 'UNAUTHORIZED') throw tokenRefused();
    if (error instanceof CodeHostError) {
      throw new AppError('BAD_REQUEST', `${error.message} Check the GitLab address (baseUrl).`);
    }
    throw error;
  }
  const scopes = details?.scopes ?? [];
  if (details && !canReadCode(scopes)) {
    throw new AppError(
      'BAD_REQUEST',
      `This token has the scopes ${scopes.join(', ') || 'none'}; Packgate needs read_api and read_repository.`,
      { suggestion: 'Create a token with the read_api and read_repository scopes (and the Reporter role).' },
    );
  }
  const isDefaultInstance = baseUrl === ctx.config.gitlab.url;
  const who = identity.isBot ? (details?.name ? `token ${details.name}` : 'access token') : identity.username;
  return saveConnection(ctx, actor, {
    ownerId,
    kind: 'gitlab',
    label: `${who} on ${hostnameOf(baseUrl)}`,
    authMethod: 'access_token',
    baseUrl: isDefaultInstance ? null : baseUrl,
    externalId: identity.id,
    accountName: identity.username,
    secretEncrypted: encryptSecret(ctx.config.secretKey, input.token),
    refreshTokenEncrypted: null,
    tokenExpiresAt: details?.expiresAt ?? null,
    scopes: scopes.length > 0 ? scopes.join(' ') : null,
    createdById: actor.person?.id ?? null,
  });
}

/** A token that can read projects and clone them; `api` includes both. */
function canReadCode(scopes: string[]): boolean {
  const has = (scope: string) => scopes.includes(scope) || scopes.includes('api');
  return has('read_api') && has('read_repository');
}

/** Where to send the browser to grant Packgate read access on GitLab, and the sealed state for the cookie. */
export function beginGitlabOAuth(
  ctx: AppContext,
  session: { sellerId: string; personId: string },
): { redirectTo: string; cookie: string } {
  const client = gitlabOAuthClient(ctx);
  if (!client) {
    throw new AppError('CONFLICT', 'GitLab sign-in is not configured on this server.', {
      suggestion: 'Connect GitLab with an access token instead, or ask the operator to set GITLAB_CLIENT_ID.',
    });
  }
  const pkce = createPkcePair();
  const state = randomBytes(24).toString('base64url');
  const payload: OAuthState = {
    state,
    verifier: pkce.verifier,
    sellerId: session.sellerId,
    personId: session.personId,
    expiresAt: ctx.clock.now().getTime() + OAUTH_STATE_TTL_MS,
  };
  return {
    redirectTo: gitlabAuthorizeUrl(client, {
      redirectUri: appUrl(ctx.config, GITLAB_CALLBACK_PATH),
      state,
      codeChallenge: pkce.challenge,
    }),
    cookie: encryptSecret(ctx.config.secretKey, JSON.stringify(payload)),
  };
}

/**
 * Finishes the OAuth flow: the state must match the cookie this browser got at the start, for this same seller and
 * person (a callback started elsewhere is refused), then the code becomes tokens and the connection is stored.
 */
export async function finishGitlabOAuth(
  ctx: AppContext,
  actor: Principal,
  session: { sellerId: string; personId: string },
  input: { code?: string; state?: string; error?: string; cookie?: string },
): Promise<CodeHostConnection> {
  const expected = input.cookie ? readState(ctx, input.cookie) : undefined;
  if (
    !expected ||
    !input.state ||
    expected.state !== input.state ||
    expected.sellerId !== session.sellerId ||
    expected.personId !== session.personId ||
    expected.expiresAt < ctx.clock.now().getTime()
  ) {
    throw new AppError('BAD_REQUEST', 'This GitLab authorization was not started here, or took too long.', {
      suggestion: 'Click Connect GitLab again on Code hosts.',
    });
  }
  if (input.error || !input.code) {
    throw new AppError('BAD_REQUEST', 'GitLab did not grant access.', {
      suggestion: 'Click Connect GitLab again and choose Authorize.',
    });
  }
  const client = gitlabOAuthClient(ctx)!;
  let tokens: Awaited<ReturnType<typeof exchangeGitlabCode>>;
  let identity: Awaited<ReturnType<typeof fetchGitlabIdentity>>;
  try {
    tokens = await exchangeGitlabCode(
      client,
      { code: input.code, redirectUri: appUrl(ctx.config, GITLAB_CALLBACK_PATH), codeVerifier: expected.verifier },
      ctx.clock.now(),
    );
    identity = await fetchGitlabIdentity(client.baseUrl, tokens.accessToken);
  } catch (error) {
    if (error instanceof CodeHostError) {
      throw new AppError('BAD_REQUEST', `${error.message}`, {
        suggestion: 'Click Connect GitLab again on Code hosts.',
      });
    }
    throw error;
  }
  return saveConnection(ctx, actor, {
    ownerId: session.sellerId,
    kind: 'gitlab',
    label: `${identity.username} on ${hostnameOf(client.baseUrl)}`,
    authMethod: 'oauth',
    baseUrl: null,
    externalId: identity.id,
    accountName: identity.username,
    secretEncrypted: encryptSecret(ctx.config.secretKey, tokens.accessToken),
    refreshTokenEncrypted: encryptSecret(ctx.config.secretKey, tokens.refreshToken),
    tokenExpiresAt: tokens.expiresAt,
    scopes: (tokens.scopes.length > 0 ? tokens.scopes : [...GITLAB_OAUTH_SCOPES]).join(' '),
    createdById: actor.person?.id ?? null,
  });
}

function readState(ctx: AppContext, cookie: string): OAuthState | undefined {
  try {
    const payload = JSON.parse(decryptSecret(ctx.config.secretKey, cookie)) as Partial<OAuthState>;
    if (
      typeof payload.state !== 'string' ||
      typeof payload.verifier !== 'string' ||
      typeof payload.sellerId !== 'string' ||
      typeof payload.personId !== 'string' ||
      typeof payload.expiresAt !== 'number'
    ) {
      return undefined;
    }
    return payload as OAuthState;
  } catch {
    return undefined;
  }
}
