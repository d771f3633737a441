import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackage, jsonOf, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { type FakeStripe, startFakeStripe } from '../../../../test/fakes/stripe.js';
import { giveActivePlan } from '../../../../test/support/packages.js';
import { settleProviderEvents } from '../../../../test/support/provider-events.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import type { Product } from '../../../contract/products.js';
import type { PackagePrice, StartCheckoutResponse } from '../../../contract/sales.js';
import { sales } from '../../db/schema/index.js';

// API v1's purchase links for a product (issue 31), the shapes of a package's: the purchase page names the product,
// the direct buy link carries the tier, the e-mail and the signed return addresses, and a checkout started from its
// fields sends the buyer back to the seller's own address; nothing is recorded until then. Another seller's product
// answers 404, a token without packages:read 403.

const HOST = 'acme.composer.localhost';
const SUCCESS_URL = 'https://shop.acme.example/thanks';
const clock = new TestClock(new Date('2026-03-01T12:00:00Z'));
let stripe: FakeStripe;
let app: TestApp;
let seller: SignedIn;
let suite: Product;
let theirs: Product;
let tier: PackagePrice;

async function createProduct(as: SignedIn, name: string, packageIds: string[]): Promise<Product> {
  const response = await as.client.post('/api/products', { name, description: `The ${name}`, packageIds });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Product;
}

async function apiToken(permissions: string[]): Promise<string> {
  const created = await seller.client.post('/api/developer/tokens', { name: 'shop', permissions });
  return ((await created.json()) as CreatedApiToken).token;
}

async function purchaseLinks(productId: string, token: string, body: unknown) {
  const response = await fetch(new URL(`/api/v1/products/${productId}/purchase-links`, app.baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the envelope, read field by field
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  stripe = await startFakeStripe({ now: () => clock.now() });
  app = await startTestApp({ clock, env: stripe.env() });
  seller = await signInSeller(app, { slug: 'acme' });
  const other = await signInSeller(app, { slug: 'rival' });
  await giveActivePlan(app, seller.user.id, new Date('2027-06-01T00:00:00Z'));
  const released = { releasedAt: '2026-01-10T10:00:00Z' };
  const widget = await createPackage(app, seller.user, 'acme/widget', [{ version: 'v1.0.0', ...released }]);
  const gizmo = await createPackage(app, seller.user, 'acme/gizmo', [{ version: 'v1.0.0', ...released }]);
  const foreign = await createPackage(app, other.user, 'rival/thing', [{ version: 'v1.0.0', ...released }]);
  suite = await createProduct(seller, 'Acme Suite', [widget.id, gizmo.id]);
  theirs = await createProduct(other, 'Rival Suite', [foreign.id]);
  const priced = await seller.client.put(`/api/products/${suite.id}/pricing-tiers`, {
    tiers: [{ name: 'Suite', pricingType: 'one_time', updateMonths: 12, priceCents: 9900, currency: 'usd' }],
  });
  expect(priced.status, await priced.clone().text()).toBe(200);
  tier = ((await priced.json()) as PackagePrice[])[0]!;
  // A payout account that takes payments, as Stripe reports it.
  const link = await seller.client.post('/api/sales/payout-account/onboarding-link', { returnPath: '/dashboard' });
  expect(link.status, await link.clone().text()).toBe(200);
  const accountId = [...stripe.accounts.values()][0]!.id;
  stripe.enableAccount(accountId);
  const delivered = await stripe.deliver(
    `${app.baseUrl}/api/stripe/connect-webhook`,
    stripe.event('account.updated', stripe.accounts.get(accountId)!, { account: accountId }),
  );
  expect(delivered.status).toBe(200);
  await settleProviderEvents(app);
});

afterAll(async () => {
  await app?.close();
  await stripe?.close();
});

describe('purchase links for a product through API v1', () => {
  it('gives the purchase page, a direct buy link and a buy button, and records nothing', async () => {
    const token = await apiToken(['packages:read']);
    const answer = await purchaseLinks(suite.id, token, {
      customerEmail: 'buyer@shop.example',
      successUrl: SUCCESS_URL,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { data } = answer.body;
    expect(data).toMatchObject({ productId: suite.id, productName: 'Acme Suite', selectedTier: tier.id });
    const page = new URL(data.links.purchasePage);
    expect(page.host).toBe(`${HOST}:${app.port}`);
    expect(page.pathname).toBe('/purchase');
    expect(Object.fromEntries(page.searchParams)).toEqual({
      product: suite.id,
      tier: tier.id,
      email: 'buyer@shop.example',
    });
    expect(data.links.embedCode).toContain('>Buy Acme Suite</a>');
    expect(await app.ctx.db.select().from(sales)).toHaveLength(0);

    // The buyer's Buy on the direct link's page: the checkout returns to the seller's own address.
    const direct = new URL(data.links.directCheckout);
    expect(direct.searchParams.get('product')).toBe(suite.id);
    expect(direct.searchParams.get('successUrl')).toBe(SUCCESS_URL);
    const started = await requestOnHost(app, HOST, '/api/purchase/checkout', {
      method: 'POST',
      body: JSON.stringify({
        productId: suite.id,
        tierId: direct.searchParams.get('tier'),
        email: direct.searchParams.get('email'),
        successUrl: direct.searchParams.get('successUrl'),
        sig: direct.searchParams.get('sig'),
      }),
    });
    expect(started.status, started.body.toString()).toBe(200);
    const session = stripe.sessions.get(jsonOf<StartCheckoutResponse>(started).sessionId)!;
    expect(String(session.success_url)).toContain(SUCCESS_URL);
  });

  it("answers 404 for another seller's product and 403 to a token without packages:read", async () => {
    expect((await purchaseLinks(theirs.id, await apiToken(['packages:read']), {})).status).toBe(404);
    const refused = await purchaseLinks(suite.id, await apiToken(['customers:read']), {});
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('packages:read');
  });
});
