import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customers, downloads, grants, packages } from '../../src/server/db/schema/index.js';
import { sha256Hex } from '../../src/server/lib/crypto.js';
import { insertPackage } from '../support/packages.js';
import { photograph } from './support/browser.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// The Analytics page in a real browser: the figures drawn equal the downloads the database holds, and the charts fit
// desktop and phone widths, light and dark (photographed into SHOTS_DIR when it is set, for a person to look at).

const DAY = 86_400_000;

describe('seller analytics in a real browser', () => {
  async function counted(query: ReturnType<typeof sql>): Promise<{ day: string; n: number }[]> {
    const { app } = dashboard;
    const result = (await app.ctx.db.execute(query)) as unknown as { rows: { day: string; n: number }[] };
    return result.rows.map((row) => ({ day: row.day, n: Number(row.n) }));
  }

  const dashboard = sellerPageAroundTests();

  beforeAll(async () => {
    const { app, seller } = dashboard;
    const trial = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(trial.status).toBe(200);

    const db = app.ctx.db;
    const pkgs = [
      await insertPackage(app, seller.user.id, 'acme/widget'),
      await insertPackage(app, seller.user.id, 'acme/gadget'),
    ];
    const holders = await db
      .insert(customers)
      .values(
        Array.from({ length: 6 }, (_, index) => ({
          sellerId: seller.user.id,
          email: `holder${index + 1}@example.com`,
          tokenHash: sha256Hex(`e2e-holder-${index}`),
        })),
      )
      .returning();
    const grantRows = await db
      .insert(grants)
      .values(
        holders.flatMap((holder, index) =>
          pkgs
            .slice(0, 1 + (index % 2))
            .map((pkg) => ({ customerId: holder.id, packageId: pkg.id, kind: 'manual' as const })),
        ),
      )
      .returning();
    // Downloads over the last 100 days, more lately; versions newer lately; a deterministic spread.
    const now = app.clock.now().getTime();
    const rows: (typeof downloads.$inferInsert)[] = [];
    for (let index = 0; index < 400; index++) {
      const grant = grantRows[(index * 7) % grantRows.length]!;
      const holderIndex = holders.findIndex((holder) => holder.id === grant.customerId);
      // Holders 5 and 6 stopped downloading two months ago: still on older versions.
      const age = Math.floor(((index * 37) % 100) ** 1.3 / 4) + (holderIndex >= 4 ? 60 : 0);
      rows.push({
        grantId: grant.id,
        packageId: grant.packageId!,
        version: age < 15 ? '2.1.0' : age < 40 ? '2.0.0' : age < 70 ? '1.4.0' : '1.0.0',
        downloadedAt: new Date(now - age * DAY - (index % 5) * 3_600_000),
        // Holder 1's token is used from four networks; the others from one each.
        clientNetwork: holderIndex === 0 ? `10.${index % 4}.0.0/24` : `10.9.${holderIndex}.0/24`,
      });
    }
    await db.insert(downloads).values(rows);
  });

  async function showAnalytics(width: number, theme: 'light' | 'dark') {
    const { page, origin } = dashboard;
    await page.setViewportSize({ width, height: 900 });
    await page.addInitScript((chosen) => localStorage.setItem('theme', chosen), theme);
    await page.goto(`${origin}/analytics`);
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await page.getByTestId('downloads-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByTestId('versions-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByTestId('top-holders-card').getByText('holder1@example.com').waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
  }

  it('draws the downloads the database holds, day by day, and the Dashboard figures beside them', async () => {
    const { app, page } = dashboard;
    await showAnalytics(1280, 'light');
    const perDay = await counted(sql`
      select (downloaded_at at time zone 'UTC')::date::text as day, count(*)::int as n from ${downloads}
      where downloaded_at >= (${app.clock.now().toISOString()}::timestamptz at time zone 'UTC')::date - 29
      group by 1 order by 1`);
    const inPeriod = perDay.reduce((sum, row) => sum + row.n, 0);
    expect(inPeriod).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('stat-period').textContent()).toBe(inPeriod.toLocaleString('en-US'));
    const [total] = await counted(sql`select 'all' as day, count(*)::int as n from ${downloads}`);
    expect(await page.getByTestId('stat-total').textContent()).toBe(total!.n.toLocaleString('en-US'));

    // One bar per day with downloads, and the table behind the chart day by day.
    const bars = page.getByTestId('downloads-chart').locator('.recharts-bar-rectangle path');
    expect(await bars.count()).toBe(perDay.length);
    await page.getByText('Show as a table').click();
    const cells = page.getByTestId('point-downloads');
    expect(await cells.count()).toBe(30);
    const shown = new Map<string, number>();
    for (const cell of await cells.all()) {
      const value = Number((await cell.textContent())?.replaceAll(',', ''));
      if (value > 0) shown.set((await cell.getAttribute('data-start'))!, value);
    }
    expect(shown).toEqual(new Map(perDay.map((row) => [row.day, row.n])));
  });

  it('shows the version each holder is on and ranks holders by their downloads', async () => {
    const { app, page } = dashboard;
    // The chart shows the first package by name.
    const gadget = (await app.ctx.db.select().from(packages).where(sql`${packages.name} = 'acme/gadget'`))[0]!;
    const lastVersions = await counted(sql`
      select version as day, count(*)::int as n from (
        select distinct on (grant_id) version from ${downloads} where package_id = ${gadget.id}
        order by grant_id, downloaded_at desc) last group by version`);
    const versionBars = page.getByTestId('versions-chart').locator('.recharts-bar-rectangle');
    expect(await versionBars.count()).toBe(lastVersions.length);

    const top = await counted(sql`
      select c.email as day, count(*)::int as n from ${downloads} d join ${grants} g on g.id = d.grant_id
      join ${customers} c on c.id = g.customer_id
      where d.downloaded_at >= (${app.clock.now().toISOString()}::timestamptz at time zone 'UTC')::date - 29
      group by c.email order by n desc, c.email`);
    const rows = page.getByTestId('top-holders-card').locator('tbody tr');
    expect(await rows.count()).toBe(top.length);
    for (const [index, expected] of top.entries()) {
      const cells = rows.nth(index).locator('td');
      expect(await cells.nth(0).textContent()).toBe(expected.day);
      expect(await cells.nth(1).textContent()).toBe(String(expected.n));
    }
  });

  it('charts one holder when asked, and offers every table as CSV', async () => {
    const { app, page } = dashboard;
    await page
      .getByTestId('top-holders-card')
      .locator('tbody tr')
      .first()
      .getByRole('button', { name: 'Chart' })
      .click();
    await page.getByTestId('holder-filter').waitFor();
    const email = (await page.getByTestId('top-holders-card').locator('tbody tr td').first().textContent())!;
    const [holderCount] = await counted(sql`
      select 'x' as day, count(*)::int as n from ${downloads} d join ${grants} g on g.id = d.grant_id
      join ${customers} c on c.id = g.customer_id where c.email = ${email}
      and d.downloaded_at >= (${app.clock.now().toISOString()}::timestamptz at time zone 'UTC')::date - 29`);
    await expect.poll(() => page.getByTestId('stat-period').textContent()).toBe(String(holderCount!.n));
    const links = page.getByRole('link', { name: 'CSV' });
    expect(await links.count()).toBe(5);
    const download = await Promise.all([page.waitForEvent('download'), links.nth(2).click()]);
    expect(download[0].suggestedFilename()).toMatch(/^top-holders-30-days-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  // Four page loads with charts: under a loaded machine this takes longer than one page's 60 s.
  it('fits the charts in 1280 and 390 pixels, light and dark', { timeout: 240_000 }, async () => {
    const { page } = dashboard;
    for (const width of [1280, 390]) {
      for (const theme of ['light', 'dark'] as const) {
        await showAnalytics(width, theme);
        await photograph(page, `analytics-${width}-${theme}`);
        // Nothing wider than the screen: the page never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
  });

  // Issue 36: on a phone the day table was 656 px wide in a 390 px card, its Downloads column out of sight.
  it('shows every table whole in a 390 px window, with no column behind a sideways scroll', async () => {
    const { page } = dashboard;
    await showAnalytics(390, 'light');
    await page.getByText('Show as a table').click();
    await page.getByTestId('point-downloads').first().waitFor();
    await photograph(page, 'analytics-tables-390');
    const tables = await page.locator('table').evaluateAll((elements) =>
      elements.map((table) => {
        const card = table.closest('[data-testid$="-card"]') as HTMLElement;
        const cardBox = card.getBoundingClientRect();
        const box = table.getBoundingClientRect();
        return {
          card: card.dataset.testid,
          width: Math.round(box.width),
          cardWidth: Math.round(cardBox.width),
          outside: box.left < cardBox.left || box.right > cardBox.right,
        };
      }),
    );
    expect(tables.length).toBeGreaterThanOrEqual(3);
    expect(tables.filter((table) => table.outside)).toEqual([]);
  });
});
