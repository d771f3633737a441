import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackage, type FixturePackage, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { type FakeStripe, startFakeStripe } from '../../../../test/fakes/stripe.js';
import { callApiV1 } from '../../../../test/support/http-client.js';
import { giveActivePlan } from '../../../../test/support/packages.js';
import { settleProviderEvents } from '../../../../test/support/provider-events.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import {
  type PackagePrice,
  type SellerSalesSummary,
  type StartCheckoutResponse,
  salesMessages,
} from '../../../contract/sales.js';
import { customers, grants, packagePrices, payoutAccounts, sales } from '../../db/schema/index.js';

// Selling through API v1 (spec §3 "API v1 package", "Purchase-links response", "API v1 analytics", customers): the
// pricing fields of packages, purchase links with billing off and with Stripe, the customers a sale makes, the
// Dashboard's sales figures in analytics, and bad input answered in the API's error shape with nothing changed.
// A purchase link's GET only opens the purchase page and writes nothing (issue 28); the page's Buy button POSTs.

const NOW = new Date('2026-03-10T12:00:00Z');
const HOST = 'acme.composer.localhost';

type Started = { app: TestApp; seller: SignedIn; token: string; widget: FixturePackage; dormant: FixturePackage };

async function startSeller(env: Record<string, string> = {}): Promise<Started> {
  const app = await startTestApp({
    clock: new TestClock(NOW),
    env: { ...YEAR_LONG_SESSIONS, ...env },
  });
  const seller = await signInSeller(app, { slug: 'acme' });
  await giveActivePlan(app, seller.user.id, new Date('2027-03-01T00:00:00Z'));
  const created = await seller.client.post('/api/developer/tokens', { name: 'shop', permissions: ['*'] });
  expect(created.status).toBe(201);
  const { token } = (await created.json()) as CreatedApiToken;
  const widget = await createPackage(app, seller.user, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  const dormant = await createPackage(app, seller.user, 'acme/dormant', [], { isActive: false });
  return { app, seller, token, widget, dormant };
}

const call = (app: TestApp, token: string, method: string, path: string, body?: unknown) =>
  callApiV1(app.baseUrl, token, method, path, body);

async function putTiers(seller: SignedIn, packageId: string, tiers: unknown[]) {
  const response = await seller.client.put(`/api/repositories/${packageId}/pricing-tiers`, { tiers });
  return { status: response.status, body: await response.json() };
}

/** Everything selling may write: a refused request must leave all of it as it was. */
async function sellingState(app: TestApp) {
  const [salesRows, prices, grantRows, customerRows, accounts] = await Promise.all([
    app.ctx.db.select().from(sales),
    app.ctx.db.select().from(packagePrices),
    app.ctx.db.select().from(grants),
    app.ctx.db.select().from(customers),
    app.ctx.db.select().from(payoutAccounts),
  ]);
  return { salesRows, prices, grantRows, customerRows, accounts };
}

function expectApiError(answer: { status: number; body: Record<string, unknown> }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body).toMatchObject({ success: false, status, code, meta: { provider: 'packgate', apiVersion: 'v1' } });
  expect(typeof answer.body.message).toBe('string');
  expect(typeof answer.body.error).toBe('string');
}

