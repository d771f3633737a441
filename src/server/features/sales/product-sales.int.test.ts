import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixturePackage, jsonOf, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { type FakeStripe, type FakeStripeEvent, startFakeStripe } from '../../../../test/fakes/stripe.js';
import { mailsTo } from '../../../../test/support/outbox.js';
import { enablePayouts, seedProductShop } from '../../../../test/support/product-shop.js';
import { settleProviderEvents } from '../../../../test/support/provider-events.js';
import { purchasePageJson } from '../../../../test/support/purchase-pages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { P2File } from '../../../contract/composer.js';
import type { Product } from '../../../contract/products.js';
import {
  type PackagePrice,
  type PurchasePage,
  type PurchaseResult,
  type StartCheckoutResponse,
  salesMessages,
} from '../../../contract/sales.js';
import { grants, packagePrices, sales } from '../../db/schema/index.js';

// Selling a product (issue 31 item 2): the seller prices a product as they price a package, the buyer buys it on the
// seller's host through Stripe Checkout (the fake), and the one license the sale gives covers every package in the
// product; the success page names the product and its packages. Bad targets and tiers are refused, nothing written.

const HOST = 'acme.composer.localhost';
const clock = new TestClock(new Date('2026-03-01T12:00:00Z'));
let stripe: FakeStripe;
let app: TestApp;
let seller: SignedIn;
let other: SignedIn;
let accountId: string;
let widget: FixturePackage;
let suite: Product;
let theirs: Product;
let tier: PackagePrice;

const tiersPath = (productId: string) => `/api/products/${productId}/pricing-tiers`;

const onHost = <T>(path: string, body?: unknown) => purchasePageJson<T>(app, HOST, path, body);

async function send(event: FakeStripeEvent): Promise<void> {
  const response = await stripe.deliver(`${app.baseUrl}/api/stripe/connect-webhook`, event);
  expect(response.status, await response.clone().text()).toBe(200);
  await settleProviderEvents(app);
}

const p2Status = async (name: string, token: string) =>
  (await requestOnHost(app, HOST, `/p2/${name}.json`, { token })).status;

beforeAll(async () => {
  stripe = await startFakeStripe({ now: () => clock.now() });
  app = await startTestApp({ clock, env: stripe.env() });
  seller = await signInSeller(app, { slug: 'acme' });
  other = await signInSeller(app, { slug: 'rival' });
  ({ widget, suite, theirs } = await seedProductShop(app, seller, other));
  accountId = await enablePayouts(app, stripe, seller);
});

afterAll(async () => {
  await app?.close();
  await stripe?.close();
});

