import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/web/lib/theme.js';
import { addSyncedPackage } from '../support/packages.js';
import { type SignedIn, signInAdmin } from '../support/sessions.js';
import { newSignedInContext, openSignedInPage } from './support/browser.js';
import { sellerBrowserAroundTests } from './support/seller-page.js';

// Issue 12 asks to go through every screen as a new user would, at phone and desktop widths, light and dark. This
// tour opens each seller, admin, signed-out and license-holder screen that way and fails on what a person would
// notice without reading: a console error, a page wider than the phone, a raw code or an ISO timestamp in the text.
// SHOTS_DIR=/tmp/shots keeps a screenshot of each (name-theme-width.png) to look at.

const shotsDir = process.env.SHOTS_DIR;
const WIDTHS = [390, 1280] as const;
const THEMES = ['light', 'dark'] as const;

/** Words a screen should never show: enum values and timestamps meant for machines. */
const MACHINE_TEXT = [
  /\b(tier_selection_required|not_connected|past_due|one_time|github-sync|cache-refresh|package-pre-cache)\b/,
  /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/,
  // One en-US date format everywhere ("Mar 15, 2026"), not a second, long one.
  /\b(January|February|March|April|June|July|August|September|October|November|December) \d{1,2}, \d{4}\b/,
];

type Screen = {
  name: string;
  url: string;
  ready: (page: Page) => Promise<unknown>;
  /** The API reference shows the wire format (ISO timestamps, enum values) on purpose. */
  showsWireFormat?: boolean;
};

