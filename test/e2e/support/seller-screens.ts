import type { Locator, Page } from 'playwright-core';

// Steps through the seller's screens that several browser tests take on their way to what they test.

/** Opens an item of the account menu from the Dashboard and waits for its page at `path`. */
export async function openFromAccountMenu(page: Page, origin: string, item: string, path: string): Promise<void> {
  await page.goto(`${origin}/dashboard`);
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
  await page.waitForURL(`${origin}${path}`);
}

/** Picks an item of a package card's Actions menu on Management; answers the dialog of the same name it opens. */
export async function openPackageAction(page: Page, packageName: string, item: string): Promise<Locator> {
  const card = page.getByTestId('package-card').filter({ hasText: packageName });
  await card.getByRole('button', { name: `Actions for ${packageName}` }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
  return page.getByRole('dialog', { name: item });
}

/** Opens the Pricing dialog of a package card on Management. */
export async function openPackagePricing(page: Page, packageName: string): Promise<Locator> {
  const card = page.getByTestId('package-card').filter({ hasText: packageName });
  await card.getByRole('button', { name: 'Pricing' }).click();
  return page.getByRole('dialog', { name: 'Pricing' });
}
