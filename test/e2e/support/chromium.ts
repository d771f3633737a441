import { type BrowserServer, chromium } from 'playwright-core';

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

export const launchOptions = { executablePath: chromiumPath, headless: true, args: quietFlags };

/** The run's one Chromium, started by the e2e project's global setup (browser-setup.ts). */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions);
}
