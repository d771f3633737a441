import { expect } from 'vitest';
import type { Product } from '../../src/contract/products.js';
import type { PackagePrice } from '../../src/contract/sales.js';
import { createPackage, type FixturePackage } from '../composer/repository-fixtures.js';
import type { FakeStripe } from '../fakes/stripe.js';
import { giveActivePlan } from './packages.js';
import { settleProviderEvents } from './provider-events.js';
import type { SignedIn } from './sessions.js';
import type { TestApp } from './test-app.js';

// The shop the product sales tests sell from (issue 31): a seller on the enterprise plan with acme/widget and
// acme/gizmo in the product "Acme Suite" and acme/gadget outside it, and a rival seller with a product of their own;
// the suite's one price and the payout account that lets the seller take payments.

export async function createProduct(as: SignedIn, name: string, packageIds: string[]): Promise<Product> {
  const response = await as.client.post('/api/products', { name, description: `The ${name}`, packageIds });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Product;
}

export async function seedProductShop(
  app: TestApp,
  seller: SignedIn,
  other: SignedIn,
): Promise<{ widget: FixturePackage; gizmo: FixturePackage; suite: Product; theirs: Product }> {
  await giveActivePlan(app, seller.user.id, new Date('2027-06-01T00:00:00Z'));
  const released = { releasedAt: '2026-01-10T10:00:00Z' };
  const widget = await createPackage(app, seller.user, 'acme/widget', [{ version: 'v1.0.0', ...released }]);
  const gizmo = await createPackage(app, seller.user, 'acme/gizmo', [{ version: 'v1.0.0', ...released }]);
  // Not in the product: the product's license must not reach it.
  await createPackage(app, seller.user, 'acme/gadget', [{ version: 'v1.0.0', ...released }]);
  const foreign = await createPackage(app, other.user, 'rival/thing', [{ version: 'v1.0.0', ...released }]);
  const suite = await createProduct(seller, 'Acme Suite', [widget.id, gizmo.id]);
  const theirs = await createProduct(other, 'Rival Suite', [foreign.id]);
  return { widget, gizmo, suite, theirs };
}

/** Prices the product at one tier, "Suite": 99 USD once, with 12 months of updates. Returns the tier. */
export async function priceSuite(seller: SignedIn, product: Product): Promise<PackagePrice> {
  const priced = await seller.client.put(`/api/products/${product.id}/pricing-tiers`, {
    tiers: [{ name: 'Suite', pricingType: 'one_time', updateMonths: 12, priceCents: 9900, currency: 'usd' }],
  });
  expect(priced.status, await priced.clone().text()).toBe(200);
  return ((await priced.json()) as PackagePrice[])[0]!;
}

/** Gives the seller a payout account that takes payments, as Stripe reports it after onboarding. Returns its id. */
export async function enablePayouts(app: TestApp, stripe: FakeStripe, seller: SignedIn): Promise<string> {
  const link = await seller.client.post('/api/sales/payout-account/onboarding-link', { returnPath: '/dashboard' });
  expect(link.status, await link.clone().text()).toBe(200);
  const accountId = [...stripe.accounts.values()][0]!.id;
  stripe.enableAccount(accountId);
  const delivered = await stripe.deliver(
    `${app.baseUrl}/api/stripe/connect-webhook`,
    stripe.event('account.updated', stripe.accounts.get(accountId)!, { account: accountId }),
  );
  expect(delivered.status, await delivered.clone().text()).toBe(200);
  await settleProviderEvents(app);
  return accountId;
}
