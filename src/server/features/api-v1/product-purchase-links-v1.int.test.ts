import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { type FakeStripe, startFakeStripe } from '../../../../test/fakes/stripe.js';
import { callApiV1 } from '../../../../test/support/http-client.js';
import { enablePayouts, priceSuite, seedProductShop } from '../../../../test/support/product-shop.js';
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

async function apiToken(permissions: string[]): Promise<string> {
  const created = await seller.client.post('/api/developer/tokens', { name: 'shop', permissions });
  return ((await created.json()) as CreatedApiToken).token;
}

const purchaseLinks = (productId: string, token: string, body: unknown) =>
  callApiV1(app.baseUrl, token, 'POST', `/api/v1/products/${productId}/purchase-links`, body);

beforeAll(async () => {
  stripe = await startFakeStripe({ now: () => clock.now() });
  app = await startTestApp({ clock, env: stripe.env() });
  seller = await signInSeller(app, { slug: 'acme' });
  const other = await signInSeller(app, { slug: 'rival' });
  ({ suite, theirs } = await seedProductShop(app, seller, other));
  tier = await priceSuite(seller, suite);
  await enablePayouts(app, stripe, seller);
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