describe('API v1 selling with billing off', () => {
  let started: Started;
  let app: TestApp;
  let token: string;
  let lifetime: PackagePrice;
  let monthly: PackagePrice;
  let yearly: PackagePrice;
  const repositoryUrl = () => `http://${HOST}:${app.port}`;

  beforeAll(async () => {
    started = await startSeller();
    ({ app, token } = started);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('refuses a negative price, a tier of another currency and an unknown tier id, and changes nothing', async () => {
    const before = await sellingState(app);
    const one = { name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 1999, currency: 'usd' };
    const negative = await putTiers(started.seller, started.widget.id, [{ ...one, priceCents: -1 }]);
    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({ code: 'VALIDATION_FAILED', message: salesMessages.priceInvalid });
    const mixed = await putTiers(started.seller, started.widget.id, [one, { ...one, currency: 'eur' }]);
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ code: 'VALIDATION_FAILED', message: salesMessages.currencyMismatch });
    const unknown = await putTiers(started.seller, started.widget.id, [
      { ...one, id: '00000000-0000-4000-8000-000000000000' },
    ]);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', message: salesMessages.unknownTier });
    expect(await sellingState(app)).toEqual(before);
  });

  it('shows a package’s prices: the first active tier’s, its purchase links, and every tier', async () => {
    const saved = await putTiers(started.seller, started.widget.id, [
      { name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 1999, currency: 'usd' },
      {
        name: 'Monthly',
        description: 'Billed monthly',
        pricingType: 'subscription',
        interval: 'month',
        trialDays: 7,
        priceCents: 990,
        currency: 'usd',
      },
      {
        name: 'Yearly',
        pricingType: 'subscription',
        interval: 'year',
        priceCents: 9900,
        currency: 'usd',
        isActive: false,
      },
    ]);
    expect(saved.status).toBe(200);
    [lifetime, monthly, yearly] = saved.body as [PackagePrice, PackagePrice, PackagePrice];
    await putTiers(started.seller, started.dormant.id, [
      { name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 500, currency: 'usd' },
    ]);

    const listed = await call(app, token, 'GET', '/api/v1/packages');
    expect(listed.status).toBe(200);
    const widget = listed.body.data.find((entry: { id: string }) => entry.id === started.widget.id);
    expect(widget).toMatchObject({
      pricingType: 'one_time',
      priceCents: 1999,
      currency: 'usd',
      purchaseUrl: `${repositoryUrl()}/purchase?package=${started.widget.id}`,
      directPurchaseUrl: `${repositoryUrl()}/api/purchase/checkout?package=${started.widget.id}&tier=${lifetime.id}`,
      downloadUrl: expect.stringContaining(repositoryUrl()),
    });
    expect(widget.pricingTiers).toEqual([
      {
        id: lifetime.id,
        name: 'Lifetime',
        description: null,
        pricingType: 'one_time',
        interval: null,
        updateMonths: 12,
        priceCents: 1999,
        currency: 'usd',
        trialDays: 0,
        isActive: true,
      },
      {
        id: monthly.id,
        name: 'Monthly',
        description: 'Billed monthly',
        pricingType: 'subscription',
        interval: 'month',
        updateMonths: null,
        priceCents: 990,
        currency: 'usd',
        trialDays: 7,
        isActive: true,
      },
      expect.objectContaining({ id: yearly.id, isActive: false }),
    ]);
    // An inactive package has tiers but nothing that sells it.
    const dormant = listed.body.data.find((entry: { id: string }) => entry.id === started.dormant.id);
    expect(dormant).toMatchObject({ pricingType: null, priceCents: null, purchaseUrl: null, directPurchaseUrl: null });
    expect(dormant.pricingTiers).toHaveLength(1);
    const one = await call(app, token, 'GET', `/api/v1/packages/${started.widget.id}`);
    expect(one.body.data).toEqual(widget);
  });

  it('makes purchase links for a tier, and making them records nothing', async () => {
    const before = await sellingState(app);
    const answer = await call(app, token, 'POST', `/api/v1/packages/${started.widget.id}/purchase-links`, {
      tierId: monthly.id,
      customerEmail: 'Linked@Example.com',
      successUrl: 'https://shop.example/thanks?order=7',
      cancelUrl: 'https://shop.example/cart',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, meta: { provider: 'packgate', apiVersion: 'v1' } });
    const { data } = answer.body;
    expect(data).toMatchObject({ packageId: started.widget.id, packageName: 'acme/widget', selectedTier: monthly.id });
    const page = new URL(data.links.purchasePage);
    expect(`${page.origin}${page.pathname}`).toBe(`${repositoryUrl()}/purchase`);
    expect(Object.fromEntries(page.searchParams)).toEqual({
      package: started.widget.id,
      tier: monthly.id,
      email: 'linked@example.com',
    });
    const direct = new URL(data.links.directCheckout);
    expect(`${direct.origin}${direct.pathname}`).toBe(`${repositoryUrl()}/api/purchase/checkout`);
    expect(Object.fromEntries(direct.searchParams)).toEqual({
      package: started.widget.id,
      tier: monthly.id,
      email: 'linked@example.com',
      successUrl: 'https://shop.example/thanks?order=7',
      cancelUrl: 'https://shop.example/cart',
      sig: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(data.links.embedCode).toBe(
      `<a href="${data.links.purchasePage.replaceAll('&', '&#38;')}" class="packgate-buy-button" target="_blank" rel="noopener">Buy acme/widget</a>`,
    );
    expect(await sellingState(app)).toEqual(before);

    // Without return addresses there is nothing to sign.
    const anonymous = await call(app, token, 'POST', `/api/v1/packages/${started.widget.id}/purchase-links`, {});
    expect(anonymous.body.data.selectedTier).toBe(lifetime.id);
    expect(anonymous.body.data.links.directCheckout).toBe(
      `${repositoryUrl()}/api/purchase/checkout?package=${started.widget.id}&tier=${lifetime.id}`,
    );
  });

  it('opens the purchase page from the direct link, refuses the buyer, and leaves the seller’s test purchases out of analytics', async () => {
    const links = await call(app, token, 'POST', `/api/v1/packages/${started.widget.id}/purchase-links`, {
      tierId: lifetime.id,
      customerEmail: 'first@example.com',
      successUrl: 'https://shop.example/thanks',
    });
    const direct = new URL(links.body.data.links.directCheckout);
    const before = await sellingState(app);
    // Opened by a link preview, a mail scanner or the buyer: the purchase page with the link's fields, nothing more.
    const followed = await requestOnHost(app, HOST, `${direct.pathname}${direct.search}`);
    expect(followed.status).toBe(303);
    const page = new URL(String(followed.headers.location));
    expect(`${page.origin}${page.pathname}`).toBe(`${repositoryUrl()}/purchase`);
    expect(Object.fromEntries(page.searchParams)).toEqual(Object.fromEntries(direct.searchParams));
    expect(await sellingState(app)).toEqual(before);
    // The page's Buy button: no payment provider, so no sale, paid or free.
    const bought = await requestOnHost(app, HOST, '/api/purchase/checkout', {
      method: 'POST',
      body: JSON.stringify({
        packageId: started.widget.id,
        tierId: lifetime.id,
        email: 'first@example.com',
        successUrl: page.searchParams.get('successUrl'),
        sig: page.searchParams.get('sig'),
      }),
    });
    expect(bought.status).toBe(409);
    expect(JSON.parse(bought.body.toString())).toMatchObject({ message: salesMessages.paymentsNotSetUp });
    expect(await sellingState(app)).toEqual(before);

    // The seller's test purchases: a license each, no money counted.
    for (const [tierId, email] of [
      [lifetime.id, 'first@example.com'],
      [monthly.id, 'second@example.com'],
    ]) {
      const test = await started.seller.client.post(`/api/repositories/${started.widget.id}/test-purchase`, {
        tierId,
        email,
      });
      expect(test.status).toBe(200);
      expect(((await test.json()) as StartCheckoutResponse).testMode).toBe(true);
    }
    const analytics = await call(app, token, 'GET', '/api/v1/analytics');
    expect(analytics.status).toBe(200);
    const summary = (await (await started.seller.client.get('/api/sales/summary')).json()) as SellerSalesSummary;
    expect(analytics.body.data).toEqual({
      activePackages: 1,
      totalSalesCents: summary.totalSalesCents,
      totalSalesFormatted: summary.totalSalesFormatted,
      monthlySalesCents: summary.monthlySalesCents,
      monthlySalesFormatted: summary.monthlySalesFormatted,
      totalCustomers: summary.totalCustomers,
      totalPurchases: summary.totalPurchases,
    });
    expect(analytics.body.data).toMatchObject({
      totalSalesCents: 0,
      totalSalesFormatted: '$0.00',
      monthlySalesCents: 0,
      totalCustomers: 0,
      totalPurchases: 0,
    });
    expect(analytics.body.meta).toMatchObject({ currency: 'usd' });
    expect(summary.recentSales.map((sale) => sale.test)).toEqual([true, true]);

    const listed = await call(app, token, 'GET', '/api/v1/customers');
    const first = listed.body.data.find((entry: { email: string }) => entry.email === 'first@example.com');
    expect(first).toMatchObject({ totalActivePackages: 1, firstPurchaseDate: NOW.toISOString() });
    expect(first.packages).toEqual([
      {
        packageName: 'acme/widget',
        packageId: started.widget.id,
        status: 'active',
        grantedAt: NOW.toISOString(),
        expiresAt: new Date('2027-03-10T12:00:00Z').toISOString(),
        lastUsedAt: null,
      },
    ]);
  });

  it('answers bad purchase-link requests in the API’s error shape with a code, and changes nothing', async () => {
    const before = await sellingState(app);
    const links = (id: string, body: unknown) =>
      call(app, token, 'POST', `/api/v1/packages/${id}/purchase-links`, body);
    const unknownTier = await links(started.widget.id, { tierId: '00000000-0000-4000-8000-000000000000' });
    expectApiError(unknownTier, 404, 'NOT_FOUND');
    expect(unknownTier.body.message).toBe(salesMessages.unknownTier);
    expectApiError(await links(started.widget.id, { tierId: yearly.id }), 404, 'NOT_FOUND');
    const currency = await links(started.widget.id, { tierId: lifetime.id, currency: 'eur' });
    expectApiError(currency, 400, 'VALIDATION_FAILED');
    expect(currency.body.message).toContain(salesMessages.currencyMismatch);
    const inactive = await links(started.dormant.id, {});
    expectApiError(inactive, 409, 'CONFLICT');
    expect(inactive.body.message).toBe(salesMessages.packageInactive);
    expectApiError(await links(started.widget.id, { customerEmail: 'not an e-mail' }), 400, 'VALIDATION_FAILED');
    expectApiError(await links(started.widget.id, { successUrl: 'javascript:alert(1)' }), 400, 'VALIDATION_FAILED');
    expectApiError(await links('00000000-0000-4000-8000-000000000000', {}), 404, 'NOT_FOUND');
    expect(await sellingState(app)).toEqual(before);
  });
});

describe('API v1 selling with Stripe', () => {
  let stripe: FakeStripe;
  let started: Started;
  let app: TestApp;
  let token: string;
  let tierId: string;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    started = await startSeller(stripe.env());
    ({ app, token } = started);
    const saved = await putTiers(started.seller, started.widget.id, [
      { name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 1999, currency: 'usd' },
    ]);
    tierId = (saved.body as PackagePrice[])[0]!.id;
  });

  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  it('refuses purchase links while the seller has no payout account that can take payments, changing nothing', async () => {
    const before = await sellingState(app);
    const refused = await call(app, token, 'POST', `/api/v1/packages/${started.widget.id}/purchase-links`, { tierId });
    expectApiError(refused, 409, 'CONFLICT');
    expect(refused.body).toMatchObject({
      message: salesMessages.noPayoutAccount,
      suggestion: salesMessages.noPayoutAccountSuggestion,
    });
    expect(await sellingState(app)).toEqual(before);
  });

  it('makes links that check out on the seller’s Stripe account, and counts the paid sale in analytics', async () => {
    const onboarding = await started.seller.client.post('/api/sales/payout-account/onboarding-link', {});
    expect(onboarding.status).toBe(200);
    const [account] = [...stripe.accounts.values()];
    stripe.enableAccount(account!.id);
    const enabled = await stripe.deliver(
      `${app.baseUrl}/api/stripe/connect-webhook`,
      stripe.event('account.updated', stripe.accounts.get(account!.id)!, { account: account!.id }),
    );
    expect(enabled.status).toBe(200);
    await settleProviderEvents(app);
    const answer = await call(app, token, 'POST', `/api/v1/packages/${started.widget.id}/purchase-links`, {
      tierId,
      customerEmail: 'payer@example.com',
    });
    expect(answer.status).toBe(200);
    const direct = new URL(answer.body.data.links.directCheckout);
    expect(direct.pathname).toBe('/api/purchase/checkout');
    expect(await app.ctx.db.select().from(sales)).toEqual([]);

    // The link opens the purchase page and starts nothing: no sale row, no Checkout Session at Stripe.
    const before = await sellingState(app);
    const followed = await requestOnHost(app, HOST, `${direct.pathname}${direct.search}`);
    expect(followed.status).toBe(303);
    const page = new URL(String(followed.headers.location));
    expect(page.pathname).toBe('/purchase');
    expect(Object.fromEntries(page.searchParams)).toMatchObject({
      package: started.widget.id,
      tier: tierId,
      email: 'payer@example.com',
    });
    expect(await sellingState(app)).toEqual(before);
    expect(stripe.sessions.size).toBe(0);
    const offer = await requestOnHost(app, HOST, `/api/purchase/packages/${started.widget.id}`);
    expect(JSON.parse(offer.body.toString())).toMatchObject({ canCheckout: true });

    // The page's Buy button posts the checkout, which goes to Stripe.
    const bought = await requestOnHost(app, HOST, '/api/purchase/checkout', {
      method: 'POST',
      body: JSON.stringify({ packageId: started.widget.id, tierId, email: page.searchParams.get('email') }),
    });
    expect(bought.status).toBe(200);
    const { checkoutUrl, sessionId } = JSON.parse(bought.body.toString()) as StartCheckoutResponse;
    expect(checkoutUrl).toBe(`${stripe.url}/checkout/${sessionId}`);
    const { session } = stripe.completeCheckout(sessionId);
    const delivered = await stripe.deliver(
      `${app.baseUrl}/api/stripe/connect-webhook`,
      stripe.event('checkout.session.completed', session, { account: account!.id }),
    );
    expect(delivered.status).toBe(200);
    await settleProviderEvents(app);

    const analytics = await call(app, token, 'GET', '/api/v1/analytics');
    expect(analytics.body.data).toMatchObject({
      totalSalesCents: 1999,
      totalSalesFormatted: '$19.99',
      totalCustomers: 1,
      totalPurchases: 1,
    });
    const customersAnswer = await call(app, token, 'GET', '/api/v1/customers');
    expect(customersAnswer.body.data).toEqual([
      expect.objectContaining({ email: 'payer@example.com', totalActivePackages: 1 }),
    ]);

    // Refunded: the money no longer counts and the customer's package shows revoked.
    const charge = stripe.chargeFor(String(session.payment_intent))!;
    const refunded = await stripe.deliver(
      `${app.baseUrl}/api/stripe/connect-webhook`,
      stripe.event('charge.refunded', stripe.refundCharge(charge.id), { account: account!.id }),
    );
    expect(refunded.status).toBe(200);
    await settleProviderEvents(app);
    const after = await call(app, token, 'GET', '/api/v1/analytics');
    expect(after.body.data).toMatchObject({ totalSalesCents: 0, totalPurchases: 0, totalCustomers: 0 });
    const holders = await call(app, token, 'GET', '/api/v1/customers');
    expect(holders.body.data[0]).toMatchObject({ email: 'payer@example.com', totalActivePackages: 0 });
    expect(holders.body.data[0].packages[0]).toMatchObject({ packageId: started.widget.id, status: 'revoked' });
  });

  it('takes a link’s return addresses only with its signature, so nobody can send a buyer’s session elsewhere', async () => {
    const answer = await call(app, token, 'POST', `/api/v1/packages/${started.widget.id}/purchase-links`, {
      tierId,
      successUrl: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://shop.example/cart',
    });
    const page = new URL(
      String(
        (
          await requestOnHost(
            app,
            HOST,
            new URL(answer.body.data.links.directCheckout).pathname +
              new URL(answer.body.data.links.directCheckout).search,
          )
        ).headers.location,
      ),
    );
    const checkout = (fields: Record<string, string | null | undefined>) =>
      requestOnHost(app, HOST, '/api/purchase/checkout', {
        method: 'POST',
        body: JSON.stringify({ packageId: started.widget.id, tierId, email: 'buyer@example.com', ...fields }),
      });
    const before = await sellingState(app);
    for (const forged of [
      { successUrl: 'https://evil.example/?s={CHECKOUT_SESSION_ID}' },
      { successUrl: 'https://evil.example/?s={CHECKOUT_SESSION_ID}', sig: page.searchParams.get('sig') },
      { successUrl: page.searchParams.get('successUrl'), sig: 'f'.repeat(64) },
      { cancelUrl: 'https://evil.example/', sig: page.searchParams.get('sig') },
    ]) {
      const refused = await checkout(forged);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body.toString())).toMatchObject({ message: salesMessages.returnUrlsUnsigned });
    }
    expect(await sellingState(app)).toEqual(before);
    const signed = await checkout({
      successUrl: page.searchParams.get('successUrl'),
      cancelUrl: page.searchParams.get('cancelUrl'),
      sig: page.searchParams.get('sig'),
    });
    expect(signed.status).toBe(200);
    const { sessionId } = JSON.parse(signed.body.toString()) as StartCheckoutResponse;
    expect(stripe.sessions.get(sessionId)).toMatchObject({
      success_url: 'https://shop.example/thanks?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/cart',
    });
  });
});
