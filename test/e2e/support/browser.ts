import { type Browser, type BrowserContext, chromium } from 'playwright-core';

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
