import { TOTP } from 'otpauth';
import type { CDPSession } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client.js';
import { findLink, readOutbox } from '../support/outbox.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// Strong sign-in in Chromium (issue 33, "Done when"): Chrome's virtual authenticator (the DevTools protocol's
// WebAuthn domain) stands in for a device's passkey; authenticator codes are computed with otpauth, the library the
// server checks them with, at the app's clock.

describe('strong sign-in in a real browser', () => {
  let cdp: CDPSession;
  let recoveryCodes: string[] = [];
  let totpSecret = '';

  const dashboard = sellerPageAroundTests({ seller: { slug: 'strong' } });

  beforeAll(async () => {
    const { context, page } = dashboard;
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  });

  /** Signs the browser out and opens a fresh e-mailed sign-in link for the owner. */
  async function openEmailedLink() {
    const { app, context, page, seller: owner } = dashboard;
    await context.clearCookies();
    const client = new TestClient(app.baseUrl);
    await client.post('/api/auth/magic-link', { email: owner.user.email, userType: 'seller' });
    const mail = readOutbox(app.dataDir)
      .filter((message) => message.to.includes(owner.user.email!))
      .at(-1)!;
    await page.goto(findLink(mail.body, /http\S+\/api\/auth\/magic-link\/callback\?token=\S+/));
    await page.getByText("Verify it's you").waitFor();
  }

  const dashboardShown = () => dashboard.page.getByTestId('header-username').waitFor();

  /**
   * Waits for the verify step to end, then the dashboard. The header shows during the verify step too, so it alone
   * says nothing: a test that went on at once navigated while the factor's request was still on its way, and the
   * navigation aborted it (a recovery code answered slowly under CI's load left the step pending for good).
   */
  async function secondStepPassed() {
    await dashboard.page.getByText("Verify it's you").waitFor({ state: 'detached' });
    await dashboardShown();
  }

  it('registers a passkey on the Security page, with ten recovery codes shown once', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/security`);
    await page.getByTestId('lost-factors-notice').waitFor();
    await page.getByLabel('Name').fill('Virtual key');
    await page.getByRole('button', { name: 'Add Passkey' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    recoveryCodes = await page.getByTestId('recovery-code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect
      .poll(() => page.getByTestId('passkey').allTextContents())
      .toEqual([expect.stringContaining('Virtual key')]);
  });

  it('signs in with the passkey alone from the sign-in dialog', async () => {
    const { context, page, origin } = dashboard;
    await context.clearCookies();
    await page.goto(`${origin}/?signin=email`);
    await page.getByRole('button', { name: 'Sign in with a Passkey' }).click();
    await page.waitForURL(`${origin}/dashboard`);
    await dashboardShown();
    expect(await page.getByTestId('header-username').textContent()).toBeTruthy();
  });

  it('sets up an authenticator app and asks for its code after an e-mailed link', async () => {
    const { app, page, origin } = dashboard;
    await page.goto(`${origin}/security`);
    await page.getByRole('button', { name: 'Set Up Authenticator App' }).click();
    totpSecret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(await page.getByAltText('QR code for your authenticator app').isVisible()).toBe(true);
    const totp = new TOTP({ secret: totpSecret, digits: 6, period: 30, algorithm: 'SHA1' });
    await page.getByLabel('Code').fill(totp.generate({ timestamp: app.clock.now().getTime() }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('On', { exact: true }).waitFor();

    await openEmailedLink();
    app.clock.advance(30_000); // the code just used is never accepted again; the next one is
    await page.getByLabel('Authenticator code').fill(totp.generate({ timestamp: app.clock.now().getTime() }));
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await secondStepPassed();
  });

  it('accepts a recovery code once', async () => {
    const { page, origin } = dashboard;
    await openEmailedLink();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Use Recovery Code' }).click();
    await secondStepPassed();
    await page.goto(`${origin}/security`);
    await expect.poll(() => page.getByTestId('recovery-codes-remaining').textContent()).toContain('9 of 10');

    await openEmailedLink();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Use Recovery Code' }).click();
    await expect
      .poll(() => page.getByTestId('second-factor-error').textContent())
      .toContain('not valid or was already used');
  });

  it('passes the second step with the passkey too, and lists this session', async () => {
    const { page, origin } = dashboard;
    await openEmailedLink();
    await page.getByRole('button', { name: 'Use a Passkey' }).click();
    // Before leaving the page: a navigation would abort the passkey ceremony.
    await secondStepPassed();
    await page.goto(`${origin}/security`);
    const current = page.getByTestId('session').filter({ hasText: 'This device' });
    await expect.poll(() => current.textContent()).toContain('127.0.0.0/24');
  });
});
