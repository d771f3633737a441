import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/outbox.js';
import { addSyncedPackage } from '../support/packages.js';
import { sellerPageAroundTests } from './support/seller-page.js';
import { openPackageAction, openPackagePricing } from './support/seller-screens.js';

// Issue 31 in Management: a seller gives one holder several packages from one Licenses dialog (one e-mail naming
// them all), and sells a pricing tier for a version range that the purchase page shows beside the tier.

let buyerContext: BrowserContext | undefined;
let widgetId: string;

const dashboard = sellerPageAroundTests({ onTrial: true });

beforeAll(async () => {
  const { app, seller } = dashboard;
  widgetId = await addSyncedPackage(app, seller, 'acme/widget');
  await addSyncedPackage(app, seller, 'acme/gadget');
});

afterAll(async () => {
  await buyerContext?.close();
});

describe('several packages and version ranges in Management', () => {
  it('gives one holder two packages in one go, with one e-mail naming both', async () => {
    const { app, page, origin } = dashboard;
    await page.goto(`${origin}/management`);
    const dialog = await openPackageAction(page, 'acme/widget', 'Licenses');
    await dialog.getByText('No licenses yet.').waitFor();

    const widget = dialog.getByRole('checkbox', { name: 'acme/widget' });
    const gadget = dialog.getByRole('checkbox', { name: 'acme/gadget' });
    expect(await widget.isChecked()).toBe(true);
    expect(await gadget.isChecked()).toBe(false);
    await dialog.getByLabel('Email').fill('team@example.com');
    await gadget.check();
    await dialog.getByRole('button', { name: 'Issue 2 Licenses' }).click();

    await page.getByText('2 Licenses Issued', { exact: true }).first().waitFor();
    const issued = dialog.getByTestId('issued-license');
    await issued.waitFor();
    const text = (await issued.textContent()) ?? '';
    expect(text).toContain('2 licenses issued: team@example.com may install');
    expect(text).toContain('acme/widget');
    expect(text).toContain('acme/gadget');
    expect(text).toContain('One e-mail');

    const toHolder = () => readOutbox(app.dataDir).filter((mail) => mail.to.includes('team@example.com'));
    await expect.poll(() => toHolder().length).toBeGreaterThan(0);
    const mails = toHolder();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body).toContain('acme/widget');
    expect(mails[0]?.body).toContain('acme/gadget');

    await dialog.getByRole('listitem').filter({ hasText: 'team@example.com' }).first().waitFor();
    // Escape would first close the toast (Radix layers): close the dialog the way a seller does.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const gadgetDialog = await openPackageAction(page, 'acme/gadget', 'Licenses');
    await gadgetDialog.getByRole('listitem').filter({ hasText: 'team@example.com' }).first().waitFor();
    await gadgetDialog.getByRole('button', { name: 'Close' }).click();
    await gadgetDialog.waitFor({ state: 'hidden' });
  });

  it('sells a tier for versions ^2.0 and shows the range beside it on the purchase page', async () => {
    const { browser, page, origin } = dashboard;
    await page.goto(`${origin}/management`);
    const dialog = await openPackagePricing(page, 'acme/widget');
    await dialog.getByText('No prices yet').waitFor();
    await dialog.getByRole('button', { name: 'Add Tier' }).click();
    const tier = dialog.getByTestId('pricing-tier');
    await tier.getByLabel('Name').fill('Version 2 licence');
    await tier.getByLabel('Price').fill('29.00');

    const versions = tier.getByLabel('Versions (optional)');
    expect(await versions.getAttribute('placeholder')).toContain('Every version');
    await versions.fill('not a version');
    await dialog.getByRole('button', { name: 'Save Pricing' }).click();
    await tier.getByText(/versionConstraint is not a Composer version constraint/).waitFor();
    expect(await versions.getAttribute('aria-invalid')).toBe('true');

    await versions.fill('^2.0');
    await dialog.getByRole('button', { name: 'Save Pricing' }).click();
    await page.getByText('Pricing Saved', { exact: true }).first().waitFor();
    const link = dialog.getByTestId('purchase-url');
    await link.waitFor();
    const purchaseUrl = (await link.textContent()) ?? '';
    expect(purchaseUrl).toContain(`/purchase?package=${widgetId}`);

    buyerContext = await browser.newContext();
    const buyer = await buyerContext.newPage();
    await buyer.goto(purchaseUrl);
    const offer = buyer.getByTestId('purchase-tier');
    await offer.waitFor();
    expect(await offer.textContent()).toContain('Version 2 licence');
    expect(await offer.getByTestId('tier-versions').textContent()).toBe('Versions ^2.0');
    // What the range and the period give together, said plainly (not "every version" beside "Versions ^2.0").
    expect(await offer.textContent()).toMatch(
      /Install every \^2\.0 version released in the next \d+ months?, and keep them for good\. Versions outside \^2\.0 are not included\./,
    );
  });
});
