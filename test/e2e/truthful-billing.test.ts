import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedirectUrlResponse, VerifyCheckoutResponse } from '../../src/contract/billing.js';
import { type FakeStripe, startFakeStripe } from '../fakes/stripe.js';
import { type SignedIn, signInAdmin, signInSeller } from '../support/sessions.js';
import { startTestApp, type TestApp, testAppAroundTests } from '../support/test-app.js';
import { launchBrowser, openSignedInPage, photograph, type TestBrowser } from './support/browser.js';

// Issue 12: the billing and admin screens say what is true of the subscription and of the server, not what the
// address or a default claims.

const WIDTHS = [390, 1280] as const;

let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await photograph(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function subscribedSeller(app: TestApp, email: string): Promise<SignedIn> {
  const seller = await signInSeller(app, { email });
  expect((await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' })).status).toBe(200);
  expect((await seller.client.post('/api/platform-subscription/create', { tier: 'growth' })).status).toBe(200);
  return seller;
}

describe('with billing off', () => {
  const started = testAppAroundTests();

  it('announces no cancellation on /billing?cancelled=true while the plan still renews, and the real one after', async () => {
    const seller = await subscribedSeller(started.app, 'renewing@example.com');
    const { context, page } = await openSignedInPage(browser, started.app.ctx.config.publicUrl, seller);
    await page.goto(`${started.app.ctx.config.publicUrl}/billing?cancelled=true`);
    await page.getByTestId('billing-status').filter({ hasText: 'Active' }).waitFor();
    expect(await page.getByTestId('checkout-notice').count()).toBe(0);
    expect(await page.getByText('Subscription Cancelled').count()).toBe(0);
    await shoot(page, 'billing-cancelled-url-still-renews');

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel Subscription' }).click();
    const notice = page.getByTestId('checkout-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('will not renew');
    await page.getByTestId('billing-status').filter({ hasText: 'Cancels at period end' }).waitFor();
    await shoot(page, 'billing-cancelled');
    await context.close();
  });

  it('says on the admin Settings card that payments are off and which variables the selected mode lacks', async () => {
    const admin = await signInAdmin(started.app, { email: 'settings-admin@example.com' });
    const { context, page } = await openSignedInPage(browser, started.app.ctx.config.publicUrl, admin);
    await page.goto(`${started.app.ctx.config.publicUrl}/admin?tab=settings`);
    await page.getByTestId('payments-off-badge').waitFor();
    const text = page.getByTestId('payment-mode-text');
    await expect.poll(() => text.textContent()).toContain('Payments are off');
    expect(await text.textContent()).toContain('STRIPE_TEST_SECRET_KEY and STRIPE_TEST_WEBHOOK_SECRET');
    expect(await page.getByText('Not set').count()).toBe(2);
    expect(await page.getByTestId('test-cards').count()).toBe(0);
    await shoot(page, 'admin-settings-billing-off');
    await context.close();
  });

  it('sends Manage Billing and Subscription on the Dashboard to /billing', async () => {
    const seller = await subscribedSeller(started.app, 'dashboard-off@example.com');
    const { context, page } = await openSignedInPage(browser, started.app.ctx.config.publicUrl, seller);
    await page.goto(`${started.app.ctx.config.publicUrl}/dashboard`);
    await page.getByRole('link', { name: 'Manage Billing and Subscription' }).click();
    await page.waitForURL(`${started.app.ctx.config.publicUrl}/billing`);
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    await context.close();
  });
});

describe('with Stripe', () => {
  let app: TestApp;
  let stripe: FakeStripe;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    app = await startTestApp({ env: stripe.env() });
  });

  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  it("opens the provider's billing portal from the Dashboard, which returns to the Dashboard", async () => {
    const seller = await signInSeller(app, { email: 'paying@example.com' });
    expect((await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' })).status).toBe(200);
    const { url } = (await (
      await seller.client.post('/api/platform-subscription/create', { tier: 'growth' })
    ).json()) as RedirectUrlResponse;
    const sessionId = url.split('/').pop()!;
    stripe.completeCheckout(sessionId);
    const verified = (await (
      await seller.client.post('/api/platform-subscription/verify-checkout', { sessionId })
    ).json()) as VerifyCheckoutResponse;
    expect(verified.success).toBe(true);

    const { context, page } = await openSignedInPage(browser, app.ctx.config.publicUrl, seller);
    await page.goto(`${app.ctx.config.publicUrl}/dashboard`);
    const manageBilling = page.getByRole('button', { name: 'Manage Billing and Subscription' });
    await manageBilling.waitFor();
    await shoot(page, 'dashboard-billing-on');
    await manageBilling.click();
    await page.getByRole('heading', { name: 'Billing portal' }).waitFor();
    expect(page.url().startsWith(stripe.url)).toBe(true);
    const portal = [...stripe.portalSessions.values()].at(-1);
    expect(portal?.return_url).toBe(`${app.ctx.config.publicUrl}/dashboard`);
    await context.close();
  });
});
