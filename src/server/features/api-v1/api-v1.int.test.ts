import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { mailsTo, readOutbox } from '../../../../test/support/outbox.js';
import { giveTrial, insertPackage, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import { API_TOKEN_PERMISSIONS, type ApiTokenPermission, type CreatedApiToken } from '../../../contract/developer.js';
import { apiTokens, auditEvents, grants, idempotencyKeys, packages, packageVersions } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { findCustomerByToken } from '../licenses/grants.service.js';

const start = new Date('2026-03-01T12:00:00.000Z');
const COMPOSER_TOKEN = /pgc_[A-Za-z0-9]{36}/;

describe('API v1', () => {
  let app: TestApp;
  const clock = new TestClock(start);
  let sellerA: SignedIn;
  let sellerB: SignedIn;
  let widgetId: string;
  let gadgetId: string;
  let bobPackageId: string;

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
    // biome-ignore lint/suspicious/noExplicitAny: the answers of many endpoints, read field by field
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
      env: YEAR_LONG_SESSIONS,
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
    widgetId = (await insertPackage(app, sellerA.user.id, 'acme/widget')).id;
    gadgetId = (await insertPackage(app, sellerA.user.id, 'acme/gadget')).id;
    bobPackageId = (await insertPackage(app, sellerB.user.id, 'bobco/tool')).id;
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
      // The error names its request, as the X-Request-Id header does, and the OpenAPI document says so.
      expect(missing.body.requestId).toBe(missing.headers.get('x-request-id'));

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

  describe('lasting licenses by hand (Management)', () => {
    it('issues a license with no expiry, a download limit and end mode, e-mails the holder and answers the setup', async () => {
      const response = await sellerA.client.post(`/api/repositories/${widgetId}/licenses`, {
        email: 'Lasting@Example.com',
        expiresAt: null,
        downloadLimit: 5,
        endMode: 'updates',
        note: 'Paid by invoice',
      });
      expect(response.status).toBe(201);
      const issued = await response.json();
      expect(issued.license).toMatchObject({
        email: 'lasting@example.com',
        packageName: 'acme/widget',
        kind: 'manual',
        status: 'active',
        isActive: true,
        expiresAt: null,
        endMode: 'updates',
        downloadLimit: 5,
        note: 'Paid by invoice',
      });
      expect(issued.outcome).toBe('created');
      expect(issued.emailSent).toBe(true);
      expect(issued.repositoryUrl).toBe(`http://acme.composer.localhost:${app.port}`);
      expect(issued.composerToken).toMatch(COMPOSER_TOKEN);
      expect(issued.setupCommands).toContain(
        `composer config bearer.acme.composer.localhost:${app.port} ${issued.composerToken}`,
      );
      const mail = mailsTo(app.dataDir, 'lasting@example.com');
      expect(mail).toHaveLength(1);
      expect(mail[0]!.body).toContain(issued.composerToken);
      expect(await findCustomerByToken(app.ctx, issued.composerToken)).toBeDefined();

      const listed = await (await sellerA.client.get(`/api/repositories/${widgetId}/licenses`)).json();
      expect(listed.map((license: { id: string }) => license.id)).toContain(issued.license.id);
    });

    it('edits the terms, refuses an expiry in the past and hides other sellers\u2019 licenses', async () => {
      const issued = await (
        await sellerA.client.post(`/api/repositories/${gadgetId}/licenses`, { email: 'edit-me@example.com' })
      ).json();
      expect(issued.license).toMatchObject({ expiresAt: null, downloadLimit: null, endMode: 'access' });

      const expiresAt = new Date(clock.now().getTime() + 30 * DAY_MS).toISOString();
      const edited = await sellerA.client.request('PATCH', `/api/licenses/${issued.license.id}`, {
        body: { expiresAt, downloadLimit: 10, endMode: 'updates', note: 'renewed' },
      });
      expect(edited.status).toBe(200);
      expect(await edited.json()).toMatchObject({ expiresAt, downloadLimit: 10, endMode: 'updates', note: 'renewed' });

      const past = await sellerA.client.request('PATCH', `/api/licenses/${issued.license.id}`, {
        body: { expiresAt: new Date(clock.now().getTime() - DAY_MS).toISOString() },
      });
      expect(past.status).toBe(400);
      expect((await past.json()).message).toBe('The expiry date must be in the future');

      const empty = await sellerA.client.request('PATCH', `/api/licenses/${issued.license.id}`, { body: {} });
      expect(empty.status).toBe(400);

      const foreign = await sellerB.client.request('PATCH', `/api/licenses/${issued.license.id}`, {
        body: { note: 'mine now' },
      });
      expect(foreign.status).toBe(404);
      const foreignIssue = await sellerB.client.post(`/api/repositories/${widgetId}/licenses`, {
        email: 'x@example.com',
      });
      expect(foreignIssue.status).toBe(404);
    });
  });

  describe('the API', () => {
    let full: CreatedApiToken;
    let licenseId: string;

    beforeAll(async () => {
      full = await createToken(sellerA, ['*']);
      const created = await call(full.token, 'POST', '/api/v1/licenses', {
        packageId: widgetId,
        email: 'api-holder@example.com',
        sendEmail: false,
      });
      expect(created.status).toBe(201);
      licenseId = created.body.data.license.id;
    });

    it('lists packages in the envelope with the spec fields, pricing empty until priced', async () => {
      const answer = await call(full.token, 'GET', '/api/v1/packages');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: true, meta: { provider: 'packgate', apiVersion: 'v1' } });
      expect(answer.body.meta.total).toBe(answer.body.data.length);
      const widget = answer.body.data.find((entry: { id: string }) => entry.id === widgetId);
      expect(widget).toMatchObject({
        id: widgetId,
        name: 'acme/widget',
        isActive: true,
        pricingType: null,
        priceCents: null,
        currency: null,
        purchaseUrl: null,
        directPurchaseUrl: null,
        pricingTiers: [],
      });
      expect(answer.body.data.map((entry: { id: string }) => entry.id)).not.toContain(bobPackageId);
      expect(answer.headers.get('ratelimit-limit')).toBe('30');
      expect(answer.headers.get('ratelimit-remaining')).not.toBeNull();
    });

    it('names the newest tag as latestVersion and downloadUrl, not the first of an ascending list', async () => {
      const packageId = (await insertPackage(app, sellerA.user.id, 'acme/versioned')).id;
      const releasedAt = new Date('2026-02-01T00:00:00.000Z');
      const version = (name: string, normalizedVersion: string, kind: 'tag' | 'branch' = 'tag') => ({
        packageId,
        version: name,
        normalizedVersion,
        kind,
        reference: 'a'.repeat(40),
        commit: 'a'.repeat(40),
        releasedAt,
        publishedAt: releasedAt,
        composerJson: { name: 'acme/versioned' },
      });
      // Tags made on one day (a release script tagging a backlog): their dates do not order them, their numbers do.
      await app.ctx.db
        .insert(packageVersions)
        .values([
          version('v1.0.0', '1.0.0.0'),
          version('v1.10.0', '1.10.0.0'),
          version('v1.2.0', '1.2.0.0'),
          version('v2.0.0-beta1', '2.0.0.0-beta1'),
          version('dev-main', 'dev-main', 'branch'),
        ]);
      const listed = await call(full.token, 'GET', '/api/v1/packages');
      const one = await call(full.token, 'GET', `/api/v1/packages/${packageId}`);
      for (const entry of [listed.body.data.find((row: { id: string }) => row.id === packageId), one.body.data]) {
        expect(entry.latestVersion).toBe('v1.10.0');
        expect(entry.downloadUrl).toContain('v1.10.0');
      }
      await app.ctx.db.delete(packages).where(eq(packages.id, packageId));
    });

    it('answers purchase links with a clear error while the package has no prices', async () => {
      const answer = await call(full.token, 'POST', `/api/v1/packages/${widgetId}/purchase-links`, {});
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ success: false, code: 'CONFLICT' });
      expect(answer.body.message).toContain('no prices');
    });

    it('creates, updates and revokes a license, each an audit event naming the token masked', async () => {
      const created = await call(full.token, 'POST', '/api/v1/licenses', {
        packageId: gadgetId,
        email: 'shop-buyer@example.com',
        expiresAt: null,
        downloadLimit: null,
        endMode: 'updates',
        note: 'Order #1042',
      });
      expect(created.status).toBe(201);
      const { license, composerToken, setupCommands } = created.body.data;
      expect(license).toMatchObject({ packageId: gadgetId, kind: 'manual', endMode: 'updates', note: 'Order #1042' });
      expect(composerToken).toMatch(COMPOSER_TOKEN);
      expect(setupCommands.join('\n')).toContain('composer require acme/gadget');
      expect(readOutbox(app.dataDir).some((mail) => mail.to.includes('shop-buyer@example.com'))).toBe(true);

      clock.advance(1000); // events of one instant have no order of their own
      const updated = await call(full.token, 'PATCH', `/api/v1/licenses/${license.id}`, { downloadLimit: 3 });
      expect(updated.status).toBe(200);
      expect(updated.body.data.downloadLimit).toBe(3);

      clock.advance(1000);
      const revoked = await call(full.token, 'DELETE', `/api/v1/licenses/${license.id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body.data).toMatchObject({ status: 'revoked', isActive: false });
      const [grant] = await app.ctx.db.select().from(grants).where(eq(grants.id, license.id));
      expect(grant!.status).toBe('revoked');

      const events = await call(full.token, 'GET', '/api/v1/audit-events');
      expect(events.status).toBe(200);
      const forLicense = events.body.data.filter((event: { targetId: string }) => event.targetId === license.id);
      expect(forLicense.map((event: { action: string }) => event.action)).toEqual([
        'license.revoked',
        'license.updated',
        'license.created',
      ]);
      for (const event of forLicense) {
        expect(event.actor.type).toBe('api_token');
        expect(event.actor.tokenId).toBe(`${full.id.slice(0, 8)}…`);
      }
      const rows = await app.ctx.db.select().from(auditEvents);
      expect(JSON.stringify(rows)).not.toContain(full.id);
      expect(events.body.data.some((event: { action: string }) => event.action === 'api_token.created')).toBe(true);
    });

    it('regenerates a customer token: the old one stops working, the new one is answered once', async () => {
      const created = await call(full.token, 'POST', '/api/v1/licenses', {
        packageId: widgetId,
        email: 'rotate@example.com',
        sendEmail: false,
      });
      const oldToken = created.body.data.composerToken as string;
      const rotated = await call(full.token, 'POST', '/api/v1/customers/regenerate-token', {
        email: 'rotate@example.com',
        sendEmail: false,
      });
      expect(rotated.status).toBe(200);
      expect(rotated.body.data.composerToken).toMatch(COMPOSER_TOKEN);
      expect(await findCustomerByToken(app.ctx, oldToken)).toBeUndefined();
      expect(await findCustomerByToken(app.ctx, rotated.body.data.composerToken)).toBeDefined();
    });

    it('lists customers and analytics with the spec fields', async () => {
      const customersAnswer = await call(full.token, 'GET', '/api/v1/customers');
      expect(customersAnswer.status).toBe(200);
      const holder = customersAnswer.body.data.find(
        (entry: { email: string }) => entry.email === 'api-holder@example.com',
      );
      expect(holder).toMatchObject({ totalActivePackages: 1, lastActiveDate: null });
      expect(holder.packages[0]).toMatchObject({ packageId: widgetId, packageName: 'acme/widget', status: 'active' });

      const analytics = await call(full.token, 'GET', '/api/v1/analytics');
      expect(analytics.status).toBe(200);
      expect(analytics.body.data).toMatchObject({
        activePackages: 2,
        totalSalesCents: 0,
        totalSalesFormatted: '$0.00',
      });
      expect(analytics.body.meta).toMatchObject({ currency: 'usd' });
      expect(analytics.body.meta.period).toContain('2026-03');
    });

    it('permission × endpoint: 403 naming the missing permission without it, 2xx with it', async () => {
      const all = API_TOKEN_PERMISSIONS.filter((permission) => permission !== '*');
      const without = new Map<ApiTokenPermission, CreatedApiToken>();
      const only = new Map<ApiTokenPermission, CreatedApiToken>();
      for (const permission of all) {
        without.set(
          permission,
          await createToken(
            sellerA,
            all.filter((other) => other !== permission),
          ),
        );
        only.set(permission, await createToken(sellerA, [permission]));
      }
      const spareToken = await createToken(sellerA, ['analytics:read']);
      const doomedPackage = (await insertPackage(app, sellerA.user.id, 'acme/doomed')).id;
      type Case = { method: string; path: string; permission: ApiTokenPermission; body?: unknown; expected: number };
      const cases: Case[] = [
        { method: 'GET', path: '/api/v1/packages', permission: 'packages:read', expected: 200 },
        { method: 'GET', path: `/api/v1/packages/${widgetId}`, permission: 'packages:read', expected: 200 },
        // No prices yet: the documented 409 is what a permitted caller gets.
        {
          method: 'POST',
          path: `/api/v1/packages/${widgetId}/purchase-links`,
          permission: 'packages:read',
          body: {},
          expected: 409,
        },
        {
          method: 'POST',
          path: '/api/v1/packages',
          permission: 'packages:write',
          body: { githubRepoId: 'acme/repo-one.git', packageName: 'acme/repo-one' },
          expected: 201,
        },
        {
          method: 'PATCH',
          path: `/api/v1/packages/${gadgetId}`,
          permission: 'packages:write',
          body: { description: 'Gadgets' },
          expected: 200,
        },
        { method: 'DELETE', path: `/api/v1/packages/${doomedPackage}`, permission: 'packages:write', expected: 200 },
        { method: 'GET', path: '/api/v1/customers', permission: 'customers:read', expected: 200 },
        { method: 'GET', path: '/api/v1/licenses', permission: 'customers:read', expected: 200 },
        { method: 'GET', path: `/api/v1/licenses/${licenseId}`, permission: 'customers:read', expected: 200 },
        {
          method: 'POST',
          path: '/api/v1/licenses',
          permission: 'customers:write',
          body: { packageId: widgetId, email: 'matrix@example.com', sendEmail: false },
          expected: 201,
        },
        {
          method: 'PATCH',
          path: `/api/v1/licenses/${licenseId}`,
          permission: 'customers:write',
          body: { note: 'matrix' },
          expected: 200,
        },
        { method: 'DELETE', path: `/api/v1/licenses/${licenseId}`, permission: 'customers:write', expected: 200 },
        {
          method: 'POST',
          path: '/api/v1/customers/regenerate-token',
          permission: 'customers:write',
          body: { email: 'api-holder@example.com', sendEmail: false },
          expected: 200,
        },
        { method: 'GET', path: '/api/v1/analytics', permission: 'analytics:read', expected: 200 },
        { method: 'GET', path: '/api/v1/tokens', permission: 'tokens:read', expected: 200 },
        { method: 'GET', path: '/api/v1/audit-events', permission: 'tokens:read', expected: 200 },
        {
          method: 'POST',
          path: '/api/v1/tokens',
          permission: 'tokens:write',
          body: { name: 'minted', permissions: ['tokens:write'] },
          expected: 201,
        },
        { method: 'DELETE', path: `/api/v1/tokens/${spareToken.id}`, permission: 'tokens:write', expected: 200 },
      ];
      for (const entry of cases) {
        const refused = await call(without.get(entry.permission)!.token, entry.method, entry.path, entry.body);
        expect(refused.status, `${entry.method} ${entry.path} without ${entry.permission}`).toBe(403);
        expect(refused.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
        expect(refused.body.message).toContain(entry.permission);
        const allowed = await call(only.get(entry.permission)!.token, entry.method, entry.path, entry.body);
        expect(
          allowed.status,
          `${entry.method} ${entry.path} with ${entry.permission}: ${JSON.stringify(allowed.body)}`,
        ).toBe(entry.expected);
      }
      const [created] = await app.ctx.db.select().from(packages).where(eq(packages.name, 'acme/repo-one'));
      await waitForSync(app, created!.id);
    });

    it("answers 404 for another seller's ids", async () => {
      const bob = await createToken(sellerB, ['*']);
      const foreign = [
        ['GET', `/api/v1/packages/${widgetId}`],
        ['PATCH', `/api/v1/packages/${widgetId}`, { description: 'stolen' }],
        ['DELETE', `/api/v1/packages/${widgetId}`],
        ['POST', `/api/v1/packages/${widgetId}/purchase-links`, {}],
        ['GET', `/api/v1/licenses/${licenseId}`],
        ['GET', `/api/v1/licenses?packageId=${widgetId}`],
        ['PATCH', `/api/v1/licenses/${licenseId}`, { note: 'stolen' }],
        ['DELETE', `/api/v1/licenses/${licenseId}`],
        ['POST', '/api/v1/licenses', { packageId: widgetId, email: 'thief@example.com' }],
        ['POST', '/api/v1/customers/regenerate-token', { email: 'api-holder@example.com' }],
        ['DELETE', `/api/v1/tokens/${full.id}`],
      ] as const;
      for (const [method, pathname, body] of foreign) {
        const answer = await call(bob.token, method, pathname, body);
        expect(answer.status, `${method} ${pathname}`).toBe(404);
        expect(answer.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
      }
      const customersAnswer = await call(bob.token, 'GET', '/api/v1/customers');
      expect(customersAnswer.body.data).toEqual([]);
      expect((await call(full.token, 'GET', `/api/v1/packages/${widgetId}`)).status).toBe(200);
    });

    it('replays an idempotent POST sent 10 times at once: one license, one e-mail, the same answer', async () => {
      const token = await createToken(sellerA, ['customers:write']);
      const body = { packageId: gadgetId, email: 'idempotent@example.com', downloadLimit: 7 };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(token.token, 'POST', '/api/v1/licenses', body, { 'idempotency-key': 'order-2001' }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
      const ids = new Set(answers.map((answer) => answer.body.data.license.id));
      expect(ids.size).toBe(1);
      expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
      expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
      const holders = await call(full.token, 'GET', '/api/v1/licenses?email=idempotent@example.com');
      expect(holders.body.data).toHaveLength(1);
      expect(mailsTo(app.dataDir, 'idempotent@example.com')).toHaveLength(1);

      // The stored answer holds the holder's Composer token, sealed.
      const rows = await app.ctx.db.select().from(idempotencyKeys);
      expect(JSON.stringify(rows)).not.toContain(answers[0]!.body.data.composerToken);

      const changed = await call(
        token.token,
        'POST',
        '/api/v1/licenses',
        { ...body, downloadLimit: 8 },
        {
          'idempotency-key': 'order-2001',
        },
      );
      expect(changed.status).toBe(409);
      expect(changed.body).toMatchObject({ success: false, code: 'CONFLICT' });
      expect(changed.body.message).toContain('different request');
    });

    it("replays a key only to the token that sent it: a tokens:write token repeating a * token's request gets no * token", async () => {
      const root = await createToken(sellerA, ['*']);
      const writer = await createToken(sellerA, ['tokens:write']);
      const body = { name: 'deploy-mint-1', permissions: ['*'] };
      const first = await call(root.token, 'POST', '/api/v1/tokens', body, { 'idempotency-key': 'mint-1' });
      expect(first.status).toBe(201);
      expect(first.body.data.token).toMatch(/^pga_/);

      // The same request with the same key, from a weaker token: run afresh under its own permissions, which
      // cannot grant `*`. Nothing of the first answer reaches it.
      const repeated = await call(writer.token, 'POST', '/api/v1/tokens', body, { 'idempotency-key': 'mint-1' });
      expect(repeated.status).toBe(403);
      expect(repeated.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
      expect(repeated.body.message).toContain('cannot grant permissions it does not hold: *');
      expect(repeated.headers.get('idempotent-replayed')).toBeNull();
      expect(JSON.stringify(repeated.body)).not.toContain(first.body.data.token);

      // A key another token used is this token's own to use: its request runs and makes its own token.
      const peer = { name: 'peer-mint-2', permissions: ['tokens:write'] };
      const rootPeer = await call(root.token, 'POST', '/api/v1/tokens', peer, { 'idempotency-key': 'mint-2' });
      const writerPeer = await call(writer.token, 'POST', '/api/v1/tokens', peer, { 'idempotency-key': 'mint-2' });
      expect([rootPeer.status, writerPeer.status]).toEqual([201, 201]);
      expect(writerPeer.headers.get('idempotent-replayed')).toBeNull();
      expect(writerPeer.body.data.id).not.toBe(rootPeer.body.data.id);
      expect(writerPeer.body.data.token).not.toBe(rootPeer.body.data.token);

      // Each token retrying its own request still gets its own first answer, and nothing is made twice.
      const writerRetry = await call(writer.token, 'POST', '/api/v1/tokens', peer, { 'idempotency-key': 'mint-2' });
      expect(writerRetry.status).toBe(201);
      expect(writerRetry.headers.get('idempotent-replayed')).toBe('true');
      expect(writerRetry.body).toEqual(writerPeer.body);
      const rootRetry = await call(root.token, 'POST', '/api/v1/tokens', body, { 'idempotency-key': 'mint-1' });
      expect(rootRetry.headers.get('idempotent-replayed')).toBe('true');
      expect(rootRetry.body).toEqual(first.body);
      const names = (await call(root.token, 'GET', '/api/v1/tokens')).body.data.map(
        (token: { name: string }) => token.name,
      );
      expect(names.filter((name: string) => name === 'deploy-mint-1')).toHaveLength(1);
      expect(names.filter((name: string) => name === 'peer-mint-2')).toHaveLength(2);
    });

    it("never replays a license answer carrying a holder's Composer token to another token", async () => {
      const issuer = await createToken(sellerA, ['customers:write']);
      const other = await createToken(sellerA, ['customers:write']);
      const body = { packageId: gadgetId, email: 'replay-holder@example.com', downloadLimit: 4 };
      const first = await call(issuer.token, 'POST', '/api/v1/licenses', body, { 'idempotency-key': 'order-3001' });
      expect(first.status).toBe(201);
      const holderToken: string = first.body.data.composerToken;
      expect(holderToken).toMatch(COMPOSER_TOKEN);

      // The other token's request runs as its own: the holder exists now, so no Composer token is in its answer.
      const repeated = await call(other.token, 'POST', '/api/v1/licenses', body, { 'idempotency-key': 'order-3001' });
      expect(repeated.status).toBe(201);
      expect(repeated.headers.get('idempotent-replayed')).toBeNull();
      expect(repeated.body.data.composerToken).toBeNull();
      expect(JSON.stringify(repeated.body)).not.toContain(holderToken);
      expect(repeated.body.data.license.id).toBe(first.body.data.license.id);

      // The token that caused the first answer still gets it back, token included.
      const retried = await call(issuer.token, 'POST', '/api/v1/licenses', body, { 'idempotency-key': 'order-3001' });
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(retried.body).toEqual(first.body);
      const otherRetry = await call(other.token, 'POST', '/api/v1/licenses', body, {
        'idempotency-key': 'order-3001',
      });
      expect(otherRetry.headers.get('idempotent-replayed')).toBe('true');
      expect(otherRetry.body).toEqual(repeated.body);
    });

    it('checks the permission before any replay: a key another token used answers 403 to a token without it', async () => {
      const root = await createToken(sellerA, ['*']);
      const reader = await createToken(sellerA, ['analytics:read', 'customers:read']);
      const tokenBody = { name: 'ci', permissions: ['packages:read'] };
      const licenseBody = { packageId: gadgetId, email: 'permission-holder@example.com' };
      expect(
        (await call(root.token, 'POST', '/api/v1/tokens', tokenBody, { 'idempotency-key': 'shared-1' })).status,
      ).toBe(201);
      expect(
        (await call(root.token, 'POST', '/api/v1/licenses', licenseBody, { 'idempotency-key': 'shared-2' })).status,
      ).toBe(201);
      for (const [pathname, body, key, permission] of [
        ['/api/v1/tokens', tokenBody, 'shared-1', 'tokens:write'],
        ['/api/v1/licenses', licenseBody, 'shared-2', 'customers:write'],
      ] as const) {
        const refused = await call(reader.token, 'POST', pathname, body, { 'idempotency-key': key });
        expect(refused.status, pathname).toBe(403);
        expect(refused.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
        expect(refused.body.message).toContain(permission);
        expect(refused.headers.get('idempotent-replayed')).toBeNull();
      }
    });

    it('answers bad input with the error envelope, never a 5xx', async () => {
      const token = await createToken(sellerA, ['*']);
      const bad: [string, string, unknown?, Record<string, string>?][] = [
        ['POST', '/api/v1/licenses', '{not json'],
        ['POST', '/api/v1/licenses', { packageId: 42, email: 'x@example.com' }],
        ['POST', '/api/v1/licenses', { packageId: widgetId }],
        ['POST', '/api/v1/licenses', { packageId: widgetId, email: 'not-an-email' }],
        ['POST', '/api/v1/licenses', { packageId: widgetId, email: 'a@example.com', expiresAt: 'tomorrow' }],
        ['POST', '/api/v1/licenses', { packageId: widgetId, email: 'a@example.com', downloadLimit: -1 }],
        ['POST', '/api/v1/licenses', { packageId: 'nope', email: 'a@example.com' }],
        ['PATCH', `/api/v1/licenses/${'x'.repeat(90)}`, { note: 'x' }],
        ['PATCH', `/api/v1/licenses/${licenseId}`, { endMode: 'forever' }],
        ['GET', '/api/v1/audit-events?limit=100000'],
        ['GET', '/api/v1/no-such-endpoint'],
        [
          'POST',
          '/api/v1/licenses',
          { packageId: widgetId, email: 'a@example.com' },
          { 'idempotency-key': 'has space' },
        ],
        ['POST', '/api/v1/tokens', { name: 'x'.repeat(500), permissions: ['*'] }],
      ];
      for (const [method, pathname, body, headers] of bad) {
        const answer = await call(token.token, method, pathname, body, headers);
        expect(answer.status, `${method} ${pathname}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${pathname}`).toBeLessThan(500);
        expect(answer.body, `${method} ${pathname}`).toMatchObject({ success: false, meta: { apiVersion: 'v1' } });
        expect(typeof answer.body.message).toBe('string');
      }
    });

    it('answers a malformed path id with 404 in the envelope, as an unknown one', async () => {
      const token = await createToken(sellerA, ['*']);
      for (const id of ['not-a-uuid', '42', '00000000-0000-4000-8000-000000000000']) {
        const paths: [string, string, unknown?][] = [
          ['GET', `/api/v1/packages/${id}`],
          ['POST', `/api/v1/packages/${id}/purchase-links`, {}],
          ['GET', `/api/v1/licenses/${id}`],
          ['DELETE', `/api/v1/licenses/${id}`],
          ['DELETE', `/api/v1/tokens/${id}`],
          ['GET', `/api/v1/webhooks/${id}`],
        ];
        for (const [method, pathname, body] of paths) {
          const answer = await call(token.token, method, pathname, body);
          expect(answer.status, `${method} ${pathname}`).toBe(404);
          expect(answer.body, `${method} ${pathname}`).toMatchObject({ success: false, code: 'NOT_FOUND' });
        }
      }
    });

    it('answers the 31st request in a minute with 429 and Retry-After', async () => {
      const token = await createToken(sellerA, ['analytics:read']);
      for (let index = 1; index <= 30; index++) {
        const answer = await call(token.token, 'GET', '/api/v1/analytics');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('ratelimit-remaining')).toBe(String(30 - index));
      }
      const limited = await call(token.token, 'GET', '/api/v1/analytics');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body).toMatchObject({ success: false, code: 'RATE_LIMITED', status: 429 });
      // Another token has its own budget; Composer's doors are not limited at all.
      expect((await call(full.token, 'GET', '/api/v1/analytics')).status).toBe(200);
    });
  });

  describe('OpenAPI', () => {
    it('serves a valid OpenAPI 3.1 document that describes every /api/v1 route', async () => {
      const response = await fetch(new URL('/api/docs/openapi.json', app.baseUrl));
      expect(response.status).toBe(200);
      const document = await response.json();
      expect(document.openapi).toBe('3.1.0');
      const validation = await new Validator().validate(document);
      expect(validation.errors ?? []).toEqual([]);
      expect(validation.valid).toBe(true);
      expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual([
        'Packages',
        'Products',
        'Code hosts',
        'Customers',
        'Licenses',
        'Analytics',
        'Tokens',
        'Webhooks',
      ]);

      const documented = new Set<string>();
      for (const [route, operations] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${route}`);
      }
      const served = apiV1Routes(app.app.printRoutes({ commonPrefix: false }));
      expect(served.length).toBeGreaterThanOrEqual(18);
      for (const route of served) expect(documented, route).toContain(route);
      for (const route of documented) expect(route).toMatch(/^[A-Z]+ \/api\/v1\//);
      const listPackages = document.paths['/api/v1/packages'].get;
      expect(listPackages.tags).toEqual(['Packages']);
      expect(listPackages.responses['200'].content['application/json'].schema.properties).toHaveProperty('meta');
    });

    it('names its server, and for each operation a camelCase operationId, the permission it needs and, on a POST, Idempotency-Key', async () => {
      const document = await (await fetch(new URL('/api/docs/openapi.json', app.baseUrl))).json();
      // From PUBLIC_URL, never from the request: the reference's samples then read `curl http://host/api/v1/...`.
      expect(document.servers).toEqual([expect.objectContaining({ url: app.ctx.config.publicUrl })]);
      const forged = await (
        await fetch(new URL('/api/docs/openapi.json', app.baseUrl), { headers: { 'x-forwarded-host': 'evil.example' } })
      ).text();
      expect(forged).not.toContain('evil.example');

      const operationIds: string[] = [];
      type Operation = {
        operationId?: string;
        description?: string;
        'x-required-permission'?: string;
        parameters?: { in: string; name: string }[];
      };
      for (const [route, operations] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
        for (const [method, operation] of Object.entries(operations)) {
          const name = `${method.toUpperCase()} ${route}`;
          expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
          operationIds.push(String(operation.operationId));
          const permission = operation['x-required-permission'];
          expect(API_TOKEN_PERMISSIONS, name).toContain(permission as ApiTokenPermission);
          expect(operation.description, name).toContain(`Needs the \`${permission}\` permission`);
          if (method === 'post') {
            const headers = (operation.parameters ?? []).filter(
              (parameter: { in: string }) => parameter.in === 'header',
            );
            expect(
              headers.map((parameter: { name: string }) => parameter.name),
              name,
            ).toContain('idempotency-key');
          }
        }
      }
      expect(new Set(operationIds).size).toBe(operationIds.length);
      expect(document.paths['/api/v1/packages'].get.operationId).toBe('listPackages');
      expect(document.paths['/api/v1/licenses'].post.operationId).toBe('createLicense');
      // Which customers Analytics counts, and which the customer list holds.
      expect(document.paths['/api/v1/analytics'].get.description).toContain('totalCustomers counts buyers');
      expect(document.paths['/api/v1/customers'].get.description).toContain('Every license holder');
      expect(document.info.description).toContain(
        '`PACKAGE_ID` is the `id` of one of your packages in GET /api/v1/packages',
      );

      // The API refuses a license without an e-mail: the document says so. What it is for is one of packageId,
      // packageIds and productId (issue 31), so none of them is required alone.
      const createLicense = document.paths['/api/v1/licenses'].post.requestBody.content['application/json'].schema;
      expect(createLicense.required).toEqual(['email']);
      expect(Object.keys(createLicense.properties)).toEqual(
        expect.arrayContaining(['packageId', 'packageIds', 'productId']),
      );
      const writer = await createToken(sellerA, ['customers:write']);
      const refused = await call(writer.token, 'POST', '/api/v1/licenses', { packageId: widgetId });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('Email is required');
    });

    it('serves the interactive reference at /api/docs with its own script, allowed by the page CSP alone', async () => {
      const page = await fetch(new URL('/api/docs/', app.baseUrl));
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).not.toMatch(/<script[^>]+src="https?:/);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self' 'sha256-/);
      const script = await fetch(new URL('/api/docs/js/scalar.js', app.baseUrl));
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('javascript');
      // None of the tool's own links to outside services: its developer toolbar (Configure, Share, Deploy) and
      // Generate MCP are turned off in the page's configuration.
      expect(html).toMatch(/showDeveloperTools(&quot;|")?:\s*(&quot;|")never/);
      expect(html).toMatch(/mcp(&quot;|")?:\s*\{\s*(&quot;|")?disabled(&quot;|")?:\s*true/);
      // Elsewhere the app's CSP is unchanged.
      const other = await fetch(new URL('/api/csrf-token', app.baseUrl));
      expect(other.headers.get('content-security-policy')).not.toContain('sha256-');
    });
  });
});

/** "METHOD /path" of every /api/v1 route in Fastify's route tree (HEAD twins left out), with :param as {param}. */
function apiV1Routes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const start = line.search(/[^\s│├└─]/);
    if (start < 0) continue;
    const depth = Math.floor(start / 4);
    const match = /^(\S+) \(([^)]*)\)$/.exec(line.slice(start)) ?? /^(\S+)$/.exec(line.slice(start));
    if (!match) continue;
    stack.length = depth;
    stack.push(match[1]!);
    const fullPath = stack.join('').replace(/:(\w+)/g, '{$1}');
    if (!match[2] || !fullPath.startsWith('/api/v1/')) continue;
    for (const method of match[2].split(',').map((entry) => entry.trim())) {
      if (method !== 'HEAD') routes.push(`${method} ${fullPath}`);
    }
  }
  return routes;
}
