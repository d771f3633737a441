import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../src/contract/products.js';
import { insertPackage } from '../support/packages.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// Pricing a product in a real browser (issue 31 item 2): the Products tab's Pricing button opens the pricing dialog for
// the product, its purchase link names the product, and a buyer's purchase page shows the product with the packages
// one license covers (billing off: the page says payments are not set up, as a package's does).

describe('a product’s price and purchase page in a real browser', () => {
  let buyerContext: BrowserContext | undefined;
  let product: Product;
  let purchaseUrl: string;

  const dashboard = sellerPageAroundTests({ onTrial: true });

  beforeAll(async () => {
    const { app, seller } = dashboard;
    const alpha = await insertPackage(app, seller.user.id, 'acme/alpha');
    const beta = await insertPackage(app, seller.user.id, 'acme/beta');
    const created = await seller.client.post('/api/products', {
      name: 'Suite',
      description: 'Alpha and beta together',
      packageIds: [alpha.id, beta.id],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    product = (await created.json()) as Product;
  });

  afterAll(async () => {
    await buyerContext?.close();
  });

  it('sets the product’s price from the Products tab and gets its purchase link', async () => {
    const { app, page, origin } = dashboard;
    await page.goto(`${origin}/management?tab=products`);
    const card = page.getByTestId('product-card').filter({ hasText: 'Suite' });
    await card.getByRole('button', { name: 'Pricing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pricing' });
    await dialog.getByText('This product is not for sale.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Add Tier' }).click();
    const tier = dialog.getByTestId('pricing-tier');
    await tier.getByLabel('Name').fill('Suite lifetime');
    await tier.getByLabel('Price').fill('99.00');
    await tier.getByLabel('Months of updates').fill('12');
    await dialog.getByRole('button', { name: 'Save Pricing' }).click();
    await page.getByText('Pricing Saved', { exact: true }).first().waitFor();

    const link = dialog.getByTestId('purchase-url');
    await link.waitFor();
    purchaseUrl = (await link.textContent()) ?? '';
    expect(purchaseUrl).toBe(`http://acme.composer.localhost:${app.port}/purchase?product=${product.id}`);
  });

  it('lets the seller run a test purchase of the product from its Pricing dialog (billing off)', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/management?tab=products`);
    await page
      .getByTestId('product-card')
      .filter({ hasText: 'Suite' })
      .getByRole('button', { name: 'Pricing' })
      .click();
    const testPurchase = page.getByRole('dialog', { name: 'Pricing' }).getByTestId('test-purchase');
    await testPurchase.getByText('grants the product’s packages', { exact: false }).waitFor();
    await testPurchase.getByLabel('Holder email').fill('suite-tester@example.com');
    await testPurchase.getByRole('button', { name: 'Run Test Purchase' }).click();
    await page.waitForURL(/\/purchase\/success\?session_id=/);
    const complete = page.getByTestId('purchase-complete');
    await complete.getByText('Test purchase', { exact: true }).waitFor();
    await complete.getByText('It covers acme/alpha, acme/beta.', { exact: false }).waitFor();
    expect(await complete.locator('pre code').allTextContents()).toContainEqual(
      expect.stringContaining('composer require acme/alpha acme/beta'),
    );
  });

  it('shows a buyer the product, its packages and its price on the purchase page', async () => {
    const { browser } = dashboard;
    buyerContext = await browser.newContext();
    const buyer = await buyerContext.newPage();
    await buyer.goto(purchaseUrl);
    await buyer.getByRole('heading', { name: 'Suite', exact: true }).first().waitFor();
    await buyer.getByText('Alpha and beta together').waitFor();
    expect(await buyer.getByTestId('product-packages').textContent()).toContain('acme/alpha, acme/beta');
    const offer = buyer.getByTestId('purchase-tier');
    expect(await offer.count()).toBe(1);
    expect(await offer.getByTestId('tier-price').textContent()).toBe('$99.00');
    await buyer.getByTestId('payments-not-set-up').waitFor();
  });
});
