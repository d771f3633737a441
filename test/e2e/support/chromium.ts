import { type BrowserServer, chromium } from 'playwright-core';

// Debian's chromium-headless-shell, the headless-only build Playwright itself runs for headless Chromium: the full
// browser in its new headless mode burned about a third more CPU per page load (its browser process and display
// compositor), and page loads are most of the browser tests' CPU.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

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