describe('a tour of every screen at 390 and 1280 px, light and dark (issue 12)', () => {
  let portalOrigin: string;
  let admin: SignedIn;
  let packageId: string;

  const started = sellerBrowserAroundTests({ onTrial: true });

  beforeAll(async () => {
    const { app, seller } = started;
    portalOrigin = `http://acme.composer.localhost:${app.port}`;
    admin = await signInAdmin(app);
    packageId = await addSyncedPackage(app, seller, 'acme/widget');
    // For sale, so that the purchase page shows its offer.
    const priced = await seller.client.put(`/api/repositories/${packageId}/pricing-tiers`, {
      tiers: [{ name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 1999, currency: 'usd' }],
    });
    expect(priced.status).toBe(200);
  });

  const signedInContext = (who: SignedIn) => newSignedInContext(started.browser, started.origin, who);
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();

  /**
   * Opens each screen in each theme and width; answers what is wrong, one line each. The four theme and width
   * pairs each get a context of their own (`open` makes one) and go at once: most of a screen's time is the
   * wait for the network to settle, and four such waits overlap.
   */
  async function tour(open: () => Promise<BrowserContext>, screens: Screen[]): Promise<string[]> {
    const pairs = THEMES.flatMap((theme) => WIDTHS.map((width) => ({ theme, width })));
    const found = await Promise.all(pairs.map(({ theme, width }) => tourIn(open, screens, theme, width)));
    return found.flat();
  }

  async function tourIn(
    open: () => Promise<BrowserContext>,
    screens: Screen[],
    theme: (typeof THEMES)[number],
    width: (typeof WIDTHS)[number],
  ): Promise<string[]> {
    const problems: string[] = [];
    let current = '';
    const context = await open();
    await context.addInitScript(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [THEME_STORAGE_KEY, theme],
    );
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${current}: console error ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${current}: page error ${error.message}`));
    await page.setViewportSize({ width, height: 900 });
    for (const screen of screens) {
      current = `${screen.name} ${theme} ${width}`;
      await page.goto(screen.url);
      await screen.ready(page);
      // Let late loads settle (each card's own query), then look.
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${current}: ${overflow} px wider than the window`);
      // An address or a package name cut short with an ellipsis cannot be told from a similar one.
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('body *')]
          .filter(
            (element) =>
              getComputedStyle(element).textOverflow === 'ellipsis' &&
              element.scrollWidth > element.clientWidth &&
              /[@/]/.test(element.textContent ?? ''),
          )
          .map((element) => element.textContent),
      );
      for (const text of cut) problems.push(`${current}: cuts "${text}"`);
      // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees, hidden text left out
      const text = await page.evaluate(() => document.body.innerText);
      for (const pattern of screen.showsWireFormat ? [] : MACHINE_TEXT) {
        const found = pattern.exec(text);
        if (found) problems.push(`${current}: shows "${found[0]}"`);
      }
      if (shotsDir)
        await page.screenshot({ path: path.join(shotsDir, `${screen.name}-${theme}-${width}.png`), fullPage: true });
    }
    await context.close();
    return problems;
  }

  it('shows every seller screen cleanly', { timeout: 600_000 }, async () => {
    const { origin, seller } = started;
    const screens: Screen[] = [
      { name: 'seller-dashboard', url: `${origin}/dashboard`, ready: (p) => p.getByTestId('payout-state').waitFor() },
      {
        name: 'seller-management',
        url: `${origin}/management`,
        ready: (p) => p.getByTestId('package-card').first().waitFor(),
      },
      { name: 'seller-access', url: `${origin}/management?tab=access`, ready: heading },
      { name: 'seller-analytics', url: `${origin}/analytics`, ready: heading },
      { name: 'seller-api-tokens', url: `${origin}/api-tokens`, ready: heading },
      { name: 'seller-api-docs', url: `${origin}/api-docs`, ready: heading, showsWireFormat: true },
      { name: 'seller-documentation', url: `${origin}/documentation`, ready: heading },
      { name: 'seller-billing', url: `${origin}/billing`, ready: (p) => p.getByTestId('billing-card').waitFor() },
      { name: 'seller-subscribe', url: `${origin}/subscribe`, ready: heading },
    ];
    expect(await tour(() => signedInContext(seller), screens)).toEqual([]);
  });

  it('shows every admin screen cleanly', { timeout: 600_000 }, async () => {
    const { origin } = started;
    const tab = (name: string): Screen => ({
      name: `admin-${name}`,
      url: `${origin}/admin?tab=${name}`,
      ready: (p) => p.getByRole('tabpanel').waitFor(),
    });
    const screens = ['dashboard', 'platform', 'cache', 'users', 'settings'].map(tab);
    expect(await tour(() => signedInContext(admin), screens)).toEqual([]);
  });

  it('shows the signed-out and license-holder screens cleanly', { timeout: 600_000 }, async () => {
    const { browser, origin } = started;
    const screens: Screen[] = [
      { name: 'landing', url: `${origin}/`, ready: heading },
      { name: 'terms', url: `${origin}/terms`, ready: heading },
      { name: 'privacy', url: `${origin}/privacy`, ready: heading },
      { name: 'admin-login', url: `${origin}/admin/login`, ready: heading },
      { name: 'portal-sign-in', url: `${portalOrigin}/portal`, ready: heading },
      { name: 'purchase', url: `${portalOrigin}/purchase?package=${packageId}`, ready: heading },
    ];
    expect(await tour(() => browser.newContext(), screens)).toEqual([]);
  });

  it('shows the seller’s and the admin’s dialogs inside a phone and a desktop window', {
    timeout: 600_000,
  }, async () => {
    const { browser, origin, seller } = started;
    const problems: string[] = [];
    const look = async (page: Page, name: string) => {
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page.waitForLoadState('networkidle');
      const width = page.viewportSize()?.width ?? 0;
      const box = (await dialog.boundingBox()) as { x: number; width: number };
      if (box.x < 0 || box.x + box.width > width) problems.push(`${name} ${width}: dialog outside the window`);
      const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
      if (overflow > 0) problems.push(`${name} ${width}: dialog content ${overflow} px wider than the dialog`);
      if (shotsDir) await page.screenshot({ path: path.join(shotsDir, `dialog-${name}-${width}.png`) });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    };
    // Both widths at once, each in contexts of its own: the dialogs only open and close, nothing is saved.
    const atWidth = async (width: number) => {
      const sellerPage = await openSignedInPage(browser, origin, seller);
      const adminPage = await openSignedInPage(browser, origin, admin);
      for (const { page } of [sellerPage, adminPage])
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console error ${message.text()}`);
        });
      const page = sellerPage.page;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${origin}/management`);
      const card = page.getByTestId('package-card').first();
      await card.waitFor();
      await page.getByRole('button', { name: 'Add Package' }).click();
      await page.getByTestId('repository-option').first().waitFor();
      await look(page, 'add-package');
      await card.getByRole('button', { name: 'Setup Guide' }).click();
      await look(page, 'setup-guide');
      await card.getByRole('button', { name: 'Pricing' }).click();
      await page.getByTestId('pricing-tier').first().waitFor();
      await look(page, 'pricing');
      for (const item of ['Licenses', 'Temporary Licenses', 'Edit Package']) {
        await card.getByRole('button', { name: 'Actions for acme/widget' }).click();
        await page.getByRole('menuitem', { name: item, exact: true }).click();
        await look(page, item.toLowerCase().replaceAll(' ', '-'));
      }

      await adminPage.page.setViewportSize({ width, height: 900 });
      await adminPage.page.goto(`${origin}/admin?tab=platform`);
      await adminPage.page.getByRole('button', { name: 'Manage Tiers' }).click();
      await adminPage.page.getByTestId('tier-editor').first().waitFor();
      await look(adminPage.page, 'tiers');
      await sellerPage.context.close();
      await adminPage.context.close();
    };
    await Promise.all(WIDTHS.map(atWidth));
    expect(problems).toEqual([]);
  });
});
