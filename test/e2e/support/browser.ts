import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchOptions } from './chromium.js';

export type TestBrowser = { browser: Browser; newContext(): Promise<BrowserContext>; close(): Promise<void> };

/**
 * Debian's Chromium driven by playwright-core; every context is a fresh profile. Connects to the run's Chromium
 * when the global setup started one (closing then closes this file's contexts and leaves the browser running
 * for the next file), else launches one of its own.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const endpoint = inject('browserEndpoint');
  const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch(launchOptions);
  return {
    browser,
    newContext: () => browser.newContext({ viewport: { width: 1280, height: 900 } }),
    close: () => browser.close(),
  };
}

/**
 * A fresh browser context already signed in with a session cookie (from test/support/sessions.ts), with the
 * clipboard allowed so copy buttons can be checked.
 */
export async function newSignedInContext(
  browser: TestBrowser,
  origin: string,
  session: { cookieName: string; cookie: string },
): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies([{ name: session.cookieName, value: session.cookie, url: origin }]);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return context;
}

/** {@link newSignedInContext} with one page open in it. */
export async function openSignedInPage(
  browser: TestBrowser,
  origin: string,
  session: { cookieName: string; cookie: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newSignedInContext(browser, origin, session);
  return { context, page: await context.newPage() };
}

/**
 * Keeps a full-page screenshot for a person to look at when SHOTS_DIR names a folder (`SHOTS_DIR=/tmp/shots`), and
 * does nothing otherwise: no test reads the image, and each one cost the browser an encode of the whole page.
 */
export async function photograph(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const folder = process.env.SHOTS_DIR;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: options.fullPage ?? true });
}
