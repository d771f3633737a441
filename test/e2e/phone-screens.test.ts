import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { customers, grants } from '../../src/server/db/schema/index.js';
import { sha256Hex } from '../../src/server/lib/crypto.js';
import { insertPackage } from '../support/packages.js';
import { type SignedIn, signInAdmin } from '../support/sessions.js';
import { openSignedInPage, photograph } from './support/browser.js';
import { sellerBrowserAroundTests } from './support/seller-page.js';

// Issue 36, the screens: what a person reads on a phone (390 px) and on a desktop (1280 px) must be usable. A command
// box wraps a command only at its spaces (its Copy button no longer takes 40% of the row), Access Management shows
// every column of a grant on a phone and lines the columns up from one holder to the next on a desktop, the admin's
// price field refuses what it cannot save, and the pricing page says every plan includes the API.

const DAY = 86_400_000;
const WIDTHS = [390, 1280] as const;

/**
 * Where each command box's command breaks onto a new line in the middle of a word, a word that would have fitted
 * on a line of its own (a single word longer than the whole line may break where it must). Also answers a command
 * box wider than the window or scrolled sideways, and a command squeezed into less than 70% of its box.
 */
async function commandProblems(page: Page): Promise<string[]> {
  const boxes = page.locator('pre:has(> code > span.select-none)');
  await boxes.first().waitFor();
  return boxes.evaluateAll((pres) =>
    pres.flatMap((pre) => {
      const found: string[] = [];
      const box = pre.getBoundingClientRect();
      const outer = (pre.parentElement as HTMLElement).getBoundingClientRect();
      if (box.width === 0) return found; // hidden, e.g. a closed tab
      const text = pre.textContent ?? '';
      if (box.left < 0 || box.right > window.innerWidth) found.push(`"${text}" runs outside the window`);
      if (pre.scrollWidth > pre.clientWidth) found.push(`"${text}" scrolls sideways`);
      if (box.width < outer.width * 0.7) found.push(`"${text}" gets ${Math.round(box.width)} of ${outer.width} px`);
      const style = getComputedStyle(pre);
      const lineWidth = pre.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      // Every character with where it is drawn.
      const chars: { ch: string; top: number; width: number }[] = [];
      const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.textContent ?? '';
        for (let index = 0; index < value.length; index++) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const rect = range.getClientRects()[0];
          chars.push({ ch: value[index]!, top: rect ? rect.top : Number.NaN, width: rect ? rect.width : 0 });
        }
      }
      let lastTop = Number.NaN;
      for (let index = 0; index < chars.length; index++) {
        const { ch, top } = chars[index]!;
        if (/\s/.test(ch) || Number.isNaN(top)) continue;
        const isNewLine = !Number.isNaN(lastTop) && top > lastTop + 2;
        lastTop = top;
        if (!isNewLine || /\s/.test(chars[index - 1]?.ch ?? ' ')) continue;
        let start = index;
        while (start > 0 && !/\s/.test(chars[start - 1]!.ch)) start--;
        let end = index;
        while (end < chars.length && !/\s/.test(chars[end]!.ch)) end++;
        const word = chars.slice(start, end);
        const wordWidth = word.reduce((sum, char) => sum + char.width, 0);
        if (wordWidth <= lineWidth) found.push(`"${word.map((char) => char.ch).join('')}" broken mid-word`);
      }
      return found;
    }),
  );
}

