import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// This machine has no network beyond loopback: background services would only fail and slow the browser.
const quietFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export type TestBrowser = { browser: Browser; newContext(): Promise<BrowserContext>; close(): Promise<void> };

/** Debian's Chromium driven by playwright-core; every context is a fresh profile. */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: quietFlags });
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
