import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  type FixtureHolder,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { TestClient } from '../../../../test/support/http-client.js';
import { createTestUser, type SignedIn, signIn, signInSeller } from '../../../../test/support/sessions.js';
import { type TestApp, TestClock, testAppAroundTests } from '../../../../test/support/test-app.js';
import { ACCOUNT_EXPORT_LISTS } from '../../../contract/account.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import {
  auditEvents,
  brandSettings,
  customers,
  downloads,
  grants,
  jobs,
  organizationMembers,
  packagePrices,
  portalSessions,
  sales,
  sessions,
  users,
  webhookEndpoints,
} from '../../db/schema/index.js';
import { CLOSED_ACCOUNT_MESSAGE } from '../../http/permissions.js';
import { sessionCookieName } from '../../http/session.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';
import { readTar } from '../../lib/tar.js';
import { SELLER_CLOSED_MESSAGE } from '../sales/account-closing.service.js';

// A seller's data to take away and to erase (issue 35 item 5), against the real app: the export holds every list of
// the seller and nothing of another seller, only the owner (or a full-access API token) may take it, closing the
// account ends every holder's Composer access at once, and after the retention the personal data is gone while the
// sales stay.

const NOW = new Date('2026-03-10T12:00:00Z');
const DAY_MS = 86_400_000;

type Shop = {
  owner: SignedIn;
  pkg: FixturePackage;
  holder: FixtureHolder;
  secret: string;
  apiToken: string;
};

