import { expect } from 'vitest';
import type { Product } from '../../src/contract/products.js';
import { platformSubscriptions } from '../../src/server/db/schema/index.js';
import { createPackage, type FixturePackage } from '../composer/repository-fixtures.js';
import type { SignedIn } from './sessions.js';
import type { TestApp } from './test-app.js';

// The shop the product sales tests sell from (issue 31): a seller on the enterprise plan with acme/widget and
// acme/gizmo in the product "Acme Suite" and acme/gadget outside it, and a rival seller with a product of their own.

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
  await app.ctx.db.insert(platformSubscriptions).values({
    userId: seller.user.id,
    status: 'active',
    tierId: 'enterprise',
    currentPeriodEnd: new Date('2027-06-01T00:00:00Z'),
  });
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
