import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { readOutbox } from '../../../../test/support/outbox.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { ApiTokenPermission, CreatedApiToken } from '../../../contract/developer.js';
import { apiTokens, auditEvents, grants, idempotencyKeys, packages } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { findCustomerByToken } from '../licenses/grants.service.js';

const start = new Date('2026-03-01T12:00:00.000Z');
const COMPOSER_TOKEN = /pgc_[A-Za-z0-9_-]{32}/;

describe('API v1', () => {
  let app: TestApp;
  const clock = new TestClock(start);
  let sellerA: SignedIn;
  let sellerB: SignedIn;
  let widgetId: string;
  let gadgetId: string;
  let bobPackageId: string;

  async function insertPackage(ownerId: string, name: string) {
    const [row] = await app.ctx.db
      .insert(packages)
      .values({ ownerId, codeHost: 'local', repositoryId: name, repositoryFullName: name, name })
      .returning();
    return row!.id;
  }

  async function createToken(
    seller: SignedIn,
    permissions: ApiTokenPermission[],
    extra: { expiresAt?: string } = {},
  ): Promise<CreatedApiToken> {
    const response = await seller.client.post('/api/developer/tokens', {
      name: `token ${permissions.join(' ')}`,
      permissions,
      ...extra,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as CreatedApiToken;
  }

  async function call(
    token: string | undefined,
    method: string,
    pathname: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(new URL(pathname, app.baseUrl), {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, headers: response.headers, body: json };
  }

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      env: { SESSION_IDLE_MINUTES: String(365 * 24 * 60), SESSION_ABSOLUTE_DAYS: '365' },
    });
    const reposDir = path.join(app.dataDir, 'repos');
    for (const name of ['repo-one', 'repo-two']) {
      await createPackageRepository(path.join(reposDir, 'acme', `${name}.git`), {
        name: `acme/${name}`,
        tags: ['v1.0.0'],
        bare: true,
      });
    }
    sellerA = await signInSeller(app, { slug: 'acme' });
    sellerB = await signInSeller(app, { slug: 'bobco' });
    await giveTrial(app, sellerA.user.id);
    await giveTrial(app, sellerB.user.id);
    widgetId = await insertPackage(sellerA.user.id, 'acme/widget');
    gadgetId = await insertPackage(sellerA.user.id, 'acme/gadget');
    bobPackageId = await insertPackage(sellerB.user.id, 'bobco/tool');
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('API tokens', () => {
    it('shows a new token once, lists it without the secret and keeps only its hash', async () => {
      const created = await createToken(sellerA, ['packages:read', 'customers:read']);
      expect(created.token).toMatch(/^pga_[A-Za-z0-9_-]{32}$/);
      expect(created).toMatchObject({ isActive: true, expiresAt: null, lastUsedAt: null });

      const listed = await (await sellerA.client.get('/api/developer/tokens')).json();
      expect(listed.find((token: { id: string }) => token.id === created.id)).toEqual({
        id: created.id,
        name: created.name,
        permissions: ['packages:read', 'customers:read'],
        expiresAt: null,
        isActive: true,
        createdAt: created.createdAt,
        lastUsedAt: null,
      });
      expect(JSON.stringify(listed)).not.toContain(created.token);

      const rows = await app.ctx.db.select().from(apiTokens);
      expect(JSON.stringify(rows)).not.toContain(created.token);
      const row = rows.find((candidate) => candidate.id === created.id)!;
      expect(row.tokenHash).toBe(sha256Hex(created.token));
    });

    it('refuses an expiry in the past, a blank name and no permission', async () => {
      const past = await sellerA.client.post('/api/developer/tokens', {
        name: 'late',
        permissions: ['*'],
        expiresAt: new Date(start.getTime() - 1000).toISOString(),
      });
      expect(past.status).toBe(400);
      expect((await past.json()).message).toBe('The expiration must be in the future');
      const blank = await sellerA.client.post('/api/developer/tokens', { name: ' ', permissions: ['*'] });
      expect(blank.status).toBe(400);
      const none = await sellerA.client.post('/api/developer/tokens', { name: 'x', permissions: [] });
      expect(none.status).toBe(400);
    });

    it('needs a session and the CSRF token', async () => {
      const anonymous = await fetch(new URL('/api/developer/tokens', app.baseUrl));
      expect(anonymous.status).toBe(401);
      const withoutCsrf = await sellerA.client.post(
        '/api/developer/tokens',
        { name: 'x', permissions: ['*'] },
        { csrf: false },
      );
      expect(withoutCsrf.status).toBe(403);
    });

    it('records when a token was last used, at most once a minute', async () => {
      const created = await createToken(sellerA, ['packages:read']);
      expect((await call(created.token, 'GET', '/api/v1/packages')).status).toBe(200);
      const lastUsed = async () =>
        (await app.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, created.id)))[0]!.lastUsedAt?.toISOString();
      expect(await lastUsed()).toBe(clock.now().toISOString());
      const first = await lastUsed();
      clock.advance(30_000);
      await call(created.token, 'GET', '/api/v1/packages');
      expect(await lastUsed()).toBe(first);
      clock.advance(31_000);
      await call(created.token, 'GET', '/api/v1/packages');
      expect(await lastUsed()).toBe(clock.now().toISOString());
    });

    it('answers 401 saying whether the token is missing, unknown, expired, inactive or deleted', async () => {
      const missing = await call(undefined, 'GET', '/api/v1/packages');
      expect(missing.status).toBe(401);
      expect(missing.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED', status: 401 });
      expect(missing.body.message).toContain('Authorization');

      const unknown = await call('pga_not-a-real-token-at-all-xxxxxxxxxx', 'GET', '/api/v1/packages');
      expect(unknown.status).toBe(401);
      expect(unknown.body.message).toContain('not valid');

      const expiring = await createToken(sellerA, ['*'], {
        expiresAt: new Date(clock.now().getTime() + 60_000).toISOString(),
      });
      await app.ctx.db
        .update(apiTokens)
        .set({ expiresAt: new Date(clock.now().getTime() - 1000) })
        .where(eq(apiTokens.id, expiring.id));
      const expired = await call(expiring.token, 'GET', '/api/v1/packages');
      expect(expired.status).toBe(401);
      expect(expired.body.message).toContain('expired');

      const inactiveToken = await createToken(sellerA, ['*']);
      await app.ctx.db.update(apiTokens).set({ isActive: false }).where(eq(apiTokens.id, inactiveToken.id));
      const inactive = await call(inactiveToken.token, 'GET', '/api/v1/packages');
      expect(inactive.status).toBe(401);
      expect(inactive.body.message).toContain('inactive');

      const doomed = await createToken(sellerA, ['*']);
      expect((await call(doomed.token, 'GET', '/api/v1/packages')).status).toBe(200);
      expect((await sellerA.client.delete(`/api/developer/tokens/${doomed.id}`)).status).toBe(200);
      const deleted = await call(doomed.token, 'GET', '/api/v1/packages');
      expect(deleted.status).toBe(401);
      expect(deleted.body.message).toContain('deleted');
      const listed = await (await sellerA.client.get('/api/developer/tokens')).json();
      expect(listed.map((token: { id: string }) => token.id)).not.toContain(doomed.id);
    });

    it("does not let a seller delete another seller's token", async () => {
      const bobs = await createToken(sellerB, ['*']);
      expect((await sellerA.client.delete(`/api/developer/tokens/${bobs.id}`)).status).toBe(404);
      expect((await call(bobs.token, 'GET', '/api/v1/packages')).status).toBe(200);
    });

    it('does not let a token grant permissions it does not hold', async () => {
      const writer = await createToken(sellerA, ['tokens:write']);
      const escalation = await call(writer.token, 'POST', '/api/v1/tokens', { name: 'root', permissions: ['*'] });
      expect(escalation.status).toBe(403);
      const same = await call(writer.token, 'POST', '/api/v1/tokens', { name: 'peer', permissions: ['tokens:write'] });
      expect(same.status).toBe(201);
    });
  });
});
