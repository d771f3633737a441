import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { signInSeller } from '../../../../test/support/sessions.js';
import { testAppAroundTests } from '../../../../test/support/test-app.js';
import type { AuthUser } from '../../../contract/auth.js';
import type { ApiError } from '../../../contract/errors.js';
import { TEAM_PERMISSIONS } from '../../../contract/team.js';
import { sessions } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';

describe('the signed-in user and signing out', () => {
  const started = testAppAroundTests();

  it('answers 200 with null when nobody is signed in, so a signed-out page logs no error', async () => {
    const response = await new TestClient(started.app.baseUrl).get('/api/auth/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toBeNull();
  });

  it('describes the signed-in user without any code-host token', async () => {
    const { client, user } = await signInSeller(started.app, { githubUsername: 'octo' });
    const response = await client.get('/api/auth/user');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const me = (await response.json()) as AuthUser;
    expect(me).toEqual({
      id: user.id,
      userType: 'seller',
      email: user.email,
      githubUsername: 'octo',
      displayName: null,
      avatarUrl: null,
      slug: user.slug,
      selectedTier: null,
      hasAccessToken: false,
      isImpersonating: false,
      // Their own account is an organisation they own (issue 33): every permission.
      organization: { id: user.id, name: 'octo', slug: user.slug, role: 'owner' },
      permissions: [...TEAM_PERMISSIONS],
    });
  });

  it('refuses a state-changing call without the CSRF header', async () => {
    const { client } = await signInSeller(started.app);
    const response = await client.post('/api/auth/logout', undefined, { csrf: false });
    expect(response.status).toBe(403);
    const error = (await response.json()) as ApiError;
    expect(error.status).toBe(403);
    expect(error.message).toContain('CSRF');
    expect((await client.get('/api/auth/user')).status).toBe(200); // still signed in
  });

  it('refuses a state-changing call with a wrong CSRF token', async () => {
    const { client } = await signInSeller(started.app);
    const response = await client.post('/api/auth/logout', undefined, { headers: { 'x-csrf-token': 'f'.repeat(64) } });
    expect(response.status).toBe(403);
    expect(((await response.json()) as ApiError).message).toContain('CSRF');
    expect((await client.get('/api/auth/user')).status).toBe(200);
  });

  it('refuses a CSRF token that belongs to another session', async () => {
    const other = await signInSeller(started.app);
    const foreignToken = await other.client.getCsrfToken();
    const { client } = await signInSeller(started.app);
    const response = await client.post('/api/auth/logout', undefined, { headers: { 'x-csrf-token': foreignToken } });
    expect(response.status).toBe(403);
  });

  it('signs out with the right CSRF token and destroys the session on the server', async () => {
    const { client, cookie, cookieName } = await signInSeller(started.app);
    const response = await client.post('/api/auth/logout');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    expect(await (await client.get('/api/auth/user')).json()).toBeNull();

    // Replaying the old cookie does not bring the session back: it is gone from the database.
    const [row] = await started.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, sha256Hex(cookie)));
    expect(row).toBeUndefined();
    const replay = new TestClient(started.app.baseUrl);
    replay.setCookie(cookieName, cookie);
    expect(await (await replay.get('/api/auth/user')).json()).toBeNull();
  });

  it('answers a sign-out without a session with success, so a stale page can still leave', async () => {
    const response = await new TestClient(started.app.baseUrl).post('/api/auth/logout');
    expect(response.status).toBe(200);
  });
});
