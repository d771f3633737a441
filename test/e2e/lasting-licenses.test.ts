import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/outbox.js';
import { addSyncedPackage } from '../support/packages.js';
import { sellerPageAroundTests } from './support/seller-page.js';
import { openPackageAction } from './support/seller-screens.js';

// A customer who paid elsewhere gets a lasting license by hand, from a package's Licenses dialog in
// Management, with the same terms the API takes; the seller changes the terms, revokes and restores it.

const toast = (text: string) => dashboard.page.getByText(text, { exact: true }).first().waitFor();

const dashboard = sellerPageAroundTests({ onTrial: true });

beforeAll(async () => {
  const { app, seller } = dashboard;
  await addSyncedPackage(app, seller, 'acme/widget');
});

describe('lasting licenses in Management', () => {
  it('issues a license without expiry and with a download limit, e-mailing the holder', async () => {
    const { app, page, origin } = dashboard;
    await page.goto(`${origin}/management`);
    const dialog = await openPackageAction(page, 'acme/widget', 'Licenses');
    await dialog.getByText('No licenses yet.').waitFor();

    const issue = dialog.getByRole('button', { name: 'Issue License' });
    expect(await issue.isDisabled()).toBe(true);
    await dialog.getByLabel('Email').fill('buyer@example.com');
    await dialog.getByLabel('Download limit').fill('0');
    await issue.click();
    await dialog.getByText(/The download limit must be a whole number from 1/).waitFor();
    await dialog.getByLabel('Download limit').fill('5');
    await dialog.getByLabel('Note (optional)').fill('Invoice 42');
    await issue.click();

    await toast('License Issued');
    const issued = dialog.getByTestId('issued-license');
    await issued.waitFor();
    expect(await issued.textContent()).toContain(
      `composer config repositories.acme composer http://acme.composer.localhost:${app.port}`,
    );
    expect(await issued.textContent()).toMatch(/pgc_/);
    const row = dialog.getByTestId('package-license');
    await row.waitFor();
    expect(await row.textContent()).toMatch(/buyer@example\.com\s*Active\s*Manual/);
    expect(await row.textContent()).toContain('Never expires');
    expect(await row.textContent()).toContain('Downloads 0 / 5');
    expect(await row.textContent()).toContain('Invoice 42');
    await expect.poll(() => readOutbox(app.dataDir).some((mail) => mail.to.includes('buyer@example.com'))).toBe(true);
  });

  it('changes the terms: an end date that ends updates only, and unlimited downloads', async () => {
    const { page } = dashboard;
    const dialog = page.getByRole('dialog', { name: 'Licenses' });
    const row = dialog.getByTestId('package-license');
    await row.getByRole('button', { name: 'Edit license of buyer@example.com' }).click();
    const form = dialog.getByRole('form', { name: 'Edit license' });
    await form.getByLabel('Expires on').fill('2099-12-31');
    await form.getByLabel('Download limit').fill('');
    await form.getByLabel('At expiry').selectOption('updates');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await toast('License Updated');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('Dec 31, 2099');
    expect(await row.textContent()).toContain('(updates only)');
    expect(await row.textContent()).toContain('Downloads 0 / Unlimited');
  });

  it('revokes the license and restores it', async () => {
    const { page } = dashboard;
    const dialog = page.getByRole('dialog', { name: 'Licenses' });
    const row = dialog.getByTestId('package-license');
    await row.getByRole('button', { name: 'Revoke license of buyer@example.com' }).click();
    await page.getByRole('dialog', { name: 'Revoke License' }).getByRole('button', { name: 'Revoke' }).click();
    await toast('License Revoked');
    await expect.poll(() => row.textContent()).toMatch(/buyer@example\.com\s*Revoked/);
    await row.getByRole('button', { name: 'Restore' }).click();
    await toast('License Restored');
    await expect.poll(() => row.textContent()).toMatch(/buyer@example\.com\s*Active/);
  });
});