describe('a product’s prices', () => {
  it('are set and listed like a package’s, naming the product', async () => {
    const put = await seller.client.put(tiersPath(suite.id), {
      tiers: [
        {
          name: 'Suite, 1 year of updates',
          pricingType: 'one_time',
          updateMonths: 12,
          priceCents: 9900,
          currency: 'usd',
        },
      ],
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const listed = (await (await seller.client.get(tiersPath(suite.id))).json()) as PackagePrice[];
    expect(listed).toHaveLength(1);
    tier = listed[0]!;
    expect(tier).toMatchObject({ productId: suite.id, packageId: null, priceCents: 9900, salesCount: 0 });
    // The package's own prices are another list.
    expect(await (await seller.client.get(`/api/repositories/${widget.id}/pricing-tiers`)).json()).toEqual([]);
  });

  it('share the seller’s one currency with the package prices', async () => {
    const response = await seller.client.put(`/api/repositories/${widget.id}/pricing-tiers`, {
      tiers: [{ name: 'Widget', pricingType: 'one_time', updateMonths: 12, priceCents: 1900, currency: 'eur' }],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe(salesMessages.currencyMismatch);
  });

  it('refuses another seller’s product and an unknown tier, writing nothing', async () => {
    const foreign = await seller.client.put(tiersPath(theirs.id), {
      tiers: [{ name: 'Stolen', pricingType: 'one_time', updateMonths: 12, priceCents: 100, currency: 'usd' }],
    });
    expect(foreign.status).toBe(404);
    expect((await seller.client.get(tiersPath(theirs.id))).status).toBe(404);
    const unknown = await seller.client.put(tiersPath(suite.id), {
      tiers: [
        {
          id: '00000000-0000-4000-8000-000000000000',
          name: 'Ghost',
          pricingType: 'one_time',
          updateMonths: 12,
          priceCents: 100,
          currency: 'usd',
        },
      ],
    });
    expect(unknown.status).toBe(404);
    const stored = await app.ctx.db.select().from(packagePrices);
    expect(stored.map((price) => price.name)).toEqual(['Suite, 1 year of updates']);
  });
});

describe('buying a product', () => {
  it('shows the product, its description and packages on the purchase page', async () => {
    const page = await onHost<PurchasePage>(`/api/purchase/products/${suite.id}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body).toMatchObject({
      package: { id: suite.id, packageName: 'Acme Suite', description: 'The Acme Suite' },
      product: { id: suite.id, name: 'Acme Suite', packages: [{ name: 'acme/gizmo' }, { name: 'acme/widget' }] },
      tiers: [{ id: tier.id, priceCents: 9900 }],
      canCheckout: true,
    });
    expect((await onHost(`/api/purchase/products/${theirs.id}`)).status).toBe(404);
  });

  it('refuses another seller’s product, an unknown tier and a checkout naming both or neither', async () => {
    const email = 'nobody@example.com';
    const foreign = await onHost('/api/purchase/checkout', { productId: theirs.id, tierId: tier.id, email });
    expect(foreign.status).toBe(404);
    const unknownTier = await onHost('/api/purchase/checkout', { productId: suite.id, tierId: widget.id, email });
    expect(unknownTier.status).toBe(404);
    const both = await onHost<{ message: string }>('/api/purchase/checkout', {
      productId: suite.id,
      packageId: widget.id,
      tierId: tier.id,
      email,
    });
    expect(both.status).toBe(400);
    expect(both.body.message).toBe(salesMessages.checkoutTargetInvalid);
    const neither = await onHost('/api/purchase/checkout', { tierId: tier.id, email });
    expect(neither.status).toBe(400);
    expect(await app.ctx.db.select().from(sales)).toEqual([]);
  });

  it('gives one license for every package in the product, named on the success page', async () => {
    const buyer = 'suite-buyer@example.com';
    const started = await onHost<StartCheckoutResponse>('/api/purchase/checkout', {
      productId: suite.id,
      tierId: tier.id,
      email: buyer,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const session = stripe.sessions.get(started.body.sessionId)!;
    expect(session.metadata).toMatchObject({ productId: suite.id, tierId: tier.id });
    const paid = stripe.completeCheckout(started.body.sessionId);
    await send(stripe.event('checkout.session.completed', paid.session, { account: accountId }));

    const result = await onHost<PurchaseResult>(`/api/purchase/sessions/${started.body.sessionId}`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      status: 'complete',
      packageName: 'Acme Suite',
      productName: 'Acme Suite',
      packageNames: ['acme/gizmo', 'acme/widget'],
    });
    expect(result.body.setupCommands).toContain('composer require acme/gizmo acme/widget');

    const [sale] = await app.ctx.db.select().from(sales).where(eq(sales.checkoutSessionId, started.body.sessionId));
    expect(sale).toMatchObject({ status: 'paid', productId: suite.id, packageId: null, amountCents: 9900 });
    const licenses = await app.ctx.db.select().from(grants).where(eq(grants.productId, suite.id));
    expect(licenses).toHaveLength(1);
    expect(licenses[0]).toMatchObject({ kind: 'purchase', status: 'active', packageId: null });

    // The e-mailed token installs both packages of the product and nothing else of the seller's.
    const mail = mailsTo(app.dataDir, buyer);
    expect(mail).toHaveLength(1);
    const token = /pgc_[A-Za-z0-9]{36}/.exec(mail[0]!.body)![0];
    expect(await p2Status('acme/widget', token)).toBe(200);
    expect(await p2Status('acme/gizmo', token)).toBe(200);
    expect([401, 403, 404]).toContain(await p2Status('acme/gadget', token));
    const p2 = jsonOf<P2File>(await requestOnHost(app, HOST, '/p2/acme/widget.json', { token }));
    expect(p2.packages['acme/widget']!.map((entry) => entry.version)).toEqual(['v1.0.0']);

    // The tier counts the sale.
    const listed = (await (await seller.client.get(tiersPath(suite.id))).json()) as PackagePrice[];
    expect(listed[0]!.salesCount).toBe(1);
  });
});
