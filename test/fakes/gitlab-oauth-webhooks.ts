import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson } from './fake-server.js';

// Two parts of the fake GitLab (gitlab.ts). Its OAuth 2 provider (docs.gitlab.com: "OAuth 2.0 identity provider
// API"): the authorization code flow with PKCE (S256), access tokens that last two hours, and refresh tokens that
// GitLab rotates: each one works once, and the refresh answers a new one. And its webhook deliveries ("Webhook
// events": push and tag push, the secret token sent back verbatim in X-Gitlab-Token).

export type TokenGrant = {
  username: string;
  scopes: string[];
  kind: 'oauth' | 'access_token';
  /** Milliseconds since the epoch by the fake's clock; undefined: never. */
  expiresAt?: number;
  /** Access tokens: the day GitLab reports as expires_at. */
  expiresOn?: string;
  name?: string;
  revoked?: boolean;
};

const OAUTH_TOKEN_SECONDS = 7200;

export type GitlabOAuthState = {
  clientId: string;
  clientSecret: string;
  hasUser(username: string): boolean;
  /** Who approves the next authorization; null answers error=access_denied. */
  approvingUser(): string | null;
  tokens: Map<string, TokenGrant>;
  refreshTokens: Map<string, { username: string; scopes: string[] }>;
  /** Every refresh token presented, in order. */
  refreshes: string[];
  now(): number;
};

export function createGitlabOAuth(provider: GitlabOAuthState) {
  const { clientId, clientSecret, tokens, refreshTokens, refreshes, now } = provider;
  const codes = new Map<string, { username: string; scopes: string[]; redirectUri: string; challenge: string }>();

  function authorize(response: ServerResponse, url: URL) {
    const approvingUser = provider.approvingUser();
    const redirectUri = url.searchParams.get('redirect_uri');
    if (url.searchParams.get('client_id') !== clientId || !redirectUri) {
      return sendJson(response, 400, { error: 'invalid_client' });
    }
    const target = new URL(redirectUri);
    if (approvingUser === null || !provider.hasUser(approvingUser)) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The resource owner or authorization server denied the request.');
    } else {
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        username: approvingUser,
        scopes: (url.searchParams.get('scope') ?? '').split(/\s+/).filter(Boolean),
        redirectUri,
        challenge: url.searchParams.get('code_challenge') ?? '',
      });
      target.searchParams.set('code', code);
    }
    const state = url.searchParams.get('state');
    if (state !== null) target.searchParams.set('state', state);
    response.writeHead(302, { location: target.toString() }).end();
  }

  function issueOAuthTokens(username: string, scopes: string[]) {
    const accessToken = randomBytes(32).toString('hex');
    const refreshToken = randomBytes(32).toString('hex');
    tokens.set(accessToken, { username, scopes, kind: 'oauth', expiresAt: now() + OAUTH_TOKEN_SECONDS * 1000 });
    refreshTokens.set(refreshToken, { username, scopes });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: OAUTH_TOKEN_SECONDS,
      refresh_token: refreshToken,
      scope: scopes.join(' '),
      created_at: Math.floor(now() / 1000),
    };
  }

  function token(response: ServerResponse, body: string) {
    const params = Object.fromEntries(new URLSearchParams(body));
    if (params.client_id !== clientId || params.client_secret !== clientSecret) {
      return sendJson(response, 401, {
        error: 'invalid_client',
        error_description:
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
      });
    }
    const invalidGrant = () =>
      sendJson(response, 400, {
        error: 'invalid_grant',
        error_description:
          'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
      });
    if (params.grant_type === 'authorization_code') {
      const grant = params.code ? codes.get(params.code) : undefined;
      if (!grant || grant.redirectUri !== params.redirect_uri) return invalidGrant();
      const challenge = createHash('sha256')
        .update(params.code_verifier ?? '')
        .digest('base64url');
      if (grant.challenge && challenge !== grant.challenge) return invalidGrant();
      codes.delete(params.code!);
      return sendJson(response, 200, issueOAuthTokens(grant.username, grant.scopes));
    }
    if (params.grant_type === 'refresh_token') {
      const refresh = params.refresh_token ?? '';
      refreshes.push(refresh);
      const grant = refreshTokens.get(refresh);
      if (!grant) return invalidGrant();
      // GitLab rotates: the refresh token just used stops working.
      refreshTokens.delete(refresh);
      return sendJson(response, 200, issueOAuthTokens(grant.username, grant.scopes));
    }
    sendJson(response, 400, { error: 'unsupported_grant_type' });
  }

  return { authorize, token };
}

/** What a delivery needs of a fake project (FakeGitlabProject in gitlab.ts). */
type HookedProject = {
  id: number;
  path: string;
  defaultBranch: string;
  hooks: Array<{ url: string; token?: string; pushEvents: boolean; tagPushEvents: boolean }>;
};

/** Sends a push or tag push event to every hook of the project that wants it, as GitLab does. */
export async function deliverGitlabWebhook(
  baseUrl: string,
  project: HookedProject,
  event: 'Push Hook' | 'Tag Push Hook',
  options: { token?: string; eventUuid?: string; ref?: string },
): Promise<Array<{ status: number; body: string }>> {
  const answers: Array<{ status: number; body: string }> = [];
  for (const hook of project.hooks) {
    if (event === 'Push Hook' ? !hook.pushEvents : !hook.tagPushEvents) continue;
    const ref = options.ref ?? (event === 'Tag Push Hook' ? 'refs/tags/v1.0.0' : `refs/heads/${project.defaultBranch}`);
    const payload = {
      object_kind: event === 'Push Hook' ? 'push' : 'tag_push',
      event_name: event === 'Push Hook' ? 'push' : 'tag_push',
      ref,
      project_id: project.id,
      project: { id: project.id, path_with_namespace: project.path, default_branch: project.defaultBranch },
      total_commits_count: 1,
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitLab/18.0.0',
      'x-gitlab-event': event,
      'x-gitlab-event-uuid': options.eventUuid ?? randomUUID(),
      'x-gitlab-webhook-uuid': randomUUID(),
      'x-gitlab-instance': baseUrl,
    };
    const secret = options.token ?? hook.token;
    if (secret !== undefined) headers['x-gitlab-token'] = secret;
    const answer = await fetch(hook.url, { method: 'POST', headers, body: JSON.stringify(payload) });
    answers.push({ status: answer.status, body: await answer.text() });
  }
  return answers;
}
