import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskType } from '../../src/contract/realtime.js';
import { type RunningTask, startTask } from '../../src/server/features/tasks/tasks.service.js';
import { sha256Hex } from '../../src/server/lib/crypto.js';
import { createPackageRepository } from '../support/git-fixtures.js';
import { addSyncedPackage } from '../support/packages.js';
import { type SignedIn, signInAdmin, signInSeller } from '../support/sessions.js';
import type { TestApp } from '../support/test-app.js';
import { openSignedInPage } from './support/browser.js';
import { sellerBrowserAroundTests } from './support/seller-page.js';

const distWeb = path.resolve(import.meta.dirname, '../../dist/web');

/** Issue 12: the landing page's first JavaScript, as Vite reports it (gzip), stays at or under this. */
const FIRST_JAVASCRIPT_MAX_GZIP_BYTES = 150 * 1000;

/** Screenshots of the changed screens when SHOTS_DIR is set (issue 12 asks for them at 390 and 1280 px). */
const shotsDir = process.env.SHOTS_DIR;
async function shoot(page: Page, name: string): Promise<void> {
  if (shotsDir) await page.screenshot({ path: path.join(shotsDir, `${name}-${page.viewportSize()?.width}.png`) });
}

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every control in `controls` lies outside the docked task strip. */
async function expectUncovered(widget: Locator, controls: Locator): Promise<void> {
  const strip = await widget.boundingBox();
  expect(strip).not.toBeNull();
  const count = await controls.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index++) {
    const control = controls.nth(index);
    const box = await control.boundingBox();
    expect(box, (await control.textContent()) ?? '').not.toBeNull();
    expect(overlap(strip as Box, box as Box), `${await control.textContent()} under the task strip`).toBe(false);
  }
}

/**
 * Starts a task for the user and reports progress until the page shows it: an event sent before the page's
 * realtime channel is up would be lost, so progress is reported again on each look.
 */