describe('the screens on a phone and a desktop (issue 36)', () => {
  let admin: SignedIn;

  const started = sellerBrowserAroundTests({ onTrial: true });

  beforeAll(async () => {
    const { app, seller } = started;
    admin = await signInAdmin(app);
    const db = app.ctx.db;
    const widget = await insertPackage(app, seller.user.id, 'acme/widget');
    const toolkit = await insertPackage(app, seller.user.id, 'acme/enterprise-reporting-toolkit');
    await insertPackage(app, seller.user.id, 'voku/portable-ascii');
    const [first, second] = await db
      .insert(customers)
      .values(
        ['ann@example.com', 'a.much.longer.address@customers.example.com'].map((email, index) => ({
          sellerId: seller.user.id,
          email,
          tokenHash: sha256Hex(`phone-screens-${index}`),
        })),
      )
      .returning();
    const now = app.clock.now().getTime();
    // Different contents per holder, so that tables sizing their own columns would not line up.
    await db.insert(grants).values([
      { customerId: first!.id, packageId: widget.id, kind: 'manual' as const },
      {
        customerId: second!.id,
        packageId: toolkit.id,
        kind: 'temporary' as const,
        expiresAt: new Date(now + 30 * DAY),
        endMode: 'updates' as const,
        downloadLimit: 1000,
        downloadCount: 117,
        lastUsedAt: new Date(now - DAY),
      },
      {
        customerId: second!.id,
        packageId: widget.id,
        kind: 'purchase' as const,
        status: 'revoked' as const,
        revokedAt: new Date(now - DAY),
      },
    ]);
  });

  async function sellerPage(width: number): Promise<Page> {
    const { browser, origin, seller } = started;
    const { page } = await openSignedInPage(browser, origin, seller);
    await page.setViewportSize({ width, height: 900 });
    return page;
  }

  it('keeps every command readable: broken only at its spaces, on a phone and a desktop', {
    timeout: 240_000,
  }, async () => {
    const { app, origin } = started;
    const problems: string[] = [];
    for (const width of WIDTHS) {
      const page = await sellerPage(width);
      const look = async (name: string) => {
        for (const problem of await commandProblems(page)) problems.push(`${name} ${width}: ${problem}`);
        await photograph(page, `commands-${name}-${width}`, { fullPage: false });
      };
      await page.goto(`${origin}/documentation`);
      await page.getByRole('heading', { level: 1, name: 'Documentation' }).waitFor();
      await look('documentation');

      await page.goto(`${origin}/management`);
      const card = page.getByTestId('package-card').filter({ hasText: 'acme/widget' });
      await card.getByRole('button', { name: 'Setup Guide' }).click();
      await page.getByRole('dialog').waitFor();
      await look('setup-guide');
      // A package of another vendor gets the seller's entry too: one entry per seller, not one per vendor.
      await page.keyboard.press('Escape');
      const voku = page.getByTestId('package-card').filter({ hasText: 'voku/portable-ascii' });
      await voku.getByRole('button', { name: 'Setup Guide' }).click();
      await page.getByRole('dialog').getByText('composer require voku/portable-ascii').waitFor();
      expect(await page.getByRole('dialog').textContent()).toContain(
        `composer config repositories.acme composer http://acme.composer.localhost:${app.port}`,
      );

      // The seller's package host (the white-label Package Access page) and the landing page's setup guide.
      await page.goto(`http://acme.composer.localhost:${app.port}/`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await look('package-access');
      expect(await page.locator('main').textContent()).toContain('composer config repositories.acme composer');
      await page.goto(`${origin}/`);
      await page.locator('#composer-setup').scrollIntoViewIfNeeded();
      await look('landing');
      await page.context().close();
    }
    expect(problems).toEqual([]);
  });

  async function showAccessManagement(width: number): Promise<{ page: Page; holders: Locator }> {
    const { origin } = started;
    const page = await sellerPage(width);
    await page.goto(`${origin}/management?tab=access`);
    const holders = page.getByTestId('license-holder');
    await holders.nth(1).getByTestId('grant-row').first().waitFor();
    await photograph(page, `access-management-${width}`);
    return { page, holders };
  }

  it('shows every column of a grant inside its card on a phone, the Status badge whole', async () => {
    const { page } = await showAccessManagement(390);
    const outside = await page.getByTestId('grant-row').evaluateAll((rows) =>
      rows.flatMap((row) => {
        const card = (row.closest('[data-testid="license-holder"]') as HTMLElement).getBoundingClientRect();
        const within = (element: Element) => {
          const box = element.getBoundingClientRect();
          return box.width > 0 && box.left >= card.left && box.right <= card.right && box.right <= window.innerWidth;
        };
        const found: string[] = [];
        for (const cell of row.querySelectorAll('td')) {
          // Each value and the column it belongs to can be read without a sideways scroll.
          if (!within(cell)) found.push(`${row.textContent}: ${cell.textContent} is off-screen`);
          if (!getComputedStyle(cell, '::before').content.includes(cell.dataset.label ?? '\u0000'))
            found.push(`${cell.textContent} says not which column it is`);
        }
        const badge = row.querySelector('td:nth-child(3) > *') as Element;
        if (!within(badge)) found.push(`${row.textContent}: the Status badge is cut`);
        return found;
      }),
    );
    expect(outside).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.context().close();
  });

  it('lines up Access Management’s columns from one holder to the next on a desktop', async () => {
    const { page, holders } = await showAccessManagement(1280);
    const columnEdges = async (holder: Locator) =>
      holder
        .locator('thead th')
        .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().x)));
    const first = await columnEdges(holders.nth(0));
    expect(first).toHaveLength(6);
    expect(await columnEdges(holders.nth(1))).toEqual(first);
    await page.context().close();
  });

  it('says on the pricing page that every plan includes the API with token permissions', async () => {
    const { origin } = started;
    for (const width of WIDTHS) {
      const page = await sellerPage(width);
      await page.goto(`${origin}/#pricing`);
      await page.getByTestId('plan-card').first().waitFor();
      const note = page.getByTestId('every-plan-includes');
      expect(await note.textContent()).toContain(
        'Every plan, and the free trial, includes the whole product: the REST API v1 with fine-grained token permissions',
      );
      const cards = await page.getByTestId('plan-card').allTextContents();
      expect(cards[0]).toContain('REST API v1 with fine-grained token permissions');
      for (const card of cards.slice(1)) expect(card).not.toMatch(/REST API|permissions/);
      await page.context().close();
    }
  });

  it('refuses a tier price it cannot save, saying why, at 390 and 1280 px', { timeout: 120_000 }, async () => {
    const { browser, origin } = started;
    for (const width of WIDTHS) {
      const { page, context } = await openSignedInPage(browser, origin, admin);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${origin}/admin?tab=platform`);
      await page.getByRole('button', { name: 'Manage Tiers' }).click();
      const starter = page.getByTestId('tier-editor').first();
      await starter.waitFor();
      const price = starter.getByLabel('Monthly Price ($)');
      const save = page.getByRole('button', { name: 'Save Configuration' });
      for (const typed of ['12.345', '-5', 'abc']) {
        await price.fill(typed);
        await expect.poll(() => price.getAttribute('aria-invalid'), { message: typed }).toBe('true');
        expect(await starter.textContent(), typed).toContain(
          'The monthly price must be an amount in dollars from 0.00 to 999999.99, with at most two decimals',
        );
        expect(await save.isDisabled(), typed).toBe(true);
      }
      await price.fill('24.50');
      await expect.poll(() => save.isDisabled()).toBe(false);
      expect(await price.getAttribute('aria-invalid')).toBe('false');
      await context.close();
    }
  });
});
