import { createHash, randomBytes } from 'node:crypto';
import { CodeHostError } from './code-host.js';
import { callHostApi, hostApiError, okJson, parseJson, withoutTrailingSlashes } from './host-api.js';

// GitLab's OAuth 2 authorization code flow with PKCE (docs.gitlab.com: "OAuth 2.0 identity provider API") and the
// look-ups that validate a pasted access token. Access tokens from OAuth last two hours (`expires_in` 7200); each
// refresh returns a new refresh token and retires the old one, so the newest must be stored every time.

const HOST = 'GitLab';
/** Read the code and its metadata; nothing else. */
export const GITLAB_OAUTH_SCOPES = ['read_api', 'read_repository'] as const;

export type GitlabTokens = {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops working, from `created_at` + `expires_in` (or now + `expires_in`). */
  expiresAt: Date;
  scopes: string[];
};

export type GitlabOAuthClient = { baseUrl: string; clientId: string; clientSecret: string };

function trimmed(baseUrl: string): string {
  return withoutTrailingSlashes(baseUrl);
}

/** A PKCE verifier and its S256 challenge. */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function gitlabAuthorizeUrl(
  client: GitlabOAuthClient,
  options: { redirectUri: string; state: string; codeChallenge: string },
): string {
  const query = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    state: options.state,
    scope: GITLAB_OAUTH_SCOPES.join(' '),
    code_challenge: options.codeChallenge,
    code_challenge_method: 'S256',
  });
  return `${trimmed(client.baseUrl)}/oauth/authorize?${query.toString()}`;
}

/** Trades the callback's code for tokens; UNAUTHORIZED when GitLab refuses the code. */
export function exchangeGitlabCode(
  client: GitlabOAuthClient,
  options: { code: string; redirectUri: string; codeVerifier: string },
  now: Date,
): Promise<GitlabTokens> {
  return requestTokens(
    client,
    {
      grant_type: 'authorization_code',
      code: options.code,
      redirect_uri: options.redirectUri,
      code_verifier: options.codeVerifier,
    },
    now,
  );
}

/** Trades the refresh token for new tokens (the old refresh token stops working); UNAUTHORIZED when refused. */
export function refreshGitlabTokens(client: GitlabOAuthClient, refreshToken: string, now: Date): Promise<GitlabTokens> {
  return requestTokens(client, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);
}

async function requestTokens(
  client: GitlabOAuthClient,
  grant: Record<string, string>,
  now: Date,
): Promise<GitlabTokens> {
  const answer = await callHostApi({
    host: HOST,
    url: `${trimmed(client.baseUrl)}/oauth/token`,
    method: 'POST',
    form: { ...grant, client_id: client.clientId, client_secret: client.clientSecret },
  });
  // RFC 6749 5.2: a refused grant is 400 invalid_grant; a wrong client is 401 invalid_client.
  if (answer.status === 400 || answer.status === 401) {
    throw new CodeHostError(
      'UNAUTHORIZED',
      'GitLab refused to renew access: the authorization was revoked or expired.',
    );
  }
  const data = okJson<{
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
    created_at?: unknown;
    scope?: unknown;
  }>(HOST, answer);
  if (typeof data.access_token !== 'string' || typeof data.refresh_token !== 'string') {
    throw new CodeHostError('UNAVAILABLE', 'GitLab answered the token request without tokens.');
  }
  const lifetimeSeconds = typeof data.expires_in === 'number' && data.expires_in > 0 ? data.expires_in : 7200;
  return {
    accessToken: data.access_token,
    refreshToken: data.refresh_token,
    // Counted from our clock, not GitLab's `created_at`: a skewed host clock must not make us refresh late.
    expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
    scopes: typeof data.scope === 'string' ? data.scope.split(/\s+/).filter(Boolean) : [...GITLAB_OAUTH_SCOPES],
  };
}

export type GitlabIdentity = { id: string; username: string; name: string | null; isBot: boolean };

/** Who the token reads as (GET /user); UNAUTHORIZED when GitLab refuses it. */
export async function fetchGitlabIdentity(baseUrl: string, token: string): Promise<GitlabIdentity> {
  const answer = await callHostApi({ host: HOST, url: `${trimmed(baseUrl)}/api/v4/user`, token });
  const user = okJson<{ id?: unknown; username?: unknown; name?: unknown; bot?: unknown }>(HOST, answer);
  if (typeof user.id !== 'number' || typeof user.username !== 'string') {
    throw new CodeHostError('UNAVAILABLE', 'GitLab answered the user request oddly.');
  }
  return {
    id: String(user.id),
    username: user.username,
    name: typeof user.name === 'string' ? user.name : null,
    isBot: user.bot === true,
  };
}

export type GitlabTokenDetails = { name: string | null; scopes: string[]; expiresAt: Date | null };

/**
 * What GitLab says of a personal, project or group access token (GET /personal_access_tokens/self): its scopes
 * and expiry. Undefined when the instance does not answer it (older than 15.5, or an OAuth token).
 */
export async function fetchGitlabTokenDetails(baseUrl: string, token: string): Promise<GitlabTokenDetails | undefined> {
  const answer = await callHostApi({
    host: HOST,
    url: `${trimmed(baseUrl)}/api/v4/personal_access_tokens/self`,
    token,
  });
  if (answer.status === 401) throw hostApiError(HOST, answer);
  if (answer.status !== 200) return undefined;
  const data = parseJson<{ name?: unknown; scopes?: unknown; expires_at?: unknown }>(HOST, answer);
  const scopes = Array.isArray(data.scopes) ? data.scopes.filter((scope) => typeof scope === 'string') : [];
  // `expires_at` is a date (YYYY-MM-DD): GitLab retires the token at midnight UTC that day.
  const expiresAt =
    typeof data.expires_at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(data.expires_at)
      ? new Date(`${data.expires_at}T00:00:00Z`)
      : null;
  return { name: typeof data.name === 'string' ? data.name : null, scopes: scopes as string[], expiresAt };
}
