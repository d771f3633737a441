import { beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../src/server/db/schema/index.js';
import { LICENSE_HOLDERS_PAGE_SIZE } from '../../src/web/lib/constants.js';
import { openSignedInPage } from './support/browser.js';
import { sellerBrowserAroundTests } from './support/seller-page.js';

// Access Management pages its holders (issue 34 item 4): the first page, then the next one as the seller scrolls
// to the end or clicks Load more; the search asks the server, so it finds a holder not loaded yet.

const HOLDER_COUNT = LICENSE_HOLDERS_PAGE_SIZE + 10;
const holderEmail = (index: number) => `holder-${String(index).padStart(3, '0')}@example.com`;

const started = sellerBrowserAroundTests({ seller: { slug: 'pages' } });

beforeAll(async () => {
  const { app, seller } = started;
  expect((await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' })).status).toBe(200);
  // Holder 1 is the oldest: newest first, the first page ends at holder 11.
  const start = Date.parse('2026-01-01T00:00:00Z');
  await app.ctx.db.insert(customers).values(
    Array.from({ length: HOLDER_COUNT }, (_, index) => ({
      sellerId: seller.user.id,
      email: holderEmail(index + 1),
      createdAt: new Date(start + index * 60_000),
    })),
  );
}, 180_000);

describe('Access Management', () => {
  it('shows a second page of holders after the first, and finds by search one not loaded yet', async () => {
    const { app, browser, seller } = started;
    const origin = app.ctx.config.publicUrl;
    const management = await openSignedInPage(browser, origin, seller);
    try {
      const { page } = management;
      await page.goto(`${origin}/management`);
      await page.getByRole('tab', { name: 'Access Management' }).click();
      const holders = page.getByTestId('license-holder');
      await holders.first().getByText(holderEmail(HOLDER_COUNT)).waitFor();
      expect(await holders.count()).toBe(LICENSE_HOLDERS_PAGE_SIZE);
      expect(await holders.last().textContent()).toContain(holderEmail(11));

      await page.getByLabel('Search license holders').fill('holder-003');
      await holders.first().getByText(holderEmail(3)).waitFor();
      await expect.poll(() => holders.count()).toBe(1);

      await page.getByLabel('Search license holders').fill('');
      await holders.nth(LICENSE_HOLDERS_PAGE_SIZE - 1).waitFor();
      // Scrolling to the end loads the next page (a Load more button is there for those who click).
      await page.getByRole('button', { name: 'Load more' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await holders.last().getByText(holderEmail(1)).waitFor();
      expect(await holders.count()).toBe(HOLDER_COUNT);
      await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    } finally {
      await management.context.close();
    }
  });
});
