import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDns, startFakeDns } from '../fakes/dns.js';
import { solidPng } from '../support/logo-fixtures.js';
import { sellerPageAroundTests } from './support/seller-page.js';

/** A toast's title or description (Radix also announces it in a live region, hence exact). */
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

describe("the seller's account in a real browser", () => {
  let dns: FakeDns;

  // Registered before the page's set-up, so it runs after the app asking this DNS server is closed.
  afterAll(async () => {
    await dns?.close();
  });

  // No STRIPE_* settings: billing is off, a chosen plan activates without a charge.
  const dashboard = sellerPageAroundTests(async () => {
    dns = await startFakeDns();
    return { app: { env: { DNS_SERVERS: dns.server } } };
  });

  beforeAll(async () => {
    const { seller } = dashboard;
    const trial = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(trial.status).toBe(200);
  });

  it('sends signed-out visitors of /subscribe, /billing and /documentation to /', async () => {
    const { browser, origin } = dashboard;
    const anonymous = await browser.newContext();
    const visitor = await anonymous.newPage();
    for (const path of ['/subscribe', '/billing', '/documentation']) {
      await visitor.goto(`${origin}${path}`);
      await visitor.waitForURL(`${origin}/`);
    }
    await anonymous.close();
  });

  it('shows the trial on the dashboard with the local code host and the billing button', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/dashboard`);
    const subscription = page.getByTestId('subscription-card');
    await expect.poll(() => subscription.textContent()).toMatch(/Starter Plan · Free Trial.*14 days remaining/);
    expect(await page.getByTestId('code-host-card').textContent()).toContain('Local git repositories');
    await page.getByRole('link', { name: 'Manage Billing and Subscription' }).click();
    await page.waitForURL(`${origin}/billing`);
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Free Trial');
    expect(await page.getByTestId('billing-off-notice').textContent()).toContain('Billing is off on this installation');
  });

  it('subscribes from the trial with billing off, and the trial banner goes', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/subscribe`);
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    expect(await page.getByTestId('trial-banner').isVisible()).toBe(true);
    const cards = page.getByTestId('subscribe-plan-card');
    await expect.poll(() => cards.count()).toBe(4);
    // Cheapest first; the onboarding tier is selected; the spec's badges.
    expect(await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-tier-id')))).toEqual([
      'starter',
      'growth',
      'scale',
      'enterprise',
    ]);
    expect(await cards.nth(0).getAttribute('data-selected')).toBe('true');
    expect(await cards.nth(0).getByTestId('plan-badge').allTextContents()).toEqual(['Most Popular']);
    expect(await cards.nth(2).getByTestId('plan-badge').allTextContents()).toEqual(['Recommended']);
    expect(await cards.nth(3).textContent()).toMatch(/Unlimited.*Unlimited/);
    expect(await cards.nth(1).textContent()).toMatch(/Up to 100.*Up to 10/);
    expect(await page.getByTestId('billing-off-notice').isVisible()).toBe(true);

    await cards.nth(1).getByRole('button', { name: 'Subscribe Now' }).click();
    // Every plan button is disabled while the checkout starts.
    await expect.poll(() => cards.nth(3).getByRole('button').isDisabled()).toBe(true);

    await page.waitForURL(`${origin}/billing`);
    await toast(page, 'Subscription Activated');
    await expect.poll(() => page.getByTestId('checkout-notice').getAttribute('data-phase')).toBe('activated');
    await expect.poll(() => page.getByTestId('billing-plan').textContent()).toBe('Growth Plan');
    expect(await page.getByTestId('billing-status').textContent()).toBe('Active');
    expect(await page.getByTestId('billing-date').textContent()).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => page.getByTestId('trial-banner').count()).toBe(0);

    await page.goto(`${origin}/dashboard`);
    await expect.poll(() => page.getByTestId('subscription-card').textContent()).toMatch(/Growth Plan.*Active/);
    expect(await page.getByTestId('trial-banner').count()).toBe(0);
  });

  it('changes the plan view to Change Your Plan, cancels at period end and reactivates', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/subscribe`);
    await page.getByRole('heading', { name: 'Change Your Plan' }).waitFor();
    const growth = page.locator('[data-testid="subscribe-plan-card"][data-tier-id="growth"]');
    expect(await growth.getByTestId('plan-badge').allTextContents()).toEqual(['Current Plan']);
    const current = growth.getByRole('button', { name: 'Current Plan' });
    expect(await current.isDisabled()).toBe(true);
    expect(
      await page
        .locator('[data-testid="subscribe-plan-card"][data-tier-id="scale"]')
        .getByRole('button', { name: 'Change to This Plan' })
        .isEnabled(),
    ).toBe(true);

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
    expect(await dialog.textContent()).toContain('7 days');
    await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.waitForURL(`${origin}/billing`);
    await toast(page, 'Subscription Cancelled');
    await expect.poll(() => page.getByTestId('checkout-notice').getAttribute('data-phase')).toBe('cancelled');
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Cancels at period end');

    await page.getByRole('button', { name: 'Reactivate Subscription' }).click();
    await toast(page, 'Subscription Activated');
    await expect.poll(() => page.getByTestId('billing-status').textContent()).toBe('Active');
  });

  it("saves branding with an uploaded logo and shows it on the seller's package host", async () => {
    const { app, context, page, origin } = dashboard;
    await page.goto(`${origin}/dashboard`);
    const form = page.getByRole('form', { name: 'Brand Settings' });
    await form.waitFor();
    const fileInput = form.getByTestId('logo-file-input');
    expect(await fileInput.getAttribute('accept')).toBe('image/svg+xml,image/png,image/jpeg,image/gif,image/webp');
    expect(await form.getByLabel('Accent Color', { exact: true }).getAttribute('placeholder')).toBe('#8B5CF6');

    // The client refuses what is not an image before uploading anything.
    await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await toast(page, 'Please upload an image file (SVG, PNG, JPG, GIF, or WebP)');
    // The hide-text choice only exists next to a logo.
    expect(await form.getByRole('checkbox').count()).toBe(0);

    await fileInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(96, 32, [30, 64, 175]) });
    await toast(page, 'Logo uploaded');
    await expect.poll(() => form.getByLabel('Logo', { exact: true }).inputValue()).toMatch(/^\/api\/branding\/logos\//);
    expect(await form.getByRole('checkbox').isVisible()).toBe(true);

    await form.getByLabel('Company Name').fill('Acme Widgets');
    await form.getByLabel('Accent Color', { exact: true }).fill('#0EA5E9');
    await form.getByLabel('Header Color', { exact: true }).fill('#0F172A');
    await form.getByLabel('Support Email').fill('help@acme.example');
    await form.getByRole('button', { name: 'Save Branding' }).click();
    await toast(page, 'Default branding settings saved successfully.');

    // Chromium resolves *.localhost to loopback: the seller's own host, as a license holder opens it.
    const host = await context.newPage();
    await host.goto(`http://acme.composer.localhost:${app.port}/`);
    await host.getByRole('heading', { name: 'Package Access Only' }).waitFor();
    await expect.poll(() => host.getByTestId('brand-name').textContent()).toBe('Acme Widgets');
    const logo = host.getByTestId('brand-logo');
    expect(await logo.getAttribute('src')).toMatch(/\/api\/branding\/logos\//);
    await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(96);
    expect(await host.getByTestId('brand-support-email').getAttribute('href')).toBe('mailto:help@acme.example');
    expect(await host.title()).toBe('Acme Widgets · Package Access');
    const stepColour = await host
      .getByText('1', { exact: true })
      .first()
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(stepColour).toBe('rgb(14, 165, 233)');
    expect(await host.locator('main').textContent()).toContain(
      `composer config bearer.acme.composer.localhost:${app.port} YOUR_ACCESS_TOKEN`,
    );

    // With the name hidden, the logo stands for it.
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Save Branding' }).click();
    await toast(page, 'Default branding settings saved successfully.');
    await host.reload();
    await host.getByTestId('brand-logo').waitFor();
    expect(await host.getByTestId('brand-name').count()).toBe(0);
    expect(await host.getByTestId('brand-logo').getAttribute('alt')).toBe('Acme Widgets');
    await host.close();
  });

  it('opens the DNS setup help with the CNAME records and a TTL of 300', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/dashboard`);
    await page.getByLabel('Domain (optional)').fill('composer.acme.example');
    await page.getByRole('button', { name: 'DNS Setup Help' }).click();
    const dialog = page.getByRole('dialog', { name: 'DNS Setup Help' });
    const records = dialog.getByTestId('dns-record');
    await expect.poll(() => records.count()).toBe(2);
    expect(await records.nth(0).textContent()).toMatch(
      /CNAME\s*composer\s*composer\.acme\.example\s*acme\.composer\.localhost.*300/,
    );
    expect(await records.nth(1).textContent()).toMatch(/CNAME\s*portal\s*portal\.acme\.example\s*localhost.*300/);
    expect(await dialog.getByTestId('dns-target-note').textContent()).toBe(
      'composer: Point it at acme.composer.localhost exactly: that host is yours alone, which is how verification knows the domain is yours. A CNAME to composer.localhost does not verify.',
    );
    expect(await dialog.getByTestId('dns-propagation').textContent()).toBe(
      'DNS changes usually take 5-15 minutes to propagate, and at most 48 hours.',
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('verifies a saved custom domain once its CNAME points at the seller host', async () => {
    const { app, page } = dashboard;
    const verify = page.getByRole('button', { name: 'Verify domain' });
    // An unsaved domain cannot be verified yet.
    expect(await verify.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save Branding' }).click();
    await toast(page, 'Default branding settings saved successfully.');
    await expect.poll(() => page.getByTestId('domain-status').textContent()).toBe('Not verified');

    await verify.click();
    await toast(page, 'Domain Not Verified Yet');

    dns.records.set('composer.acme.example', { cname: 'acme.composer.localhost' });
    await verify.click();
    await toast(page, 'Domain Verified');
    await expect.poll(async () => (await page.getByTestId('domain-status').textContent())?.trim()).toBe('Verified');
    await expect
      .poll(() => page.getByTestId('brand-settings').textContent())
      .toContain(`License e-mails give your repository as http://composer.acme.example:${app.port}`);
  });

  it('documents the setup with the seller’s own repository and links to support', async () => {
    const { app, page, origin } = dashboard;
    await page.goto(`${origin}/documentation#support-section`);
    for (const heading of [
      'Getting Started',
      'Composer Repository Setup',
      'Subscription Model',
      'Branding and Customization',
      'Developer API',
      'Advanced Features',
      'Quick Links',
    ]) {
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    expect(await page.locator('#composer-setup').textContent()).toContain(
      `composer config repositories.acme composer http://acme.composer.localhost:${app.port}`,
    );
    const support = page.locator('#support-section').getByRole('link');
    expect(await support.getAttribute('href')).toMatch(/^mailto:/);
    for (const href of ['/packages', '/api-tokens', '/dashboard', '/api-docs']) {
      expect(await page.locator(`a[href="${href}"]`).count()).toBeGreaterThan(0);
    }
  });
});
