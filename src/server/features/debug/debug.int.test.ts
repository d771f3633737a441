import { describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { createTestUser, signIn, signInSeller } from '../../../../test/support/sessions.js';
import { testAppAroundTests } from '../../../../test/support/test-app.js';
import type { DebugSession } from '../../../contract/auth.js';

describe('debug routes when they are not enabled', () => {
  const started = testAppAroundTests();

  it('does not exist', async () => {
    const { client } = await signInSeller(started.app);
    expect((await client.get('/api/debug/session')).status).toBe(404);
    expect((await client.post('/api/debug/test-logout')).status).toBe(404);
    expect((await client.post('/api/debug/force-logout')).status).toBe(404);
    expect((await client.get('/api/auth/user')).status).toBe(200);
  });
});

describe('debug routes when enabled', () => {
  const started = testAppAroundTests({ env: { ENABLE_DEBUG_ROUTES: 'true' } });

  const session = async (client: TestClient) => (await (await client.get('/api/debug/session')).json()) as DebugSession;

  it('reports a visitor as signed out', async () => {
    const info = await session(new TestClient(started.app.baseUrl));
    expect(info).toMatchObject({
      authenticated: false,
      user: null,
      session: null,
      impersonation: { active: false, impersonator: null },
      cookies: { session: false },
    });
  });

  it('shows the session, its timeouts and any impersonation', async () => {
    const admin = await createTestUser(started.app, { userType: 'admin' });
    const seller = await createTestUser(started.app);
    const { client } = await signIn(started.app, { user: seller, impersonatorId: admin.id });
    const info = await session(client);
    const now = started.app.clock.now().getTime();
    expect(info.authenticated).toBe(true);
    expect(info.user).toMatchObject({ id: seller.id, isImpersonating: true });
    expect(info.impersonation).toEqual({ active: true, impersonator: { id: admin.id, email: admin.email } });
    expect(new Date(info.session!.createdAt).getTime()).toBe(now);
    expect(new Date(info.session!.idleExpiresAt).getTime()).toBe(now + started.app.ctx.config.session.idleMs);
    expect(new Date(info.session!.expiresAt).getTime()).toBe(now + started.app.ctx.config.session.absoluteMs);
    expect(info.cookies.session).toBe(true);
  });

  it('destroys the session with the test logout', async () => {
    const { client } = await signInSeller(started.app);
    const response = await client.post('/api/debug/test-logout');
    expect(await response.json()).toMatchObject({ success: true, hadSession: true });
    expect(await (await client.get('/api/auth/user')).json()).toBeNull();
  });

  it('destroys the session and clears the cookies with the force logout', async () => {
    const { client, cookieName } = await signInSeller(started.app);
    const response = await client.post('/api/debug/force-logout');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, hadSession: true });
    expect(client.hasCookie(cookieName)).toBe(false);
    expect((await session(client)).authenticated).toBe(false);
  });
});
