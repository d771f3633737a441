import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signInAdmin, signInSeller } from '../support/sessions.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { launchBrowser, openSignedInPage, type TestBrowser } from './support/browser.js';

describe('the admin dashboard in a real browser', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let page: Page;
  let origin: string;
  let admin: SignedIn;
  const shots = process.env.ADMIN_SCREENSHOTS_DIR;
  const shoot = async (name: string) => {
    if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
  };

  beforeAll(async () => {
    app = await startTestApp();
    origin = app.ctx.config.publicUrl;
    admin = await signInAdmin(app, { email: 'boss@example.com' });
    browser = await launchBrowser();
    ({ page } = await openSignedInPage(browser, origin, admin));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('changes the trial length and a price in the tier dialog, and the landing page shows them', async () => {
    await page.goto(`${origin}/admin?tab=platform`);
    await page.getByRole('button', { name: 'Manage Tiers' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Trial Days').fill('21');
    const starter = dialog.getByTestId('tier-editor').first();
    expect(await starter.getByLabel('Name').inputValue()).toBe('Starter');
    await starter.getByLabel('Monthly Price ($)').fill('24.50');
    await shoot('tier-dialog');
    await dialog.getByRole('button', { name: 'Save Configuration' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A visitor, not the signed-in admin, sees the trial call to action.
    const visitor = await browser.newContext();
    const landing = await visitor.newPage();
    await landing.goto(`${origin}/`);
    const cards = landing.getByTestId('plan-card');
    await expect.poll(() => cards.count()).toBe(4);
    const starterCard = await cards.first().textContent();
    expect(starterCard).toContain('Start 21-Day Free Trial');
    expect(starterCard).toContain('$24.50');
    await visitor.close();
  });

  it('toggles Sandbox Mode on the Settings tab', async () => {
    await page.goto(`${origin}/admin?tab=settings`);
    const toggle = page.getByRole('switch', { name: 'Sandbox Mode' });
    const badge = page.getByTestId('payment-mode-badge');
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    const wasSandbox = (await toggle.getAttribute('aria-checked')) === 'true';
    expect(await badge.textContent()).toBe(wasSandbox ? 'Test Mode' : 'Live Mode');
    await shoot('settings-before');
    await toggle.click();
    await page.getByText('Setting Updated').first().waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe(String(!wasSandbox));
    expect(await badge.textContent()).toBe(wasSandbox ? 'Live Mode' : 'Test Mode');
    const saved = await admin.client.get('/api/admin/platform-settings');
    expect(await saved.json()).toContainEqual({ key: 'stripe_sandbox_mode', value: String(!wasSandbox) });
    await shoot('settings-after');
  });

  it('refreshes the package cache from the Cache tab and announces the end of the task', async () => {
    await page.goto(`${origin}/admin?tab=cache`);
    await page.getByText('No active packages to cache at this time.').waitFor();
    expect(await page.getByTestId('cache-stats').textContent()).toContain('Never');
    await page.getByRole('button', { name: 'Refresh All Cache' }).click();
    await page.getByText('Cache Refresh Complete').first().waitFor({ timeout: 15_000 });
    await shoot('cache');
  });

  it('asks before removing a tier that only trial users have, and keeps it when the admin declines', async () => {
    const seller = await signInSeller(app);
    const trial = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'growth' });
    expect(trial.status).toBe(200);
    await page.goto(`${origin}/admin?tab=platform`);
    await page.getByRole('button', { name: 'Manage Tiers' }).click();
    const dialog = page.getByRole('dialog');
    const editors = dialog.getByTestId('tier-editor');
    await expect.poll(() => editors.count()).toBe(4);
    let question = '';
    page.once('dialog', async (confirm) => {
      question = confirm.message();
      await confirm.dismiss();
    });
    await dialog.getByRole('button', { name: 'Remove Growth' }).click();
    await expect
      .poll(() => question)
      .toBe(
        'This tier has 1 trial user(s). Are you sure you want to delete it? Trial users will need to select a different tier.',
      );
    expect(await editors.count()).toBe(4);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
