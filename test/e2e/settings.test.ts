import { describe, expect, it } from 'vitest';
import { signIn } from '../support/sessions.js';
import { openSignedInPage } from './support/browser.js';
import { sellerPageAroundTests } from './support/seller-page.js';
import { openFromAccountMenu } from './support/seller-screens.js';

// The Settings page in a real browser (issue 35 item 5): the owner reaches it from the account menu, downloads the
// export, and closes the account by typing its slug; signing in again shows the account closed with the export.

describe('Settings: your data and closing the account', () => {
  const dashboard = sellerPageAroundTests();

  it('downloads the export and closes the account once the slug is typed', async () => {
    const { app, browser, page, origin, seller } = dashboard;
    await openFromAccountMenu(page, origin, 'Settings', '/settings');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^packgate-export-acme-\d{4}-\d{2}-\d{2}\.tar\.gz$/);

    const close = page.getByRole('button', { name: 'Close account' });
    await page.getByLabel(/to confirm/).fill('acm');
    expect(await close.isDisabled()).toBe(true);
    await page.getByLabel(/to confirm/).fill('acme');
    await close.click();
    await page.waitForURL(`${origin}/`);

    // Signing in again: the account says it is closed, and the export is still offered.
    const again = await signIn(app, { user: seller.user });
    const reopened = await openSignedInPage(browser, origin, again);
    await reopened.page.goto(`${origin}/dashboard`);
    await reopened.page.getByTestId('closed-account-banner').waitFor();
    await reopened.page.goto(`${origin}/settings`);
    await reopened.page.getByTestId('account-closed').waitFor();
    await reopened.page.getByTestId('download-export').waitFor();
  });
});
