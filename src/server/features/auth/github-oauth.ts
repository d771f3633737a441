import type { Config } from '../../config.js';

// GitHub's OAuth web flow and the two REST calls sign-in needs. Both base URLs come from config, so the
// same code serves github.com and GitHub Enterprise Server (`https://ghe.example.com` + `/api/v3`).

export type GithubSettings = NonNullable<Config['github']>;

/**
 * Sign-in asks only who the seller is (issue 30): code is read through a code-host connection (the GitHub App's
 * installation tokens), never through a sign-in grant with the `repo` scope.
 */
export const GITHUB_SCOPES = ['read:user', 'user:email'] as const;

const REQUEST_TIMEOUT_MS = 10_000;

export type GithubIdentity = {
  id: number;
  login: string;
  name: string | null;
  avatarUrl: string | null;
  /** The primary verified address; null when GitHub has none verified. */
  email: string | null;
  accessToken: string;
  /** As GitHub granted them, comma-separated (e.g. `read:user,repo,user:email`). */
  scopes: string;
};

/** A failure talking to GitHub; its message is safe to log (never carries the code or the token). */
export class GithubOAuthError extends Error {}

export function authorizeUrl(github: GithubSettings, options: { redirectUri: string; state: string }): string {
  const url = new URL(`${github.webUrl}/login/oauth/authorize`);
  url.searchParams.set('client_id', github.clientId);
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('scope', GITHUB_SCOPES.join(' '));
  url.searchParams.set('state', options.state);
  return url.toString();
}

/** Exchanges the callback's code for a token and reads who it belongs to. */
export async function fetchGithubIdentity(
  github: GithubSettings,
  options: { code: string; redirectUri: string },
): Promise<GithubIdentity> {
  const grant = await exchangeCode(github, options);
  const userResponse = await githubApi(github, '/user', grant.accessToken);
  const profile = (await userResponse.json()) as {
    id?: number;
    login?: string;
    name?: string | null;
    avatar_url?: string | null;
  };
  if (typeof profile.id !== 'number' || typeof profile.login !== 'string') {
    throw new GithubOAuthError('GitHub answered /user without an id and login');
  }
  const scopes = grant.scopes || userResponse.headers.get('x-oauth-scopes')?.replace(/\s+/g, '') || '';
  return {
    id: profile.id,
    login: profile.login,
    name: profile.name || null,
    avatarUrl: profile.avatar_url || null,
    email: await primaryVerifiedEmail(github, grant.accessToken),
    accessToken: grant.accessToken,
    scopes,
  };
}

async function exchangeCode(
  github: GithubSettings,
  options: { code: string; redirectUri: string },
): Promise<{ accessToken: string; scopes: string }> {
  const response = await request(`${github.webUrl}/login/oauth/access_token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: github.clientId,
      client_secret: github.clientSecret,
      code: options.code,
      redirect_uri: options.redirectUri,
    }),
  });
  if (!response.ok) throw new GithubOAuthError(`GitHub token exchange answered ${response.status}`);
  // GitHub reports a bad code with 200 and an `error` field.
  const body = (await response.json()) as { access_token?: string; scope?: string; error?: string };
  if (body.error || !body.access_token) {
    throw new GithubOAuthError(`GitHub token exchange refused: ${body.error ?? 'no access_token'}`);
  }
  return { accessToken: body.access_token, scopes: (body.scope ?? '').replace(/\s+/g, '') };
}

async function primaryVerifiedEmail(github: GithubSettings, accessToken: string): Promise<string | null> {
  const response = await githubApi(github, '/user/emails', accessToken, { allowFailure: true });
  if (!response.ok) return null;
  const emails = (await response.json()) as Array<{ email: string; primary: boolean; verified: boolean }>;
  if (!Array.isArray(emails)) return null;
  const verified = emails.filter((entry) => entry.verified);
  return (verified.find((entry) => entry.primary) ?? verified[0])?.email ?? null;
}

async function githubApi(
  github: GithubSettings,
  pathname: string,
  accessToken: string,
  options: { allowFailure?: boolean } = {},
): Promise<Response> {
  const response = await request(`${github.apiUrl}${pathname}`, {
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${accessToken}`,
      'x-github-api-version': '2022-11-28',
    },
  });
  if (!response.ok && !options.allowFailure) {
    throw new GithubOAuthError(`GitHub ${pathname} answered ${response.status}`);
  }
  return response;
}

async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, {
      ...init,
      headers: { 'user-agent': 'Packgate', ...init.headers },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new GithubOAuthError(`GitHub could not be reached at ${new URL(url).origin}: ${(error as Error).message}`);
  }
}