async function openShop(app: TestApp, slug: string): Promise<Shop> {
  const owner = await signInSeller(app, { slug, email: `${slug}-owner@example.com` });
  const pkg = await createPackage(app, owner.user, `${slug}/widget`, [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  const holder = await createHolder(app, owner.user, `${slug}-holder@example.com`);
  const grant = await createGrant(app, holder, pkg);
  // A note a spreadsheet would run as a formula, were it not guarded.
  await app.ctx.db
    .update(grants)
    .set({ note: `=HYPERLINK("http://${slug}.example")` })
    .where(eq(grants.id, grant.id));
  await app.ctx.db
    .insert(downloads)
    .values({ grantId: grant.id, packageId: pkg.id, version: '1.0.0.0', clientNetwork: '203.0.113.0/24' });
  const [price] = await app.ctx.db
    .insert(packagePrices)
    .values({
      packageId: pkg.id,
      sellerId: owner.user.id,
      name: `${slug} yearly`,
      pricingType: 'one_time',
      priceCents: 9900,
      currency: 'eur',
      updateMonths: 12,
    })
    .returning();
  await app.ctx.db.insert(sales).values({
    sellerId: owner.user.id,
    packageId: pkg.id,
    priceId: price!.id,
    status: 'paid',
    pricingType: 'one_time',
    tierName: `${slug} yearly`,
    customerEmail: `${slug}-buyer@example.com`,
    customerId: holder.id,
    grantId: grant.id,
    amountCents: 9900,
    feeCents: 495,
    currency: 'eur',
    invoiceId: `in_${slug}`,
    paidAt: NOW,
  });
  const secret = `whsec_${slug}_never_exported`;
  await app.ctx.db.insert(webhookEndpoints).values({
    sellerId: owner.user.id,
    url: `https://${slug}.example/hooks`,
    events: ['license.created'],
    secretSealed: secret,
    createdAt: NOW,
    updatedAt: NOW,
  });
  await app.ctx.db.insert(brandSettings).values({ userId: owner.user.id, brandName: `${slug} brand` });
  const created = await owner.client.post('/api/developer/tokens', { name: 'export', permissions: ['*'] });
  expect(created.status).toBe(201);
  const { token } = (await created.json()) as CreatedApiToken;
  return { owner, pkg, holder, secret, apiToken: token };
}

type Archive = { names: string[]; files: Map<string, string> };

async function readArchive(body: Buffer): Promise<Archive> {
  const files = new Map<string, string>();
  const names: string[] = [];
  for await (const entry of readTar(Readable.from(body).pipe(createGunzip()))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    const name = entry.name.slice(entry.name.indexOf('/') + 1);
    names.push(name);
    files.set(name, Buffer.concat(chunks).toString('utf8'));
  }
  return { names, files };
}

async function download(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

async function memberClient(app: TestApp, organizationId: string, role: 'admin' | 'developer'): Promise<TestClient> {
  const person = await createTestUser(app);
  await app.ctx.db.insert(organizationMembers).values({ organizationId, userId: person.id, role });
  const cookie = generateToken('pgs');
  await app.ctx.db.insert(sessions).values({
    idHash: sha256Hex(cookie),
    userId: person.id,
    organizationId,
    createdAt: NOW,
    lastSeenAt: NOW,
    expiresAt: new Date(NOW.getTime() + DAY_MS),
  });
  const client = new TestClient(app.baseUrl);
  client.setCookie(sessionCookieName(app.ctx), cookie);
  return client;
}

describe('a seller account: export, closing and erasure', () => {
  const clock = new TestClock(NOW);
  const started = testAppAroundTests({ clock, env: { ACCOUNT_RETENTION_DAYS: '30' } });
  let acme: Shop;
  let rival: Shop;

  beforeAll(async () => {
    acme = await openShop(started.app, 'acme');
    rival = await openShop(started.app, 'rival');
  });

  function expectOnlyShop(archive: Archive, own: Shop, other: Shop, slug: string, otherSlug: string) {
    expect(archive.names).toEqual(['data.json', ...ACCOUNT_EXPORT_LISTS.map((list) => `${list}.csv`)]);
    const data = JSON.parse(archive.files.get('data.json')!) as Record<string, unknown>;
    expect((data.account as { slug: string }).slug).toBe(slug);
    for (const list of ACCOUNT_EXPORT_LISTS) {
      expect((data[list] as unknown[]).length, list).toBeGreaterThan(0);
      // A header line and at least one row.
      expect(archive.files.get(`${list}.csv`)!.trimEnd().split('\r\n').length, list).toBeGreaterThan(1);
    }
    const everything = [...archive.files.values()].join('\n');
    expect(everything).toContain(`${slug}-holder@example.com`);
    expect(everything).toContain(own.pkg.id);
    expect(everything).not.toContain(otherSlug);
    expect(everything).not.toContain(other.pkg.id);
    expect(everything).not.toContain(other.holder.id);
    // No credential leaves: holder token (or its hash), signing secret, API token.
    expect(everything).not.toContain(own.secret);
    expect(everything).not.toContain(sha256Hex(own.holder.token));
    expect(everything).not.toContain(own.holder.token);
    expect(everything).not.toContain(own.apiToken);
    // The note's formula reaches the CSV as text.
    expect(archive.files.get('licenses.csv')).toContain(`"'=HYPERLINK(""http://${slug}.example"")"`);
  }

  it("gives the owner an archive of every list of the seller's and nothing of another seller", async () => {
    const { response, body } = await download(new URL('/api/account/export', started.app.baseUrl).href, {
      cookie: `${acme.owner.cookieName}=${acme.owner.cookie}`,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="packgate-export-acme-2026-03-10.tar.gz"',
    );
    expectOnlyShop(await readArchive(body), acme, rival, 'acme', 'rival');
  });

  it('gives the same archive to a full-access API token, each seller its own', async () => {
    const { response, body } = await download(new URL('/api/v1/export', started.app.baseUrl).href, {
      authorization: `Bearer ${rival.apiToken}`,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('packgate-export-rival-2026-03-10.tar.gz');
    expectOnlyShop(await readArchive(body), rival, acme, 'rival', 'acme');
  });

  it('refuses a member who is not the owner and an API token without full access', async () => {
    const admin = await memberClient(started.app, acme.owner.user.id, 'admin');
    const refused = await admin.get('/api/account/export');
    expect(refused.status).toBe(403);
    // Not with the admin's own full-access API token either.
    const adminToken = await admin.post('/api/developer/tokens', { name: 'admin', permissions: ['*'] });
    expect(adminToken.status).toBe(201);
    const byAdmin = await fetch(new URL('/api/v1/export', started.app.baseUrl), {
      headers: { authorization: `Bearer ${((await adminToken.json()) as CreatedApiToken).token}` },
    });
    expect(byAdmin.status).toBe(403);
    expect((await admin.post('/api/account/close', { confirmSlug: 'acme' })).status).toBe(403);

    const created = await acme.owner.client.post('/api/developer/tokens', {
      name: 'read',
      permissions: ['packages:read'],
    });
    const { token } = (await created.json()) as CreatedApiToken;
    const scoped = await fetch(new URL('/api/v1/export', started.app.baseUrl), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(scoped.status).toBe(403);
    expect(((await scoped.json()) as { message: string }).message).toContain('*');
  });

  it("gives a license holder in the seller's portal their own licenses and downloads, no one else's", async () => {
    const other = await createHolder(started.app, acme.owner.user, 'acme-other@example.com');
    const otherGrant = await createGrant(started.app, other, acme.pkg);
    await started.app.ctx.db
      .insert(downloads)
      .values({ grantId: otherGrant.id, packageId: acme.pkg.id, version: '9.9.9.9', clientNetwork: '198.51.100.0/24' });
    const cookie = generateToken('pgps');
    await started.app.ctx.db.insert(portalSessions).values({
      idHash: sha256Hex(cookie),
      customerId: acme.holder.id,
      createdAt: NOW,
      lastSeenAt: NOW,
      expiresAt: new Date(NOW.getTime() + DAY_MS),
    });
    const host = 'acme.composer.localhost';
    const answer = await requestOnHost(started.app, host, '/api/portal/export', {
      headers: { cookie: `packgate_portal=${cookie}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="my-licenses-2026-03-10.json"');
    const data = jsonOf<{ holder: { email: string }; licenses: { package: string }[]; downloads: unknown[] }>(answer);
    expect(data.holder.email).toBe('acme-holder@example.com');
    expect(data.licenses.map((license) => license.package)).toEqual(['acme/widget']);
    expect(data.downloads).toEqual([expect.objectContaining({ package: 'acme/widget', version: '1.0.0.0' })]);
    const text = answer.body.toString('utf8');
    expect(text).not.toContain('acme-other@example.com');
    expect(text).not.toContain(otherGrant.id);
    expect(text).not.toContain('rival');
    expect(text).not.toContain(sha256Hex(acme.holder.token));

    // Signed out, or on another seller's host, there is nothing to download.
    expect((await requestOnHost(started.app, host, '/api/portal/export')).status).toBe(401);
    const elsewhere = await requestOnHost(started.app, 'rival.composer.localhost', '/api/portal/export', {
      headers: { cookie: `packgate_portal=${cookie}` },
    });
    expect(elsewhere.status).toBe(401);
  });

  it('refuses to close without the slug typed, changing nothing', async () => {
    const refused = await acme.owner.client.post('/api/account/close', { confirmSlug: 'acme-typo' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "Type the account's slug (acme) to confirm closing it.",
    );
    const [account] = await started.app.ctx.db.select().from(users).where(eq(users.id, acme.owner.user.id));
    expect(account!.closedAt).toBeNull();
  });

  it("closes the account: holders' Composer access, API tokens and sessions end; the personal data goes after the retention, the sales stay", async () => {
    const host = 'acme.composer.localhost';
    expect((await requestOnHost(started.app, host, '/packages.json', { token: acme.holder.token })).status).toBe(200);

    const closed = await acme.owner.client.post('/api/account/close', { confirmSlug: 'acme' });
    expect(closed.status).toBe(200);
    const status = (await closed.json()) as { closedAt: string; eraseAfter: string };
    expect(status.closedAt).toBe(NOW.toISOString());
    expect(status.eraseAfter).toBe(new Date(NOW.getTime() + 30 * DAY_MS).toISOString());

    expect([401, 403]).toContain(
      (await requestOnHost(started.app, host, '/packages.json', { token: acme.holder.token })).status,
    );
    const api = await fetch(new URL('/api/v1/export', started.app.baseUrl), {
      headers: { authorization: `Bearer ${acme.apiToken}` },
    });
    expect(api.status).toBe(401);
    expect((await acme.owner.client.get('/api/account')).status).toBe(401);
    const licenses = await started.app.ctx.db.select().from(grants).where(eq(grants.customerId, acme.holder.id));
    expect(licenses.map((grant) => grant.status)).toEqual(['revoked']);
    const prices = await started.app.ctx.db
      .select()
      .from(packagePrices)
      .where(eq(packagePrices.sellerId, acme.owner.user.id));
    expect(prices.map((price) => price.isActive)).toEqual([false]);
    const hooks = await started.app.ctx.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.sellerId, acme.owner.user.id));
    expect(hooks.map((hook) => hook.isEnabled)).toEqual([false]);
    const audit = await started.app.ctx.db.select().from(auditEvents).where(eq(auditEvents.userId, acme.owner.user.id));
    expect(audit.map((event) => event.action)).toContain('account.closed');
    // A buyer on the seller's host is told the seller stopped selling.
    const checkout = await requestOnHost(started.app, host, '/api/purchase/checkout', {
      method: 'POST',
      body: JSON.stringify({ packageId: acme.pkg.id, tierId: prices[0]!.id, email: 'buyer@example.com' }),
    });
    expect(checkout.status).toBe(409);
    expect(jsonOf<{ message: string }>(checkout).message).toBe(SELLER_CLOSED_MESSAGE);
    // The rival's holder still installs.
    expect(
      (await requestOnHost(started.app, 'rival.composer.localhost', '/packages.json', { token: rival.holder.token }))
        .status,
    ).toBe(200);

    // Signing in again: the account says it is closed, and the export is still there.
    const owner = await signIn(started.app, { user: acme.owner.user });
    const account = (await (await owner.client.get('/api/account')).json()) as { closedAt: string | null };
    expect(account.closedAt).toBe(NOW.toISOString());
    expect((await owner.client.get('/api/account/export')).status).toBe(200);
    // It is read-only now: nothing in it changes until the erasure.
    expect((await owner.client.get('/api/repositories')).status).toBe(200);
    const change = await owner.client.post('/api/repositories', { name: 'acme/after-closing' });
    expect(change.status).toBe(403);
    expect(((await change.json()) as { message: string }).message).toBe(CLOSED_ACCOUNT_MESSAGE);

    // After the retention, the erasure job runs.
    const [job] = await started.app.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.reference, `account:${acme.owner.user.id}`));
    expect(job).toBeDefined();
    clock.advance(30 * DAY_MS + 1000);
    const finished = await started.app.ctx.jobs.runNow(job!.id);
    expect(finished?.status).toBe('completed');

    const [erased] = await started.app.ctx.db.select().from(users).where(eq(users.id, acme.owner.user.id));
    expect(erased!.email).toBeNull();
    const [holder] = await started.app.ctx.db.select().from(customers).where(eq(customers.id, acme.holder.id));
    expect(holder!.email).toBe(`erased-${acme.holder.id}@erased.invalid`);
    const acmeDownloads = await started.app.ctx.db.select().from(downloads).where(eq(downloads.packageId, acme.pkg.id));
    expect(acmeDownloads.map((row) => row.clientNetwork)).toEqual([null, null]);
    const [sale] = await started.app.ctx.db.select().from(sales).where(eq(sales.sellerId, acme.owner.user.id));
    expect(sale).toMatchObject({ amountCents: 9900, currency: 'eur', invoiceId: 'in_acme', status: 'paid' });
    expect(sale!.customerEmail).toBe('erased@erased.invalid');
    const [brand] = await started.app.ctx.db
      .select()
      .from(brandSettings)
      .where(eq(brandSettings.userId, acme.owner.user.id));
    expect(brand!.brandName).toBeNull();
    // The other seller keeps everything.
    const [rivalHolder] = await started.app.ctx.db.select().from(customers).where(eq(customers.id, rival.holder.id));
    expect(rivalHolder!.email).toBe('rival-holder@example.com');
  });
});
