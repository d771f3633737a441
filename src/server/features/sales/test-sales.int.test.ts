import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackage,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { mailsTo, readOutbox } from '../../../../test/support/outbox.js';
import { giveActivePlan } from '../../../../test/support/packages.js';
import { purchasePageJson } from '../../../../test/support/purchase-pages.js';
import { type SignedIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type { AdminStats } from '../../../contract/admin.js';
import type { P2File } from '../../../contract/composer.js';
import {
  BILLING_OFF_REVENUE_NOTE,
  type PackagePrice,
  type PurchasePage,
  type PurchaseResult,
  type StartCheckoutResponse,
  salesMessages,
} from '../../../contract/sales.js';
import { auditEvents, customers, grants, sales } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// Selling with billing off (the embedded default; DESIGN "Selling", issue 28): no buyer can check out, paid or
// not, and no GET of a purchase link writes anything; the signed-in seller runs a test purchase of their own package,
// which completes at once without a provider and runs the whole flow (the grant, the e-mail, the token on the
// success page, the Composer repository), marked as a test wherever it shows and left out of the money figures.

const NOW = new Date('2026-03-01T12:00:00Z');
const HOST = 'acme.composer.localhost';
const TOKEN_PATTERN = /pgc_[A-Za-z0-9]{36}/;

let app: TestApp;
const clock = new TestClock(NOW);
let seller: SignedIn;
let otherSeller: SignedIn;
let admin: SignedIn;
let widget: FixturePackage;
let gadget: FixturePackage;

const tiersPath = (id: string) => `/api/repositories/${id}/pricing-tiers`;
const testPurchasePath = (id: string) => `/api/repositories/${id}/test-purchase`;
const oneTime = { name: 'Lifetime', pricingType: 'one_time', updateMonths: 1, priceCents: 1999, currency: 'usd' };

const onHost = <T>(path: string, body?: unknown) => purchasePageJson<T>(app, HOST, path, body);

async function putTiers(packageId: string, tiers: unknown[]) {
  const response = await seller.client.put(tiersPath(packageId), { tiers });
  return { status: response.status, body: await response.json() };
}

/** Everything a sale may write: sales, grants, license holders, audit events and mail. */
async function sellingState() {
  const [salesRows, grantRows, customerRows, auditRows] = await Promise.all([
    app.ctx.db.select().from(sales),
    app.ctx.db.select().from(grants),
    app.ctx.db.select().from(customers),
    app.ctx.db.select().from(auditEvents),
  ]);
  return { salesRows, grantRows, customerRows, auditRows, mail: readOutbox(app.dataDir).length };
}

/** The seller's test purchase, followed to its success page on the repository host. */
async function testPurchase(packageId: string, tierId: string, email?: string): Promise<PurchaseResult> {
  const started = await seller.client.post(testPurchasePath(packageId), { tierId, ...(email ? { email } : {}) });
  expect(started.status, await started.clone().text()).toBe(200);
  const body = (await started.json()) as StartCheckoutResponse;
  expect(body.testMode).toBe(true);
  const successUrl = new URL(body.checkoutUrl);
  expect(successUrl.host).toBe(`${HOST}:${app.port}`);
  expect(successUrl.pathname).toBe('/purchase/success');
  expect(successUrl.searchParams.get('session_id')).toBe(body.sessionId);
  const result = await onHost<PurchaseResult>(`/api/purchase/sessions/${encodeURIComponent(body.sessionId)}`);
  expect(result.status).toBe(200);
  return result.body;
}

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: YEAR_LONG_SESSIONS,
  });
  seller = await signInSeller(app, { slug: 'acme', email: 'owner@acme.example' });
  otherSeller = await signInSeller(app, { slug: 'globex' });
  admin = await signInAdmin(app);
  // A paying seller: the clock moves past a trial's end in these tests.
  await giveActivePlan(app, seller.user.id, new Date('2027-03-01T00:00:00Z'));
  widget = await createPackage(app, seller.user, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-03-20T10:00:00Z' },
    { version: 'v2.0.0', releasedAt: '2026-05-01T10:00:00Z' },
  ]);
  gadget = await createPackage(app, seller.user, 'acme/gadget', [
    { version: 'v0.1.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
});

afterAll(async () => {
  await app?.close();
});

describe('pricing tiers', () => {
  it('refuses bad prices, currencies and tiers with a clear error and changes nothing', async () => {
    const negative = await putTiers(widget.id, [{ ...oneTime, priceCents: -100 }]);
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({ message: salesMessages.priceInvalid, code: 'VALIDATION_FAILED' });
    const mixed = await putTiers(widget.id, [oneTime, { ...oneTime, name: 'Euro', currency: 'eur' }]);
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toBe(salesMessages.currencyMismatch);
    const unknown = await putTiers(widget.id, [{ ...oneTime, id: '00000000-0000-4000-8000-000000000000' }]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(salesMessages.unknownTier);
    const noInterval = await putTiers(widget.id, [{ ...oneTime, pricingType: 'subscription', updateMonths: null }]);
    expect(noInterval.status).toBe(400);
    expect(noInterval.body.message).toBe(salesMessages.intervalRequired);
    const listed = await seller.client.get(tiersPath(widget.id));
    expect(await listed.json()).toEqual([]);
  });

  it('keeps one currency per seller across packages', async () => {
    const first = await putTiers(gadget.id, [{ ...oneTime, priceCents: 500 }]);
    expect(first.status).toBe(200);
    const other = await putTiers(widget.id, [{ ...oneTime, currency: 'eur' }]);
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(salesMessages.currencyMismatch);
  });

  it('replaces the list of tiers and shows the active ones on the purchase page of the seller host', async () => {
    const saved = await putTiers(widget.id, [
      oneTime,
      {
        name: 'Monthly',
        pricingType: 'subscription',
        interval: 'month',
        trialDays: 7,
        priceCents: 990,
        currency: 'usd',
      },
      {
        name: 'Hidden',
        pricingType: 'subscription',
        interval: 'year',
        priceCents: 9900,
        currency: 'usd',
        isActive: false,
      },
    ]);
    expect(saved.status).toBe(200);
    const tiers = saved.body as PackagePrice[];
    expect(tiers.map((tier) => [tier.name, tier.isActive, tier.sortOrder])).toEqual([
      ['Lifetime', true, 0],
      ['Monthly', true, 1],
      ['Hidden', false, 2],
    ]);
    const page = await onHost<PurchasePage>(`/api/purchase/packages/${widget.id}`);
    expect(page.status).toBe(200);
    // The tiers show, but nobody can buy them: the page says payments are not set up.
    expect(page.body.canCheckout).toBe(false);
    expect(page.body.tiers.map((tier) => tier.name)).toEqual(['Lifetime', 'Monthly']);
    // Another host, or the app's own, sells nothing of acme's.
    const elsewhere = await requestOnHost(app, 'globex.composer.localhost', `/api/purchase/packages/${widget.id}`);
    expect(elsewhere.status).toBe(404);
  });
});

describe('a buyer with billing off', () => {
  let lifetimeTierId: string;

  beforeAll(async () => {
    const tiers = (await (await seller.client.get(tiersPath(widget.id))).json()) as PackagePrice[];
    lifetimeTierId = tiers.find((tier) => tier.name === 'Lifetime')!.id;
  });

  it('is refused at checkout with "Payments are not set up for this seller", and nothing is recorded or sent', async () => {
    const before = await sellingState();
    const refused = await onHost<{ message: string; code: string; status: number; error: string }>(
      '/api/purchase/checkout',
      { packageId: widget.id, tierId: lifetimeTierId, email: 'freeloader@example.com' },
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'Conflict',
      message: 'Payments are not set up for this seller',
      status: 409,
      code: 'CONFLICT',
      requestId: expect.any(String),
    });
    expect(refused.body.message).toBe(salesMessages.paymentsNotSetUp);
    // Without an e-mail: refused the same way, before anything is asked of the buyer.
    const noEmail = await onHost<{ message: string }>('/api/purchase/checkout', {
      packageId: widget.id,
      tierId: lifetimeTierId,
    });
    expect(noEmail.status).toBe(409);
    expect(noEmail.body.message).toBe(salesMessages.paymentsNotSetUp);
    expect(await sellingState()).toEqual(before);
    expect(before.salesRows).toEqual([]);
  });

  it('is sent from the direct-checkout link to the purchase page, and opening the link writes nothing', async () => {
    const before = await sellingState();
    const query = new URLSearchParams({
      package: widget.id,
      tier: lifetimeTierId,
      email: 'preview@example.com',
      successUrl: 'https://shop.example/thanks',
    });
    for (const method of ['GET', 'HEAD'] as const) {
      const opened = await requestOnHost(app, HOST, `/api/purchase/checkout?${query}`, { method });
      expect(opened.status).toBe(303);
      const location = new URL(String(opened.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(`http://${HOST}:${app.port}/purchase`);
      expect(Object.fromEntries(location.searchParams)).toEqual(Object.fromEntries(query));
    }
    expect(await sellingState()).toEqual(before);
  });

  it('cannot name return addresses of its own: only a purchase link’s signed ones are taken', async () => {
    // Checked before anything else could be written; with billing off the checkout is refused anyway.
    const forged = await onHost<{ message: string }>('/api/purchase/checkout', {
      packageId: widget.id,
      tierId: lifetimeTierId,
      email: 'buyer@example.com',
      successUrl: 'https://evil.example/steal?session={CHECKOUT_SESSION_ID}',
    });
    expect(forged.status).toBe(409);
    expect(await app.ctx.db.select().from(sales)).toEqual([]);
  });
});

describe('the seller’s test purchase', () => {
  let lifetimeTierId: string;
  let token: string;
  const buyer = 'buyer@example.com';

  beforeAll(async () => {
    const tiers = (await (await seller.client.get(tiersPath(widget.id))).json()) as PackagePrice[];
    lifetimeTierId = tiers.find((tier) => tier.name === 'Lifetime')!.id;
  });

  it('is not for anyone else: no session, no CSRF token or another seller’s session change nothing', async () => {
    const before = await sellingState();
    const anonymous = await fetch(new URL(testPurchasePath(widget.id), app.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tierId: lifetimeTierId, email: buyer }),
    });
    expect(anonymous.status).toBe(401);
    const noCsrf = await seller.client.post(
      testPurchasePath(widget.id),
      { tierId: lifetimeTierId, email: buyer },
      { csrf: false },
    );
    expect(noCsrf.status).toBe(403);
    const foreign = await otherSeller.client.post(testPurchasePath(widget.id), {
      tierId: lifetimeTierId,
      email: buyer,
    });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { message: string }).message).toBe(salesMessages.packageNotForSale);
    // Nor on the seller's repository host, where the purchase pages are.
    const onRepositoryHost = await requestOnHost(app, HOST, testPurchasePath(widget.id), {
      method: 'POST',
      body: JSON.stringify({ tierId: lifetimeTierId, email: buyer }),
    });
    expect([401, 404]).toContain(onRepositoryHost.status);
    expect(await sellingState()).toEqual(before);
  });

  it('refuses an unknown tier and a bad e-mail, and records no sale', async () => {
    const unknownTier = await seller.client.post(testPurchasePath(widget.id), { tierId: gadget.id, email: buyer });
    expect(unknownTier.status).toBe(404);
    expect(((await unknownTier.json()) as { message: string }).message).toBe(salesMessages.unknownTier);
    const badEmail = await seller.client.post(testPurchasePath(widget.id), {
      tierId: lifetimeTierId,
      email: 'not an address',
    });
    expect(badEmail.status).toBe(400);
    expect(await app.ctx.db.select().from(sales)).toEqual([]);
  });

  it('completes at once, marked test: a purchase grant, the 5% fee stored, the token on the success page and in the e-mail', async () => {
    const result = await testPurchase(widget.id, lifetimeTierId, buyer);
    expect(result).toMatchObject({
      status: 'complete',
      packageName: 'acme/widget',
      repositoryUrl: `http://${HOST}:${app.port}`,
      hasExistingToken: false,
      customerEmail: buyer,
      testMode: true,
    });
    expect(result.token).toMatch(TOKEN_PATTERN);
    token = result.token!;
    expect(result.setupCommands).toContain(`composer config bearer.${HOST}:${app.port} ${token}`);
    expect(result.setupCommands).toContain('composer require acme/widget');

    const [sale] = await app.ctx.db.select().from(sales);
    expect(sale).toMatchObject({ status: 'paid', isTest: true, amountCents: 1999, feeCents: 100, currency: 'usd' });
    const [grant] = await app.ctx.db.select().from(grants).where(eq(grants.id, sale!.grantId!));
    expect(grant).toMatchObject({
      kind: 'purchase',
      status: 'active',
      endMode: 'updates',
      note: 'Test purchase: Lifetime',
    });
    expect(grant!.expiresAt).toEqual(new Date('2026-04-01T12:00:00Z'));
    const [audit] = await app.ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'sale.test_purchase'));
    expect(audit).toMatchObject({ userId: seller.user.id, actorType: 'session', targetId: sale!.id });

    await expect.poll(() => mailsTo(app.dataDir, buyer).length).toBe(1);
    const [mail] = mailsTo(app.dataDir, buyer);
    expect(mail!.body).toContain(token);
    expect(mail!.body).toContain(`http://${HOST}:${app.port}`);
    expect(mail!.subject).toMatch(/^\[Test\] /);
    expect(mail!.body).toContain('This is a test purchase made by the seller: no payment was taken.');
  });

  it('goes to the seller’s own address when no e-mail is given', async () => {
    const [gadgetTier] = (await (await seller.client.get(tiersPath(gadget.id))).json()) as PackagePrice[];
    const result = await testPurchase(gadget.id, gadgetTier!.id);
    expect(result).toMatchObject({ status: 'complete', customerEmail: 'owner@acme.example', testMode: true });
  });

  it('installs with the token, and after the update window keeps only versions released within it', async () => {
    const p2 = async () => requestOnHost(app, HOST, '/p2/acme/widget.json', { token });
    const index = await requestOnHost(app, HOST, '/packages.json', { token });
    expect(jsonOf<{ 'available-packages': string[] }>(index)['available-packages']).toEqual(['acme/widget']);
    const before = await p2();
    expect(before.status).toBe(200);
    expect(
      jsonOf<P2File>(before)
        .packages['acme/widget']!.map((entry) => entry.version)
        .sort(),
    ).toEqual(['v1.0.0', 'v1.1.0', 'v2.0.0']);
    clock.advance(45 * DAY_MS); // past 2026-04-01: frozen
    const after = await p2();
    expect(after.status).toBe(200);
    expect(
      jsonOf<P2File>(after)
        .packages['acme/widget']!.map((entry) => entry.version)
        .sort(),
    ).toEqual(['v1.0.0', 'v1.1.0']);
    const newer = await requestOnHost(app, HOST, '/api/composer/download/acme/widget/v2.0.0', { token });
    expect(newer.status).not.toBe(200);
  });

  it('adds a second package to the returning buyer’s token instead of issuing another', async () => {
    const [gadgetTier] = (await (await seller.client.get(tiersPath(gadget.id))).json()) as PackagePrice[];
    const result = await testPurchase(gadget.id, gadgetTier!.id, buyer);
    expect(result).toMatchObject({ status: 'complete', token: null, hasExistingToken: true, testMode: true });
    expect(result.setupCommands.join('\n')).toContain('YOUR_TOKEN');
    const p2 = await requestOnHost(app, HOST, '/p2/acme/gadget.json', { token });
    expect(p2.status).toBe(200);
  });

  it('lists the test sales marked test, and counts no money for them, for the seller or the platform', async () => {
    const summary = await (await seller.client.get('/api/sales/summary')).json();
    expect(summary).toMatchObject({
      totalSalesCents: 0,
      totalSalesFormatted: '$0.00',
      monthlySalesCents: 0,
      totalPurchases: 0,
      totalCustomers: 0,
      feesCents: 0,
      currency: 'usd',
    });
    expect(summary.recentSales).toHaveLength(3);
    expect(summary.recentSales.every((sale: { test: boolean }) => sale.test)).toBe(true);
    const stats = (await (await admin.client.get('/api/admin/stats')).json()) as AdminStats;
    expect(stats).toMatchObject({
      platformRevenue: 0,
      feesCents: 0,
      testFeesCents: 150,
      billingOff: true,
      revenueNote: BILLING_OFF_REVENUE_NOTE,
    });
    expect(stats.recentTransactions.map((entry) => [entry.kind, entry.test])).toEqual([
      ['sale', true],
      ['sale', true],
      ['sale', true],
    ]);
  });

  it('says test sales need no payout account', async () => {
    const account = await (await seller.client.get('/api/sales/payout-account')).json();
    expect(account).toMatchObject({ state: 'enabled', testMode: true });
    const link = await seller.client.post('/api/sales/payout-account/onboarding-link', {});
    expect(link.status).toBe(409);
    expect((await link.json()).message).toBe(salesMessages.testModeNoOnboarding);
  });
});
