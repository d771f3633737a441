import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createGrant, createHolder, createPackage } from '../../composer/repository-fixtures.js';
import { createPortalSession, type SignedIn } from '../../support/sessions.js';
import type { TestApp } from '../../support/test-app.js';
import { launchBrowser, openSignedInPage, type TestBrowser } from './browser.js';
import { startAppWithSeller } from './seller-page.js';

/** A license holder's portal open in a browser, with the app and the seller behind it. */
export type HolderPortal = {
  app: TestApp;
  browser: TestBrowser;
  /** The seller `acme`, on the Starter trial, signed in. */
  seller: SignedIn;
  /** The seller's repository host, where the portal is: `http://acme.composer.localhost:<port>`. */
  portalOrigin: string;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
};

/**
 * The seller `acme` with `acme/widget` v1.0.0 and one holder licensed for it, whose portal is open in a browser (a
 * session as the e-mailed link makes it: signing in by link is portal.test.ts's subject).
 */
export async function openHolderPortal(holderEmail: string): Promise<HolderPortal> {
  const { app, seller } = await startAppWithSeller();
  let browser: TestBrowser | undefined;
  try {
    const portalOrigin = `http://acme.composer.localhost:${app.port}`;
    expect((await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' })).status).toBe(200);
    const widget = await createPackage(app, seller.user, 'acme/widget', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    const holder = await createHolder(app, seller.user, holderEmail);
    await createGrant(app, holder, widget);
    const cookie = await createPortalSession(app, holder.id);
    const opened = await launchBrowser();
    browser = opened;
    const { context, page } = await openSignedInPage(opened, portalOrigin, { cookieName: 'packgate_portal', cookie });
    return {
      app,
      browser: opened,
      seller,
      portalOrigin,
      context,
      page,
      close: async () => {
        await context.close();
        await opened.close();
        await app.close();
      },
    };
  } catch (error) {
    // Nothing half-made outlives a failed set-up.
    await browser?.close();
    await app.close();
    throw error;
  }
}

/**
 * {@link openHolderPortal} before the file's tests and closing it after them. The portal's fields are filled in when
 * the tests run, so a test reads them from the returned object, not at the file's top.
 */
export function holderPortalAroundTests(holderEmail: string): HolderPortal {
  const portal = {} as HolderPortal;
  beforeAll(async () => {
    Object.assign(portal, await openHolderPortal(holderEmail));
  }, 180_000);
  afterAll(async () => {
    await portal.close?.();
  });
  return portal;
}

/**
 * Runs `steps` as the seller on Management's Access Management tab, at the holder's card, in a page of its own that
 * is closed after: what the seller sees of what the holder did in the portal.
 */
export async function onHolderCardInManagement(
  portal: HolderPortal,
  holderEmail: string,
  steps: (management: Page, holder: Locator) => Promise<void>,
): Promise<void> {
  const origin = portal.app.ctx.config.publicUrl;
  const management = await openSignedInPage(portal.browser, origin, portal.seller);
  try {
    await management.page.goto(`${origin}/management`);
    await management.page.getByRole('tab', { name: 'Access Management' }).click();
    await steps(management.page, management.page.getByTestId('license-holder').filter({ hasText: holderEmail }));
  } finally {
    await management.context.close();
  }
}
