import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { giveTrial } from '../../support/packages.js';
import { type SignedIn, signInSeller } from '../../support/sessions.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { launchBrowser, openSignedInPage, type TestBrowser } from './browser.js';

export type SellerAppOptions = {
  /** What the app starts with: the settings of the fakes it talks to, a clock. */
  app?: Parameters<typeof startTestApp>[0];
  /** The seller's user; the slug `acme` unless said. */
  seller?: Parameters<typeof signInSeller>[1];
  /** Gives the seller a running trial (straight in the database), which adding packages needs. */
  onTrial?: boolean;
};

/** The app with a seller signed in: what the browser tests start from. */
export type SellerApp = { app: TestApp; origin: string; seller: SignedIn };

/** Starts the app and signs a seller in (closing the app again when that fails). */
export async function startAppWithSeller(options: SellerAppOptions = {}): Promise<SellerApp> {
  const app = await startTestApp(options.app);
  try {
    const seller = await signInSeller(app, options.seller ?? { slug: 'acme' });
    if (options.onTrial) await giveTrial(app, seller.user.id);
    return { app, origin: app.ctx.config.publicUrl, seller };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** {@link SellerApp} with a browser launched, for tests that open their own pages in it. */
export type SellerBrowser = SellerApp & { browser: TestBrowser };

/** {@link startAppWithSeller}, then a browser; the caller closes browser and app. */
export async function openSellerBrowser(options: SellerAppOptions = {}): Promise<SellerBrowser> {
  const started = await startAppWithSeller(options);
  try {
    return { ...started, browser: await launchBrowser() };
  } catch (error) {
    await started.app.close();
    throw error;
  }
}

/** {@link SellerApp} with the browser launched and one of the seller's pages open in it, not yet navigated. */
export type SellerPage = SellerBrowser & { context: BrowserContext; page: Page };

/** {@link openSellerBrowser} with a page signed in as the seller in it; the caller closes browser and app. */
export async function openSellerPage(options: SellerAppOptions = {}): Promise<SellerPage> {
  const started = await openSellerBrowser(options);
  try {
    const { context, page } = await openSignedInPage(started.browser, started.origin, started.seller);
    return { ...started, context, page };
  } catch (error) {
    // Nothing half-made outlives a failed set-up.
    await started.browser.close();
    await started.app.close();
    throw error;
  }
}

/**
 * What the app starts with: options given as a function are made when the tests start, so they can name what an
 * earlier `beforeAll`, or the function itself, started for the app to talk to.
 */
type SellerAppOptionsAtStart = SellerAppOptions | (() => SellerAppOptions | Promise<SellerAppOptions>);

/**
 * Runs `open` before the tests of the file (or of the describe block it is called in) and closes what it opened after
 * them. The fields are filled in when the tests run, so a test reads them from the returned object, not at the file's
 * top; a `beforeAll` of the caller's registered after this call runs after the opening, and one registered before it
 * runs before. After-hooks run in the reverse order, so an `afterAll` closing what the app talks to is registered
 * before this call, to run once the app is closed.
 */
function openedAroundTests<Opened extends SellerBrowser & { context?: BrowserContext }>(
  options: SellerAppOptionsAtStart,
  open: (options: SellerAppOptions) => Promise<Opened>,
): Opened {
  const opened = {} as Opened;
  beforeAll(async () => {
    Object.assign(opened, await open(typeof options === 'function' ? await options() : options));
  });
  afterAll(async () => {
    await opened.context?.close();
    await opened.browser?.close();
    await opened.app?.close();
  });
  return opened;
}

/** {@link openSellerPage} around the tests (see {@link openedAroundTests}). */
export function sellerPageAroundTests(options: SellerAppOptionsAtStart = {}): SellerPage {
  return openedAroundTests(options, openSellerPage);
}

/** {@link openSellerBrowser} around the tests, for files whose tests open their own pages (see {@link openedAroundTests}). */
export function sellerBrowserAroundTests(options: SellerAppOptionsAtStart = {}): SellerBrowser {
  return openedAroundTests(options, openSellerBrowser);
}
