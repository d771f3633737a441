import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callApiV1 } from '../../../../test/support/http-client.js';
import { mailsTo } from '../../../../test/support/outbox.js';
import { giveTrial, insertPackage } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import { customers, grants, holderTokens, productPackages, products } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { seatLimitForHolder } from '../licenses/seats.service.js';

// Products and license terms through API v1 (issue 31): products made of a seller's own packages, a product's license
// covering packages added later, several packages licensed in one call (one e-mail, one transaction), and the version
// terms and seats every door checks the same way.

const start = new Date('2026-03-01T12:00:00.000Z');

describe('products and license terms (API v1)', () => {
  let app: TestApp;
  const clock = new TestClock(start);
  let seller: SignedIn;
  let other: SignedIn;
  let token: string;
  const ids: Record<string, string> = {};

  const call = (method: string, pathname: string, body?: unknown) =>
    callApiV1(app.baseUrl, token, method, `/api/v1${pathname}`, body);

  const productCount = async () => (await app.ctx.db.select().from(products)).length;
  const grantsOf = async (email: string) =>
    app.ctx.db
      .select({ grant: grants })
      .from(grants)
      .innerJoin(customers, eq(customers.id, grants.customerId))
      .where(and(eq(customers.email, email), eq(customers.sellerId, seller.user.id)));

  beforeAll(async () => {
    app = await startTestApp({ clock });
    seller = await signInSeller(app, { slug: 'acme' });
    other = await signInSeller(app, { slug: 'bobco' });
    await giveTrial(app, seller.user.id);
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      ids[name] = (await insertPackage(app, seller.user.id, `acme/${name}`)).id;
    ids.foreign = (await insertPackage(app, other.user.id, 'bobco/tool')).id;
  });

  // API v1 allows 30 requests a minute per token: each test starts with a token of its own.
  beforeEach(async () => {
    const response = await seller.client.post('/api/developer/tokens', {
      name: `shop ${Math.random()}`,
      permissions: ['packages:read', 'packages:write', 'customers:read', 'customers:write'],
    });
    token = ((await response.json()) as CreatedApiToken).token;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('creates, reads, renames and deletes a product of the seller’s own packages', async () => {
    const created = await call('POST', '/products', {
      name: 'Toolbox',
      description: 'Two tools',
      packageIds: [ids.a, ids.b],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Toolbox',
      description: 'Two tools',
      packages: [
        { id: ids.a, name: 'acme/a' },
        { id: ids.b, name: 'acme/b' },
      ],
      activeLicenses: 0,
    });
    const productId = created.body.data.id;

    expect((await call('GET', '/products')).body.data.map((product: { id: string }) => product.id)).toEqual([
      productId,
    ]);
    const changed = await call('PATCH', `/products/${productId}`, { name: 'Tool box', packageIds: [ids.b] });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Tool box', packages: [{ id: ids.b, name: 'acme/b' }] });
    expect((await call('GET', `/products/${productId}`)).body.data.name).toBe('Tool box');

    expect((await call('DELETE', `/products/${productId}`)).status).toBe(200);
    expect((await call('GET', `/products/${productId}`)).status).toBe(404);
  });

  it('refuses bad products with 400 naming the field and writes nothing', async () => {
    const before = await productCount();
    const cases: [unknown, RegExp][] = [
      [{ name: 'Empty', packageIds: [] }, /packageIds/],
      [{ name: 'Twice', packageIds: [ids.a, ids.a] }, /packageIds names a package twice/],
      [{ name: 'Foreign', packageIds: [ids.a, ids.foreign] }, /packageIds/],
      [{ name: 'Unknown', packageIds: ['00000000-0000-4000-8000-000000000000'] }, /packageIds/],
      [{ name: 'x'.repeat(101), packageIds: [ids.a] }, /name/],
      [{ name: '', packageIds: [ids.a] }, /name/],
      [{ name: 'Long', description: 'x'.repeat(1001), packageIds: [ids.a] }, /description/],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '/products', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect(await productCount()).toBe(before);
    // Another seller's product is not found.
    const theirs = await other.client.post('/api/products', { name: 'Theirs', packageIds: [ids.foreign] });
    expect(theirs.status).toBe(201);
    const theirId = ((await theirs.json()) as { id: string }).id;
    expect((await call('GET', `/products/${theirId}`)).status).toBe(404);
    expect((await call('PATCH', `/products/${theirId}`, { name: 'Mine' })).status).toBe(404);
  });

  it('licenses a product of three packages with one e-mail, and covers a fourth added later', async () => {
    const product = await call('POST', '/products', { name: 'Suite', packageIds: [ids.a, ids.b, ids.c] });
    const productId = product.body.data.id;
    const email = 'suite@example.com';
    const issued = await call('POST', '/licenses', {
      email,
      productId,
      versionConstraint: '^1.0',
      minimumStability: 'stable',
      seats: 5,
    });
    expect(issued.status).toBe(201);
    expect(issued.body.data.licenses).toHaveLength(1);
    expect(issued.body.data.license).toMatchObject({
      productId,
      packageId: null,
      packageName: 'Suite',
      versionConstraint: '^1.0',
      minimumStability: 'stable',
      seats: 5,
    });
    expect(issued.body.data.setupCommands.join('\n')).toContain('composer require acme/a acme/b acme/c');

    const mails = mailsTo(app.dataDir, email);
    expect(mails).toHaveLength(1);
    for (const name of ['acme/a', 'acme/b', 'acme/c']) expect(mails[0]!.body).toContain(name);
    expect(mails[0]!.body).toContain(
      'Suite: acme/a, acme/b, acme/c; versions ^1.0, stable releases only; 5 developer seats',
    );

    // A package added to the product afterwards is covered by the same license: no new license, no new e-mail.
    const added = await call('PATCH', `/products/${productId}`, { packageIds: [ids.a, ids.b, ids.c, ids.d] });
    expect(added.body.data.packages.map((pkg: { name: string }) => pkg.name)).toEqual([
      'acme/a',
      'acme/b',
      'acme/c',
      'acme/d',
    ]);
    expect(await grantsOf(email)).toHaveLength(1);
    const covered = await app.ctx.db
      .select({ packageId: productPackages.packageId })
      .from(productPackages)
      .where(eq(productPackages.productId, productId));
    expect(covered.map((row) => row.packageId).sort()).toEqual([ids.a, ids.b, ids.c, ids.d].sort());
    expect(mailsTo(app.dataDir, email)).toHaveLength(1);

    // The product's licenses are listed by product, and a product with an active license cannot be deleted.
    const listed = await call('GET', `/licenses?productId=${productId}`);
    expect(listed.body.data.map((license: { email: string }) => license.email)).toEqual([email]);
    const refused = await call('DELETE', `/products/${productId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/revoke them/);
    expect((await call('GET', `/products/${productId}`)).body.data.activeLicenses).toBe(1);
  });

  it('licenses several packages in one call: one license each, one e-mail; a bad id writes nothing', async () => {
    const email = 'many@example.com';
    const bad = await call('POST', '/licenses', { email, packageIds: [ids.a, ids.b, ids.foreign] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/packageIds/);
    const twice = await call('POST', '/licenses', { email, packageIds: [ids.a, ids.a] });
    expect(twice.status).toBe(400);
    const both = await call('POST', '/licenses', { email, packageId: ids.a, productId: ids.a });
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/exactly one of packageId, packageIds or productId/);
    expect(await grantsOf(email)).toHaveLength(0);
    expect(mailsTo(app.dataDir, email)).toHaveLength(0);

    const issued = await call('POST', '/licenses', { email, packageIds: [ids.a, ids.b, ids.e] });
    expect(issued.status).toBe(201);
    expect(issued.body.data.licenses.map((license: { packageName: string }) => license.packageName)).toEqual([
      'acme/a',
      'acme/b',
      'acme/e',
    ]);
    expect(issued.body.data.composerToken).toMatch(/^pgc_/);
    expect(await grantsOf(email)).toHaveLength(3);
    const mails = mailsTo(app.dataDir, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('acme/a, acme/b, acme/e');
    // The setup commands once, requiring every package in one command.
    const requires = mails[0]!.body.match(/composer require [^\n<]*/g) ?? [];
    expect(requires.length).toBeGreaterThan(0);
    expect(new Set(requires)).toEqual(new Set(['composer require acme/a acme/b acme/e']));
  });

  it('refuses bad terms with 400 naming the field and writes nothing', async () => {
    const email = 'terms@example.com';
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ versionConstraint: '^^1.0 nonsense' }, /versionConstraint/],
      [{ versionConstraint: `^1.0${' '.repeat(200)}|| ^2.0` }, /versionConstraint/],
      [{ minimumStability: 'gamma' }, /minimumStability/],
      [{ seats: 0 }, /seats/],
      [{ seats: 1.5 }, /seats/],
    ];
    for (const [terms, message] of cases) {
      const answer = await call('POST', '/licenses', { email, packageId: ids.a, ...terms });
      expect(answer.status, JSON.stringify(terms)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect(await grantsOf(email)).toHaveLength(0);
    expect(mailsTo(app.dataDir, email)).toHaveLength(0);

    const issued = await call('POST', '/licenses', { email, packageId: ids.a, versionConstraint: '>=2.0 <3.0' });
    expect(issued.status).toBe(201);
    const licenseId = issued.body.data.license.id;
    const patched = await call('PATCH', `/licenses/${licenseId}`, { versionConstraint: 'not a range' });
    expect(patched.status).toBe(400);
    expect(patched.body.message).toMatch(/versionConstraint/);
    expect((await call('GET', `/licenses/${licenseId}`)).body.data.versionConstraint).toBe('>=2.0 <3.0');
  });

  it('refuses seats below the developer tokens the holder already has, and tells credentials the limit', async () => {
    const email = 'seats@example.com';
    const issued = await call('POST', '/licenses', { email, packageId: ids.b });
    const licenseId = issued.body.data.license.id;
    const [holder] = await app.ctx.db.select().from(customers).where(eq(customers.email, email));
    expect(await seatLimitForHolder(app.ctx, holder!.id)).toBeNull();
    // The holder's first token and two more developer tokens, a CI token (takes no seat) and a revoked one.
    const extra = [
      { name: 'laptop', kind: 'developer' as const },
      { name: 'desktop', kind: 'developer' as const },
      { name: 'ci', kind: 'ci' as const },
      { name: 'old', kind: 'developer' as const, revokedAt: start },
    ];
    for (const row of extra) {
      await app.ctx.db
        .insert(holderTokens)
        .values({ customerId: holder!.id, tokenHash: sha256Hex(`${email}-${row.name}`), ...row });
    }

    const refused = await call('PATCH', `/licenses/${licenseId}`, { seats: 2 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/seats \(2\) is below the 3 developer tokens/);
    expect((await call('GET', `/licenses/${licenseId}`)).body.data.seats).toBeNull();

    const refusedNew = await call('POST', '/licenses', { email, packageId: ids.c, seats: 1 });
    expect(refusedNew.status).toBe(400);
    expect(refusedNew.body.message).toMatch(/seats/);
    expect(await grantsOf(email)).toHaveLength(1);

    expect((await call('PATCH', `/licenses/${licenseId}`, { seats: 3 })).status).toBe(200);
    expect(await seatLimitForHolder(app.ctx, holder!.id)).toBe(3);
    expect((await call('POST', '/licenses', { email, packageId: ids.c, seats: 10 })).status).toBe(201);
    // The smallest seats among the holder's licenses that give access.
    expect(await seatLimitForHolder(app.ctx, holder!.id)).toBe(3);
    expect((await call('DELETE', `/licenses/${licenseId}`)).status).toBe(200);
    expect(await seatLimitForHolder(app.ctx, holder!.id)).toBe(10);
  });
  it('sells a price for a version range: the paid license covers that range only', async () => {
    const tiersPath = `/api/repositories/${ids.e}/pricing-tiers`;
    const tier = {
      name: 'Version 2 licence',
      pricingType: 'one_time',
      updateMonths: 12,
      priceCents: 4900,
      currency: 'usd',
    };
    const refused = await seller.client.put(tiersPath, { tiers: [{ ...tier, versionConstraint: '^^2 nonsense' }] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(/versionConstraint/);

    const saved = await seller.client.put(tiersPath, { tiers: [{ ...tier, versionConstraint: '^2.0' }] });
    expect(saved.status).toBe(200);
    const [priced] = (await saved.json()) as { id: string; versionConstraint: string | null }[];
    expect(priced?.versionConstraint).toBe('^2.0');

    const email = 'v2-buyer@example.com';
    const bought = await seller.client.post(`/api/repositories/${ids.e}/test-purchase`, { tierId: priced!.id, email });
    expect(bought.status).toBeLessThan(300);
    const [held] = await grantsOf(email);
    expect(held?.grant).toMatchObject({ packageId: ids.e, kind: 'purchase', versionConstraint: '^2.0' });
  });
});
