import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { giveTrial } from '../../../../test/support/packages.js';
import { createTestUser, signInAdmin, type TestUser } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { ApiError } from '../../../contract/errors.js';
import {
  forbiddenMessage,
  ORGANIZATION_ROLES,
  type OrganizationRole,
  type TeamPermission,
} from '../../../contract/team.js';
import { organizationMembers, sessions } from '../../db/schema/index.js';
import { sessionCookieName } from '../../http/session.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';
import { isAllowed, ROLES_MATRIX } from './roles-matrix.js';

// Issue 33: every seller route, walked with every role, answers as the table beside it says (roles-matrix.ts):
// allowed, anything but 403; forbidden, 403 with the sentence naming what the role lacks, before the body is read.

/** A member of `organization` with `role`, signed in with a session working in it. */
async function signInMember(app: TestApp, organization: TestUser, role: OrganizationRole): Promise<TestClient> {
  const person = await createTestUser(app);
  await app.ctx.db.insert(organizationMembers).values({ organizationId: organization.id, userId: person.id, role });
  return sessionIn(app, person.id, organization.id);
}

async function sessionIn(app: TestApp, personId: string, organizationId: string | null): Promise<TestClient> {
  const cookie = generateToken('pgs');
  const now = app.clock.now();
  await app.ctx.db.insert(sessions).values({
    idHash: sha256Hex(cookie),
    userId: personId,
    organizationId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + app.ctx.config.session.absoluteMs),
  });
  const client = new TestClient(app.baseUrl);
  client.setCookie(sessionCookieName(app.ctx), cookie);
  return client;
}

/** A path with its parameters filled: an analytics table, a version, else an id that names nothing. */
function pathOf(url: string): string {
  return url
    .replace(':table', 'downloads')
    .replace(':version', '1.0.0')
    .replace(/:[A-Za-z]+/g, () => randomUUID());
}

describe('roles on every seller route', () => {
  let app: TestApp;
  let organization: TestUser;
  const sellerRoutes = () =>
    app.app.declaredRoutes.filter((route) => route.isSellerRoute || route.permission !== undefined);

  beforeAll(async () => {
    app = await startTestApp();
    organization = await createTestUser(app, { githubUsername: 'acme' });
    await giveTrial(app, organization.id);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('has every route a signed-in seller uses declare a permission, and the table name each of them', () => {
    const undeclared = sellerRoutes()
      .filter((route) => route.permission === undefined)
      .map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
    const declared = sellerRoutes()
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(declared).toEqual(Object.keys(ROLES_MATRIX).sort());
  });

  it.each(ORGANIZATION_ROLES)('answers a %s as the table says', async (role) => {
    const client =
      role === 'owner' ? await sessionIn(app, organization.id, null) : await signInMember(app, organization, role);
    const mismatches: string[] = [];
    let refused = 0;
    for (const route of sellerRoutes()) {
      const key = `${route.method} ${route.url}`;
      const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
      const response = await client.request(route.method, pathOf(route.url), { body });
      const answer = response.status === 403 ? ((await response.json()) as ApiError) : undefined;
      if (response.status !== 403) await response.body?.cancel();
      if (isAllowed(key, role)) {
        if (response.status === 403) mismatches.push(`${key}: 403 ${answer?.message}, expected allowed`);
      } else {
        refused++;
        const expected = forbiddenMessage(role, route.permission as TeamPermission);
        if (answer?.message !== expected) mismatches.push(`${key}: ${response.status} ${answer?.message ?? ''}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(refused).toBe(Object.keys(ROLES_MATRIX).filter((key) => !isAllowed(key, role)).length);
  });

  it('lets an admin impersonating the seller act as its owner', async () => {
    const { client } = await signInAdmin(app);
    expect((await client.post('/api/admin/impersonate', { userId: organization.id })).status).toBe(200);
    const me = (await (await client.get('/api/auth/user')).json()) as { id: string; organization?: { role: string } };
    expect(me.id).toBe(organization.id);
    expect(me.organization?.role).toBe('owner');
    expect((await client.get('/api/platform-subscription/billing')).status).not.toBe(403);
  });

  it('tells the web app the role and its permissions on /api/auth/user', async () => {
    const client = await signInMember(app, organization, 'support');
    const me = (await (await client.get('/api/auth/user')).json()) as {
      id: string;
      organization: { id: string; name: string; role: string };
      permissions: string[];
    };
    expect(me.id).toBe(organization.id);
    expect(me.organization).toMatchObject({ id: organization.id, name: 'acme', role: 'support' });
    expect(me.permissions).toEqual(['dashboard:read', 'packages:read', 'customers:read', 'customers:write']);
  });
});
