import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackage,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { readOutbox } from '../../../../test/support/outbox.js';
import { type SignedIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { AdminStats } from '../../../contract/admin.js';
import type { P2File } from '../../../contract/composer.js';
import {
  BILLING_OFF_REVENUE_NOTE,
  type PackagePricingTier,
  type PurchaseResult,
  type StartCheckoutResponse,
  salesMessages,
} from '../../../contract/sales.js';
import { grants, platformSubscriptions, sales } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// Selling with billing off (the embedded default): "test sales" complete at once, without a provider, and run the
// whole flow: prices, the purchase page on the seller's host, the grant, the e-mail, the token on the success page,
// the Composer repository, and the figures.

const NOW = new Date('2026-03-01T12:00:00Z');
const HOST = 'acme.composer.localhost';
const TOKEN_PATTERN = /pgc_[A-Za-z0-9_-]{32}/;

let app: TestApp;
const clock = new TestClock(NOW);
let seller: SignedIn;
let admin: SignedIn;
let widget: FixturePackage;
let gadget: FixturePackage;

const tiersPath = (id: string) => `/api/repositories/${id}/pricing-tiers`;
const oneTime = { name: 'Lifetime', pricingType: 'one_time', updateMonths: 1, priceCents: 1999, currency: 'usd' };

async function onHost<T>(path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await requestOnHost(app, HOST, path, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: jsonOf<T>(response) };
}

async function putTiers(packageId: string, tiers: unknown[]) {
  const response = await seller.client.put(tiersPath(packageId), { tiers });
  return { status: response.status, body: await response.json() };
}

async function buy(packageId: string, tierId: string, email: string): Promise<PurchaseResult> {
  const started = await onHost<StartCheckoutResponse>('/api/purchase/checkout', { packageId, tierId, email });
  expect(started.status).toBe(200);
  expect(started.body.testMode).toBe(true);
  const successUrl = new URL(started.body.checkoutUrl);
  expect(successUrl.host).toBe(`${HOST}:${app.port}`);
  expect(successUrl.pathname).toBe('/purchase/success');
  const result = await onHost<PurchaseResult>(
    `/api/purchase/sessions/${encodeURIComponent(successUrl.searchParams.get('session_id')!)}`,
  );
  expect(result.status).toBe(200);
  return result.body;
}

beforeAll(async () => {
  app = await startTestApp({
    clock,
    env: { SESSION_IDLE_MINUTES: String(365 * 24 * 60), SESSION_ABSOLUTE_DAYS: '365' },
  });
  seller = await signInSeller(app, { slug: 'acme' });
  admin = await signInAdmin(app);
  // A paying seller: the clock moves past a trial's end in these tests.
  await app.ctx.db.insert(platformSubscriptions).values({
    userId: seller.user.id,
    status: 'active',
    tierId: 'enterprise',
    currentPeriodEnd: new Date('2027-03-01T00:00:00Z'),
  });
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
    const tiers = saved.body as PackagePricingTier[];
    expect(tiers.map((tier) => [tier.name, tier.isActive, tier.sortOrder])).toEqual([
      ['Lifetime', true, 0],
      ['Monthly', true, 1],
      ['Hidden', false, 2],
    ]);
    const page = await onHost<{ tiers: Array<{ name: string }>; testMode: boolean }>(
      `/api/purchase/packages/${widget.id}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.testMode).toBe(true);
    expect(page.body.tiers.map((tier) => tier.name)).toEqual(['Lifetime', 'Monthly']);
    // Another host, or the app's own, sells nothing of acme's.
    const elsewhere = await requestOnHost(app, 'globex.composer.localhost', `/api/purchase/packages/${widget.id}`);
    expect(elsewhere.status).toBe(404);
  });
});

describe('a test purchase', () => {
  let lifetimeTierId: string;
  let token: string;
  const buyer = 'buyer@example.com';

  beforeAll(async () => {
    const tiers = (await (await seller.client.get(tiersPath(widget.id))).json()) as PackagePricingTier[];
    lifetimeTierId = tiers.find((tier) => tier.name === 'Lifetime')!.id;
  });

  it('refuses an unknown tier, a currency mismatch and a missing e-mail, and records no sale', async () => {
    const unknownTier = await onHost<{ message: string }>('/api/purchase/checkout', {
      packageId: widget.id,
      tierId: gadget.id,
      email: buyer,
    });
    expect(unknownTier.status).toBe(404);
    expect(unknownTier.body.message).toBe(salesMessages.unknownTier);
    const wrongCurrency = await onHost<{ message: string }>('/api/purchase/checkout', {
      packageId: widget.id,
      tierId: lifetimeTierId,
      email: buyer,
      currency: 'eur',
    });
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.message).toContain(salesMessages.currencyMismatch);
    const noEmail = await onHost<{ message: string }>('/api/purchase/checkout', {
      packageId: widget.id,
      tierId: lifetimeTierId,
    });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toBe(salesMessages.emailRequired);
    expect(await app.ctx.db.select().from(sales)).toEqual([]);
  });

  it('completes at once: a purchase grant, the 5% fee stored, the token on the success page and in the e-mail', async () => {
    const result = await buy(widget.id, lifetimeTierId, buyer);
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
    expect(grant).toMatchObject({ kind: 'purchase', status: 'active', endMode: 'updates' });
    expect(grant!.expiresAt).toEqual(new Date('2026-04-01T12:00:00Z'));

    const mail = readOutbox(app.dataDir).filter((entry) => entry.to.includes(buyer));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain(token);
    expect(mail[0]!.body).toContain(`http://${HOST}:${app.port}`);
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
    const [gadgetTier] = (await (await seller.client.get(tiersPath(gadget.id))).json()) as PackagePricingTier[];
    const result = await buy(gadget.id, gadgetTier!.id, buyer);
    expect(result).toMatchObject({ status: 'complete', token: null, hasExistingToken: true });
    expect(result.setupCommands.join('\n')).toContain('YOUR_TOKEN');
    const p2 = await requestOnHost(app, HOST, '/p2/acme/gadget.json', { token });
    expect(p2.status).toBe(200);
  });

  it('shows the sales to the seller and to the admin, with no revenue while billing is off', async () => {
    const summary = await (await seller.client.get('/api/sales/summary')).json();
    expect(summary).toMatchObject({
      totalSalesCents: 2499,
      totalSalesFormatted: '$24.99',
      totalPurchases: 2,
      totalCustomers: 1,
      feesCents: 125,
      currency: 'usd',
    });
    expect(summary.recentSales).toHaveLength(2);
    const stats = (await (await admin.client.get('/api/admin/stats')).json()) as AdminStats;
    expect(stats).toMatchObject({
      totalSales: 2,
      grossSalesCents: 2499,
      platformRevenue: 0,
      feesCents: 0,
      testFeesCents: 125,
      billingOff: true,
      revenueNote: BILLING_OFF_REVENUE_NOTE,
    });
    expect(stats.recentTransactions.map((entry) => [entry.kind, entry.test])).toEqual([
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
