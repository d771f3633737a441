import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { priceSuite, seedProductShop } from '../../../../test/support/product-shop.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { Product } from '../../../contract/products.js';
import type { PackagePrice, PurchaseResult, StartCheckoutResponse } from '../../../contract/sales.js';
import { grants, sales } from '../../db/schema/index.js';

// The seller's test purchase of a product with billing off (issue 31): as for a package, the sale completes at once,
// marked test, and its one license covers every package in the product, which the success page names and the token
// installs; another seller's product and an unknown tier are refused with nothing written.

const HOST = 'acme.composer.localhost';
const clock = new TestClock(new Date('2026-03-01T12:00:00Z'));
let app: TestApp;
let seller: SignedIn;
let other: SignedIn;
let suite: Product;
let theirs: Product;
let tier: PackagePrice;

const testPurchasePath = (productId: string) => `/api/products/${productId}/test-purchase`;

const p2Status = async (name: string, token: string) =>
  (await requestOnHost(app, HOST, `/p2/${name}.json`, { token })).status;

beforeAll(async () => {
  app = await startTestApp({ clock });
  seller = await signInSeller(app, { slug: 'acme', email: 'owner@acme.example' });
  other = await signInSeller(app, { slug: 'rival' });
  ({ suite, theirs } = await seedProductShop(app, seller, other));
  tier = await priceSuite(seller, suite);
});

afterAll(async () => {
  await app?.close();
});

describe('a test purchase of a product', () => {
  it('completes at once, marked test, with one license for every package in the product', async () => {
    const buyer = 'suite-tester@example.com';
    const started = await seller.client.post(testPurchasePath(suite.id), { tierId: tier.id, email: buyer });
    expect(started.status, await started.clone().text()).toBe(200);
    const body = (await started.json()) as StartCheckoutResponse;
    expect(body.testMode).toBe(true);
    expect(new URL(body.checkoutUrl).pathname).toBe('/purchase/success');

    const result = jsonOf<PurchaseResult>(
      await requestOnHost(app, HOST, `/api/purchase/sessions/${encodeURIComponent(body.sessionId)}`),
    );
    expect(result).toMatchObject({
      status: 'complete',
      productName: 'Acme Suite',
      packageNames: ['acme/gizmo', 'acme/widget'],
      customerEmail: buyer,
      testMode: true,
    });
    expect(result.setupCommands).toContain('composer require acme/gizmo acme/widget');

    const [sale] = await app.ctx.db.select().from(sales).where(eq(sales.checkoutSessionId, body.sessionId));
    expect(sale).toMatchObject({ status: 'paid', isTest: true, productId: suite.id, packageId: null });
    const licenses = await app.ctx.db.select().from(grants).where(eq(grants.productId, suite.id));
    expect(licenses).toHaveLength(1);
    expect(licenses[0]).toMatchObject({ kind: 'purchase', status: 'active', packageId: null });

    const token = result.token!;
    expect(await p2Status('acme/widget', token)).toBe(200);
    expect(await p2Status('acme/gizmo', token)).toBe(200);
    expect([401, 403, 404]).toContain(await p2Status('acme/gadget', token));
  });

  it('refuses another seller’s product and an unknown tier, and records no sale', async () => {
    const before = (await app.ctx.db.select().from(sales)).length;
    expect((await seller.client.post(testPurchasePath(theirs.id), { tierId: tier.id })).status).toBe(404);
    const unknown = await seller.client.post(testPurchasePath(suite.id), {
      tierId: '3f9a1c52-8b7e-4d21-a6f0-2c5e9b1d7a43',
    });
    expect([400, 404]).toContain(unknown.status);
    expect((await other.client.post(testPurchasePath(suite.id), { tierId: tier.id })).status).toBe(404);
    expect(await app.ctx.db.select().from(sales)).toHaveLength(before);
  });
});
