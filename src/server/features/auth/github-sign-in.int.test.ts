import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../../../../test/fakes/github.js';
import { TestClient } from '../../../../test/support/http-client.js';
import { createTestUser, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { AuthUser } from '../../../contract/auth.js';
import { users } from '../../db/schema/index.js';
import { sessionCookieName } from '../../http/session.js';
import { decryptSecret } from '../../lib/crypto.js';

function cookieValue(client: TestClient, name: string): string | undefined {
  for (const pair of client.cookieHeader().split('; ')) {
    const [key, ...rest] = pair.split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

describe('signing in with GitHub', () => {
  let github: FakeGitHub;
  let app: TestApp;
  let loginCounter = 0;

  beforeAll(async () => {
    github = await startFakeGitHub();
    app = await startTestApp({ env: github.env() });
  });
  afterAll(async () => {
    await app.close();
    await github.close();
  });
  beforeEach(() => {
    github.setApprovingUser(null);
  });

  const newGithubUser = (overrides: Parameters<FakeGitHub['addUser']>[0] | object = {}) => {
    loginCounter += 1;
    return github.addUser({ login: `octo-${loginCounter}`, name: `Octo ${loginCounter}`, ...overrides });
  };

  /** Walks the browser through the flow step by step and returns the app's answer to GitHub's callback. */
  async function signInWithGithub(client: TestClient, login: string, query = '') {
    github.setApprovingUser(login);
    const start = await client.get(`/api/auth/github${query}`);
    expect(start.status).toBe(302);
    const atGithub = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    expect(atGithub.status).toBe(302);
    const callback = atGithub.headers.get('location')!;
    return { start, callbackUrl: callback, finish: await client.get(callback) };
  }

  async function currentUser(client: TestClient): Promise<AuthUser> {
    const response = await client.get('/api/auth/user');
    expect(response.status).toBe(200);
    return (await response.json()) as AuthUser;
  }

  it('sends the browser to GitHub asking to read the user, their e-mail and private repositories', async () => {
    const response = await new TestClient(app.baseUrl).get('/api/auth/github');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${github.webUrl}/login/oauth/authorize`);
    expect(location.searchParams.get('client_id')).toBe(github.clientId);
    expect(location.searchParams.get('redirect_uri')).toBe(`${app.ctx.config.publicUrl}/api/auth/github/callback`);
    expect(location.searchParams.get('scope')).toBe('read:user user:email');
    expect(location.searchParams.get('state')).toMatch(/^[\w-]{32}$/);
    const stateCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith('packgate_github_oauth='));
    expect(stateCookie).toMatch(/HttpOnly/i);
    expect(stateCookie).toMatch(/Max-Age=600/i);
  });

  it('creates a seller and a session on first sign-in, and keeps the GitHub token only encrypted', async () => {
    const octo = newGithubUser({ email: 'Octo.First@Example.com', name: 'Octo First' });
    const client = new TestClient(app.baseUrl);
    const { finish } = await signInWithGithub(client, octo.login);
    expect(finish.status).toBe(302);
    expect(finish.headers.get('location')).toBe('/dashboard');

    const me = await currentUser(client);
    expect(me).toMatchObject({
      userType: 'seller',
      githubUsername: octo.login,
      displayName: 'Octo First',
      email: 'octo.first@example.com',
      avatarUrl: octo.avatarUrl,
      slug: octo.login,
      hasAccessToken: true,
      isImpersonating: false,
    });
    expect(JSON.stringify(me)).not.toMatch(/gho_/);

    const [row] = await app.ctx.db.select().from(users).where(eq(users.id, me.id));
    const issued = github.issuedTokens().at(-1)!;
    expect(row!.githubAccessTokenEncrypted).toBeTruthy();
    expect(row!.githubAccessTokenEncrypted).not.toContain(issued);
    expect(decryptSecret(app.ctx.config.secretKey, row!.githubAccessTokenEncrypted!)).toBe(issued);
    expect(row!.githubScopes?.split(',').sort()).toEqual(['read:user', 'user:email']);
  });

  it('talks to GitHub through the configured web and API addresses (GitHub Enterprise layout)', async () => {
    const octo = newGithubUser();
    github.requests.length = 0;
    await signInWithGithub(new TestClient(app.baseUrl), octo.login);
    const exchange = github.requests.find((request) => request.path === '/login/oauth/access_token');
    expect(exchange?.method).toBe('POST');
    expect(exchange?.headers.accept).toContain('application/json');
    const apiCalls = github.requests.filter((request) => request.path.startsWith('/api/v3/')).map((r) => r.path);
    expect(apiCalls).toEqual(expect.arrayContaining(['/api/v3/user', '/api/v3/user/emails']));
  });

  it('remembers the tier chosen on the landing page as the selected tier', async () => {
    const octo = newGithubUser();
    const client = new TestClient(app.baseUrl);
    await signInWithGithub(client, octo.login, '?tier=growth');
    expect((await currentUser(client)).selectedTier).toBe('growth');
  });

  it('refuses a callback whose state does not match the one this browser was given', async () => {
    const octo = newGithubUser();
    const client = new TestClient(app.baseUrl);
    github.setApprovingUser(octo.login);
    const start = await client.get('/api/auth/github');
    const atGithub = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const forged = new URL(atGithub.headers.get('location')!);
    forged.searchParams.set('state', 'forged-state-value');
    const finish = await client.get(forged.toString());
    expect(finish.status).toBe(302);
    expect(finish.headers.get('location')).toBe('/?error=github_state');
    expect(await (await client.get('/api/auth/user')).json()).toBeNull();
    const [row] = await app.ctx.db.select().from(users).where(eq(users.githubId, octo.id));
    expect(row).toBeUndefined();
  });

  it('refuses a callback that arrives in a browser which never started the sign-in', async () => {
    const octo = newGithubUser();
    github.setApprovingUser(octo.login);
    const start = await new TestClient(app.baseUrl).get('/api/auth/github');
    const atGithub = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    // The callback with a fresh code and the right state, opened where no sign-in began (login CSRF).
    const stranger = new TestClient(app.baseUrl);
    const finish = await stranger.get(atGithub.headers.get('location')!);
    expect(finish.headers.get('location')).toBe('/?error=github_state');
    expect(await (await stranger.get('/api/auth/user')).json()).toBeNull();
  });

  it('sends a user who declines on GitHub back to the landing page', async () => {
    const client = new TestClient(app.baseUrl);
    github.setApprovingUser(null);
    const start = await client.get('/api/auth/github');
    const atGithub = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const finish = await client.get(atGithub.headers.get('location')!);
    expect(finish.headers.get('location')).toBe('/?error=github_denied');
  });

  it('signs a returning seller into the same account and refreshes their GitHub profile', async () => {
    const octo = newGithubUser();
    const first = new TestClient(app.baseUrl);
    await signInWithGithub(first, octo.login);
    const before = await currentUser(first);

    github.addUser({ ...octo, login: octo.login, name: 'Renamed Octo' });
    const second = new TestClient(app.baseUrl);
    await signInWithGithub(second, octo.login);
    const after = await currentUser(second);
    expect(after.id).toBe(before.id);
    expect(after.displayName).toBe('Renamed Octo');
  });

  it('links GitHub to an existing account with the same verified e-mail address', async () => {
    const existing = await createTestUser(app, { email: 'linked@example.com' });
    const octo = newGithubUser({ email: 'linked@example.com' });
    const client = new TestClient(app.baseUrl);
    await signInWithGithub(client, octo.login);
    const me = await currentUser(client);
    expect(me.id).toBe(existing.id);
    expect(me.githubUsername).toBe(octo.login);
  });

  it('ignores an unverified address when matching accounts', async () => {
    const existing = await createTestUser(app, { email: 'unverified@example.com' });
    const octo = newGithubUser({ emails: [{ email: 'unverified@example.com', primary: true, verified: false }] });
    const client = new TestClient(app.baseUrl);
    await signInWithGithub(client, octo.login);
    const me = await currentUser(client);
    expect(me.id).not.toBe(existing.id);
    expect(me.email).toBeNull();
  });

  it('gives each seller a slug of their own even when usernames collide after lowercasing', async () => {
    const upper = newGithubUser({ login: 'Same-Name' });
    await createTestUser(app, { slug: 'same-name' });
    const client = new TestClient(app.baseUrl);
    await signInWithGithub(client, upper.login);
    expect((await currentUser(client)).slug).toBe('same-name-2');
  });

  it('connects GitHub to the account of a seller who is already signed in', async () => {
    const { client, user } = await signInSeller(app, { email: 'connect-me@example.com' });
    const octo = newGithubUser({ email: 'different-address@example.com' });
    const { finish } = await signInWithGithub(client, octo.login);
    expect(finish.headers.get('location')).toBe('/dashboard');
    const me = await currentUser(client);
    expect(me).toMatchObject({ id: user.id, githubUsername: octo.login, hasAccessToken: true });
  });

  it('refuses to connect a GitHub account that already belongs to another seller', async () => {
    const octo = newGithubUser();
    await signInWithGithub(new TestClient(app.baseUrl), octo.login);
    const { client, user } = await signInSeller(app);
    const { finish } = await signInWithGithub(client, octo.login);
    expect(finish.headers.get('location')).toBe('/?error=github_account_conflict');
    expect((await currentUser(client)).id).toBe(user.id);
  });

  it('rotates the session id at sign-in, so the previous cookie stops working', async () => {
    const octo = newGithubUser();
    const client = new TestClient(app.baseUrl);
    await signInWithGithub(client, octo.login);
    const cookieName = sessionCookieName(app.ctx);
    const oldCookie = cookieValue(client, cookieName)!;
    expect(oldCookie).toBeTruthy();

    await signInWithGithub(client, octo.login);
    const newCookie = cookieValue(client, cookieName)!;
    expect(newCookie).toBeTruthy();
    expect(newCookie).not.toBe(oldCookie);
    expect((await client.get('/api/auth/user')).status).toBe(200);

    const withOldCookie = new TestClient(app.baseUrl);
    withOldCookie.setCookie(cookieName, oldCookie);
    expect(await (await withOldCookie.get('/api/auth/user')).json()).toBeNull();
  });

  it('refuses seller sign-in by e-mail link while GitHub is the way in', async () => {
    const response = await new TestClient(app.baseUrl).post('/api/auth/magic-link', {
      email: 'someone@example.com',
      userType: 'seller',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      error: 'GitHub Sign-In Required',
      message: expect.stringContaining('sign in with GitHub'),
      status: 403,
    });
  });
});
