import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signInAdmin } from '../support/sessions.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { launchBrowser, type TestBrowser } from './support/browser.js';

// Issue 12: what a visitor sees (and what a crawler reads) must be true.
describe('pages that tell the truth', () => {
  let app: TestApp;
  let browser: TestBrowser;
  let origin: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    origin = app.ctx.config.publicUrl;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await app?.close();
  });

  async function signedOutPage(): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    return context.newPage();
  }

  it('answers 404 for an unknown path with the app and its Page Not Found, and 200 for the app’s own pages', async () => {
    const page = await signedOutPage();
    const unknown = await page.goto(`${origin}/no/such/page`);
    expect(unknown?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    for (const path of ['/', '/terms', '/privacy', '/admin/login', '/dashboard?x=1', '/composer-access-only']) {
      const known = await page.goto(`${origin}${path}`);
      expect(known?.status(), path).toBe(200);
    }
  });

  it('logs no console error on signed-out pages and on a white-label host of no seller', async () => {
    const page = await signedOutPage();
    const errors: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));

    await page.goto(`${origin}/`);
    await page.getByTestId('plan-card').first().waitFor();
    await page.goto(`${origin}/terms`);
    await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
    await page.goto(`${origin}/privacy`);
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    await page.goto(`${origin}/admin/login`);
    await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
    await page.goto(`http://nobody.composer.localhost:${app.port}/`);
    await page.getByRole('heading', { level: 1, name: 'Package Access Only' }).waitFor();
    // Both lookups have answered once their pages show; wait for the network to settle so late ones count too.
    await page.waitForLoadState('networkidle');

    expect(errors).toEqual([]);
  });

  it('gives the admin login page an h1', async () => {
    const page = await signedOutPage();
    await page.goto(`${origin}/admin/login`);
    await page.getByRole('heading', { level: 1, name: 'Admin Login' }).waitFor();
  });

  it('states in the Terms the trial length an admin configured', async () => {
    const admin: SignedIn = await signInAdmin(app, { email: 'boss@example.com' });
    const current = (await (await admin.client.get('/api/admin/tier-configuration')).json()) as {
      tiers: unknown[];
      trialDays: number;
    };
    const saved = await admin.client.put('/api/admin/tier-configuration', { ...current, trialDays: 30 });
    expect(saved.status).toBe(200);

    const page = await signedOutPage();
    await page.goto(`${origin}/terms`);
    const trial = page.locator('#free-trial');
    await expect.poll(() => trial.textContent()).toContain('free of charge for 30 days');
    expect(await trial.textContent()).not.toContain('14');
  });
});
