import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/outbox.js';
import { insertPackage } from '../support/packages.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// Management's Products tab in a real browser (issue 31): the seller makes a product of two packages and licenses a
// holder for it; the holder gets one e-mail naming both packages.

describe('products on Management in a real browser', () => {
  const dashboard = sellerPageAroundTests({ onTrial: true });

  beforeAll(async () => {
    const { app, seller } = dashboard;
    await insertPackage(app, seller.user.id, 'acme/alpha');
    await insertPackage(app, seller.user.id, 'acme/beta');
    await insertPackage(app, seller.user.id, 'acme/gamma');
  });

  it('creates a product and licenses a holder for it', async () => {
    const { app, page, origin } = dashboard;
    await page.goto(`${origin}/management?tab=products`);
    await page.getByRole('button', { name: 'New product' }).click();
    const form = page.getByRole('form', { name: 'New product' });
    await form.getByLabel('Name').fill('Suite');
    await form.getByLabel('Description (optional)').fill('Alpha and beta together');
    await form.getByLabel('acme/alpha').check();
    await form.getByLabel('acme/beta').check();
    await form.getByRole('button', { name: 'Create product' }).click();

    const card = page.getByTestId('product-card').filter({ hasText: 'Suite' });
    await card.getByText('acme/alpha, acme/beta').waitFor();
    await card.getByText('0 active licenses').waitFor();

    await card.getByRole('button', { name: 'License a holder' }).click();
    await card.getByLabel("Holder's e-mail").fill('buyer@example.com');
    await card.getByLabel('Versions').fill('^1.0');
    await card.getByLabel('Developer seats').fill('3');
    await card.getByRole('button', { name: 'Issue license' }).click();
    await card.getByText('1 active license').waitFor();
    await card.getByText(/buyer@example\.com · Active/).waitFor();
    // A product with an active license cannot be deleted, and says why.
    await card.getByText('A product with active licenses cannot be deleted: revoke them first.').waitFor();
    expect(await card.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);

    const mails = readOutbox(app.dataDir).filter((mail) => mail.to.includes('buyer@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('Suite: acme/alpha, acme/beta; versions ^1.0; 3 developer seats');
  });
});