async function runningTaskShown(
  app: TestApp,
  userId: string,
  type: TaskType,
  shown: () => Promise<boolean>,
): Promise<RunningTask> {
  const task = await startTask(app.ctx, { userId, type, message: 'Reading tags and branches' });
  let percent = 10;
  await expect
    .poll(
      async () => {
        await task.progress(Math.min(percent++, 60), 'Reading tags and branches');
        return shown();
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return task;
}

describe('the landing page’s first JavaScript (issue 12)', () => {
  it('sends at most 150 KB gzip of JavaScript before the landing page can show', async () => {
    const html = await readFile(path.join(distWeb, 'index.html'), 'utf8');
    // The entry script and every module it preloads: what the browser fetches before the first render.
    const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    let total = 0;
    for (const script of scripts) total += gzipSync(await readFile(path.join(distWeb, script))).length;
    expect(total, `${scripts.join(', ')}: ${(total / 1000).toFixed(1)} KB gzip`).toBeLessThanOrEqual(
      FIRST_JAVASCRIPT_MAX_GZIP_BYTES,
    );
  });
});

describe('the web app’s loose ends in a real browser (issue 12)', () => {
  const started = sellerBrowserAroundTests({ onTrial: true });

  beforeAll(async () => {
    const { app, seller } = started;
    // Names that differ only at their end: a phone must still tell them apart.
    for (const name of ['widget-extras-for-laravel', 'widget-extras-for-symfony']) {
      await createPackageRepository(path.join(app.ctx.config.gitReposDir, 'acme', `${name}.git`), {
        name: `acme/${name}`,
        tags: ['v1.0.0'],
        bare: true,
      });
    }
    await addSyncedPackage(app, seller, 'acme/widget');
  });

  it('lets an admin who views the app as a seller stop from the Users tab, and from the bar', async () => {
    const { app, browser, origin } = started;
    const admin: SignedIn = await signInAdmin(app);
    const seller: SignedIn = await signInSeller(app);
    const { page, context } = await openSignedInPage(browser, origin, admin);
    const sellerEmail = seller.user.email ?? '';

    const impersonate = async () => {
      await page.goto(`${origin}/admin?tab=users`);
      await page.getByLabel('Search users by email').fill(sellerEmail);
      await page
        .getByTestId('admin-user-row')
        .filter({ hasText: sellerEmail })
        .getByRole('button', { name: 'Impersonate' })
        // The search results of the User Impersonation card come before the All Users list.
        .first()
        .click();
      await page.getByTestId('impersonation-bar').waitFor();
    };

    // From the Users tab: /admin stays open while impersonating, and its Stop Impersonation works.
    await impersonate();
    await page.goto(`${origin}/admin?tab=users`);
    await page.getByTestId('impersonation-state').getByText(sellerEmail).waitFor();
    const stop = page.getByRole('main').getByRole('button', { name: 'Stop Impersonation' });
    expect(await stop.isEnabled()).toBe(true);
    await shoot(page, 'admin-users-impersonating');
    await stop.click();
    await page.getByText('You are back to your admin account', { exact: true }).waitFor();
    expect(await page.getByTestId('impersonation-bar').count()).toBe(0);
    expect(await stop.isEnabled()).toBe(false);

    // From the bar on any page.
    await impersonate();
    await page.goto(`${origin}/dashboard`);
    await page.getByTestId('impersonation-bar').getByRole('button', { name: 'Stop Impersonation' }).click();
    await page.getByText('You are back to your admin account', { exact: true }).waitFor();
    expect(await page.getByTestId('impersonation-bar').count()).toBe(0);
    await context.close();
  });

  it('docks the task progress where it covers no control, and sums it up in one line once finished', async () => {
    const { app, browser, origin, seller } = started;
    const { page, context } = await openSignedInPage(browser, origin, seller);
    await page.goto(`${origin}/management`);
    const card = page.getByTestId('package-card').first();
    await card.waitFor();
    const widget = page.getByTestId('task-progress-widget');
    const task = await runningTaskShown(app, seller.user.id, 'github-sync', () => widget.isVisible());
    await widget.getByText('1 task running').waitFor();

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await expectUncovered(widget, card.getByRole('button'));
      await expectUncovered(widget, page.getByRole('button', { name: 'Add Package' }));
      await shoot(page, 'management-task-running');
    }

    await task.complete('Synced 1 version');
    await widget.getByText('Tasks finished').waitFor();
    expect(await widget.getByTestId('task-progress-item').count()).toBe(0);
    await widget.getByRole('button', { name: 'Dismiss' }).click();
    await widget.waitFor({ state: 'detached' });
    await context.close();
  });

  it('leaves cache tasks to the Cache tab’s own list and covers neither Refresh All nor Clear All', async () => {
    const { app, browser, origin } = started;
    const admin = await signInAdmin(app);
    const { page, context } = await openSignedInPage(browser, origin, admin);
    await page.goto(`${origin}/admin?tab=cache`);
    const widget = page.getByTestId('task-progress-widget');
    const recentTasks = page.getByRole('main').getByTestId('task-progress-item');
    const refresh = await runningTaskShown(
      app,
      admin.user.id,
      'cache-refresh',
      async () => (await recentTasks.count()) > 0,
    );
    // Another kind of task shows in the strip, without the cache refresh the tab lists already.
    await runningTaskShown(app, admin.user.id, 'database-operation', () => widget.isVisible());
    await widget.getByText('1 task running').waitFor();
    expect(await widget.textContent()).not.toContain('Cache Refresh');

    const cacheButtons = page.getByRole('main').getByRole('button', { name: /Refresh|Clear/ });
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await expectUncovered(widget, cacheButtons);
      await shoot(page, 'admin-cache-task-running');
    }
    await refresh.complete('Cache refreshed');
    await context.close();
  });

  it('marks repositories that are already packages before Create, and keeps similar names apart on a phone', async () => {
    const { browser, origin, seller } = started;
    const { page, context } = await openSignedInPage(browser, origin, seller);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/management?action=add-package`);
    const dialog = page.getByRole('dialog', { name: 'Add New Package' });
    const options = dialog.getByTestId('repository-option');
    await options.nth(2).waitFor();
    expect(await options.count()).toBe(3);

    const packaged = options.filter({ has: page.getByText('acme/widget', { exact: true }) });
    expect(await packaged.isDisabled()).toBe(true);
    expect(await packaged.textContent()).toContain('Already added as acme/widget');
    // Those that can still become packages come first.
    expect(await options.last().textContent()).toContain('Already added');

    for (const name of ['acme/widget-extras-for-laravel', 'acme/widget-extras-for-symfony']) {
      const label = options.getByText(name, { exact: true });
      // The whole name shows: nothing is cut off.
      expect(await label.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      expect(await label.isVisible()).toBe(true);
    }
    await shoot(page, 'add-package-dialog');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shoot(page, 'add-package-dialog');
    await context.close();
  });

  it('keeps the loaded package list, with the Disconnected badge, when realtime drops and the refetch fails', async () => {
    const { app, browser, origin, seller } = started;
    const { page, context } = await openSignedInPage(browser, origin, seller);
    await page.goto(`${origin}/management`);
    await page.getByTestId('package-card').first().waitFor();
    // The channel is up once a task event gets through.
    const widget = page.getByTestId('task-progress-widget');
    const task = await runningTaskShown(app, seller.user.id, 'github-sync', () => widget.isVisible());
    await task.complete('Done');

    // The channel drops and stays down (the server ends it, the browser may not reopen it), and the
    // refetch that follows fails.
    await page.routeWebSocket(/\/socket\.io\//, (socket) => socket.close());
    await page.route(/\/socket\.io\//, (route) => route.abort());
    await page.route(/\/api\/repositories$/, (route) => route.abort());
    const refetchFailed = page.waitForEvent('requestfailed', {
      predicate: (request) => new URL(request.url()).pathname === '/api/repositories',
    });
    app.ctx.realtime.disconnectSession(sha256Hex(seller.cookie));
    await refetchFailed;
    await page.getByTestId('disconnected-badge').waitFor();
    expect(await page.getByTestId('package-card').count()).toBe(1);
    expect(await page.getByText('Unable to load packages').count()).toBe(0);
    await shoot(page, 'management-disconnected');
    await context.close();
  });

  it('fits the admin tabs, the trial banner and the dashboard trial card on a phone', async () => {
    const { app, browser, origin, seller } = started;
    const admin = await signInAdmin(app);
    const adminPage = await openSignedInPage(browser, origin, admin);
    const page = adminPage.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/admin?tab=settings`);
    const tablist = page.getByRole('tablist', { name: 'Admin sections' });
    await tablist.getByRole('tab', { name: 'Settings' }).waitFor();
    const strip = (await tablist.boundingBox()) as Box;
    expect(await tablist.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    for (const tab of await tablist.getByRole('tab').all()) {
      const box = (await tab.boundingBox()) as Box;
      expect(box.x + box.width, (await tab.textContent()) ?? '').toBeLessThanOrEqual(strip.x + strip.width);
    }
    await shoot(page, 'admin-tabs');
    await adminPage.context.close();

    const { page: sellerPage, context } = await openSignedInPage(browser, origin, seller);
    for (const width of [390, 1280]) {
      await sellerPage.setViewportSize({ width, height: 900 });
      await sellerPage.goto(`${origin}/dashboard`);
      const banner = sellerPage.getByTestId('trial-banner');
      await banner.waitFor();
      // The sentence sits beside its button, not above it with the button on a line of its own.
      const text = (await banner.getByRole('paragraph').boundingBox()) as Box;
      const button = (await banner.getByRole('link', { name: 'Subscribe Now' }).boundingBox()) as Box;
      expect(button.y).toBeLessThan(text.y + text.height);
      // The trial card's action follows its text, without a blank band between them.
      const card = sellerPage.getByTestId('subscription-card');
      const description = (await card.getByText(/remaining/).boundingBox()) as Box;
      const action = (await card.getByRole('link', { name: 'Subscribe Now' }).boundingBox()) as Box;
      expect(action.y - (description.y + description.height)).toBeLessThan(48);
      await shoot(sellerPage, 'dashboard-trial');
    }
    await context.close();
  });

  it('shows hints as tooltips, not native titles, and confirms a copied command with a Copied! toast', async () => {
    const { browser, origin, seller } = started;
    const { page, context } = await openSignedInPage(browser, origin, seller);
    await page.goto(`${origin}/management`);
    const card = page.getByTestId('package-card').first();
    await card.waitFor();
    const toggle = page.getByTestId('theme-toggle');
    expect(await toggle.getAttribute('title')).toBeNull();
    await toggle.hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: /Switch to (dark|light) mode/ })
      .waitFor();

    await card.getByRole('button', { name: 'Setup Guide' }).click();
    const guide = page.getByRole('dialog', { name: 'Setup Guide' });
    await guide.getByRole('button', { name: 'Copy' }).first().click();
    await page.getByText('Command copied to clipboard', { exact: true }).first().waitFor();
    await context.close();
  });
});
