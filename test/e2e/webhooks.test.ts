import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.js';
import { photograph } from './support/browser.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// The Webhooks page in a real browser: add an endpoint (secret shown once, copied), send a test event that a
// receiver on loopback verifies, see its delivery with status, code and timing, disable the endpoint; photographed
// at desktop and phone widths into SHOTS_DIR when it is set.

describe('the Webhooks page in a real browser', () => {
  let receiver: WebhookReceiver;

  const dashboard = sellerPageAroundTests({
    app: { env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, jobTimings: { pollMs: 50 } },
  });

  beforeAll(async () => {
    const { app } = dashboard;
    receiver = await startWebhookReceiver({ now: () => app.clock.now() });
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('adds an endpoint, shows its secret once, delivers a verified test event and lists it', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/webhooks`);
    await page.getByRole('link', { name: 'Webhooks' }).first().waitFor();
    await page.getByText('No webhook endpoints yet').waitFor();

    await page.getByRole('button', { name: 'Add Endpoint' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByLabel('Description (optional)').fill('Shop fulfilment');
    await dialog.getByRole('checkbox', { name: /license\.created/ }).check();
    await dialog.getByRole('checkbox', { name: /purchase\.completed/ }).check();
    await dialog.getByRole('button', { name: 'Add Endpoint' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Signing Secret' });
    const secret = (await secretDialog.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    receiver.secret = secret;
    await page.setViewportSize({ width: 1280, height: 900 });
    await photograph(page, 'webhooks-secret-1280', { fullPage: false });
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'hidden' });
    expect(await page.getByText(secret).count()).toBe(0);

    const card = page.getByRole('listitem').filter({ hasText: receiver.url }).first();
    await card.getByText('Shop fulfilment').waitFor();
    await card.getByText('license.created', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Send Test Event' }).click();
    const [received] = await receiver.waitForRequests(1);
    expect(received).toMatchObject({ isVerified: true, answeredStatus: 200 });

    await card.getByRole('button', { name: 'Deliveries' }).click();
    const delivery = card
      .getByRole('list', { name: /Deliveries to/ })
      .getByRole('listitem')
      .first();
    await delivery.getByText('Delivered').waitFor({ timeout: 20_000 });
    await delivery.getByText('webhook.test').waitFor();
    await delivery.getByText(`webhook-id: ${received!.id}`).waitFor();
    await delivery.getByText('200', { exact: true }).waitFor();
    await delivery.getByText(/^\d+ ms$/).waitFor();

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ width, overflow }).toEqual({ width, overflow: 0 });
      await photograph(page, `webhooks-${width}`);
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    await card.getByRole('switch', { name: 'Disable endpoint' }).click();
    await card.getByText('Disabled', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: 'Send Test Event' }).isDisabled()).toBe(true);
  });
});
