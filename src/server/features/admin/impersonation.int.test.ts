import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { createTestUser, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { testAppAroundTests } from '../../../../test/support/test-app.js';
import type { AdminUserListItem, ImpersonationResponse } from '../../../contract/admin.js';
import type { AuthUser } from '../../../contract/auth.js';

describe('admin impersonation', () => {
  const running = testAppAroundTests();

  const me = async (client: TestClient) => (await (await client.get('/api/auth/user')).json()) as AuthUser;

  it('lists every account for the Users tab, sellers as "user"', async () => {
    const { client, user: admin } = await signInAdmin(running.app);
    const seller = await createTestUser(running.app, { githubUsername: 'lister' });
    const response = await client.get('/api/admin/users');
    expect(response.status).toBe(200);
    const list = (await response.json()) as AdminUserListItem[];
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: admin.id, email: admin.email, userType: 'admin' }),
        expect.objectContaining({ id: seller.id, userType: 'user', githubUsername: 'lister' }),
      ]),
    );
    const row = list.find((entry) => entry.id === seller.id)!;
    expect(new Date(row.createdAt).toISOString()).toBe(row.createdAt);
  });

  it('lets an admin view the app as a seller and come back to the admin account', async () => {
    const { client, user: admin, cookie: adminCookie } = await signInAdmin(running.app);
    const seller = await createTestUser(running.app);

    const started = await client.post('/api/admin/impersonate', { userId: seller.id });
    expect(started.status).toBe(200);
    const startBody = (await started.json()) as ImpersonationResponse;
    expect(startBody).toMatchObject({
      success: true,
      message: 'You are now viewing as this user',
      user: { id: seller.id, isImpersonating: true, impersonator: { id: admin.id, email: admin.email } },
    });
    expect(client.cookieHeader()).not.toContain(adminCookie); // a fresh session, not the admin's one reused
    expect(await me(client)).toMatchObject({
      id: seller.id,
      userType: 'seller',
      isImpersonating: true,
      impersonator: { id: admin.id, email: admin.email },
    });

    const stopped = await client.post('/api/admin/stop-impersonation');
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toMatchObject({
      success: true,
      message: 'You are back to your admin account',
      user: { id: admin.id, userType: 'admin', isImpersonating: false },
    });
    const back = await me(client);
    expect(back).toMatchObject({ id: admin.id, userType: 'admin', isImpersonating: false });
    expect(back.impersonator).toBeUndefined();
  });

  it('answers 404 for a user that does not exist', async () => {
    const { client } = await signInAdmin(running.app);
    for (const userId of [randomUUID(), 'not-a-user-id']) {
      const response = await client.post('/api/admin/impersonate', { userId });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'Not Found', message: 'User not found', status: 404 });
    }
  });

  it('does not let an admin impersonate themselves', async () => {
    const { client, user } = await signInAdmin(running.app);
    const response = await client.post('/api/admin/impersonate', { userId: user.id });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe('You cannot impersonate yourself.');
  });

  it('answers 400 to stop an impersonation that is not happening', async () => {
    const { client } = await signInAdmin(running.app);
    const response = await client.post('/api/admin/stop-impersonation');
    expect(response.status).toBe(400);
  });

  it('refuses every admin endpoint to a seller with 403', async () => {
    const { client } = await signInSeller(running.app);
    const victim = await createTestUser(running.app);
    const calls = [
      client.get('/api/admin/users'),
      client.post('/api/admin/impersonate', { userId: victim.id }),
      client.post('/api/admin/stop-impersonation'),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'Access Denied', status: 403 });
    }
    expect((await me(client)).id).not.toBe(victim.id);
  });

  it('refuses admin endpoints to visitors who are not signed in with 401', async () => {
    const response = await new TestClient(running.app.baseUrl).get('/api/admin/users');
    expect(response.status).toBe(401);
  });
});
