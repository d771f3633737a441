import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedLicense } from '../../src/contract/licenses.js';
import type { CreatePackageResponse } from '../../src/contract/packages.js';
import { auditEvents, customers, packages } from '../../src/server/db/schema/index.js';
import { type ComposerRun, runComposer } from '../composer/composer-cli.js';
import { createPackage, createProduct, createProductGrant } from '../composer/repository-fixtures.js';
import { waitForPackageReady } from '../support/dashboard-packages.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { readOutbox } from '../support/outbox.js';
import { type SignedIn, signInSeller } from '../support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../support/test-app.js';
import { launchBrowser, photograph, type TestBrowser } from './support/browser.js';

// A license holder signs in to the seller's portal on the seller's own repository host from the e-mailed link,
// reads the license and the setup commands, rotates the token; the real composer client is then refused with the
// old token (our message) and served with the new one. Screenshots go to SHOTS_DIR when it is set.

const HOLDER = 'holder@example.com';

let app: TestApp;
let browser: TestBrowser;
let context: BrowserContext;
let page: Page;
let seller: SignedIn;
let workDir: string;
let projectDir: string;
let portalOrigin: string;
let issued: IssuedLicense;

function composer(args: string[], cacheDir = path.join(workDir, 'composer-cache')): Promise<ComposerRun> {
  return runComposer(projectDir, args, { home: workDir, cacheDir, audit: false });
}

beforeAll(async () => {
  workDir = await createTempDir('packgate-portal-');
  // Today's date: the dist and metadata dates the database stamps must agree with the app's clock.
  app = await startTestApp({ clock: new TestClock(new Date()) });
  portalOrigin = `http://acme.composer.localhost:${app.port}`;
  await createPackageRepository(path.join(app.ctx.config.gitReposDir, 'acme-widget'), {
    name: 'acme/widget',
    description: 'Widgets for PHP',
    tags: ['v1.0.0', 'v1.1.0'],
  });
  seller = await signInSeller(app, { slug: 'acme' });
  expect((await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' })).status).toBe(200);
  const branded = await seller.client.put('/api/user/default-branding', {
    brandName: 'Acme Tools',
    brandColor: '#0E7490',
    brandHeaderColor: '#0F172A',
    supportEmail: 'help@acme.test',
  });
  expect(branded.status).toBe(200);
  const listed = (await (await seller.client.get('/api/github/repositories')).json()) as { githubId: string }[];
  const repo = listed.find((candidate) => candidate.githubId.includes('acme-widget'));
  const created = await seller.client.post('/api/repositories', {
    githubRepoId: repo!.githubId,
    packageName: 'acme/widget',
  });
  expect(created.status).toBe(201);
  const widgetId = ((await created.json()) as CreatePackageResponse).id;
  await waitForPackageReady(seller, widgetId);
  const license = await seller.client.post(`/api/repositories/${widgetId}/licenses`, {
    email: HOLDER,
    downloadLimit: 50,
    sendEmail: false,
  });
  expect(license.status).toBe(201);
  issued = (await license.json()) as IssuedLicense;
  expect(issued.composerToken).toMatch(/^pgc_/);

  // The holder's project, set up with the issued commands, installs the package.
  projectDir = path.join(workDir, 'project');
  await mkdir(projectDir, { recursive: true });
  const manifest = { name: 'holder/app', type: 'project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(projectDir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  for (const line of issued.setupCommands) {
    const run = await composer(line.split(' ').slice(1));
    expect(run.code, `${line}\n${run.output}`).toBe(0);
  }

  browser = await launchBrowser();
  context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portalOrigin });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.close();
  if (workDir) await removeTempDir(workDir);
});

describe('the license holder portal', () => {
  let newToken: string;

  it('signs the holder in on the seller host from the e-mailed link, in the seller brand', async () => {
    await page.goto(`${portalOrigin}/portal`);
    await page.getByTestId('brand-name').getByText('Acme Tools').waitFor();
    await page.getByLabel('E-mail address').fill(HOLDER);
    await page.getByRole('button', { name: 'Send sign-in link' }).click();
    await page.getByTestId('portal-link-sent').waitFor();
    const linkSent = await page.getByTestId('portal-link-sent').textContent();
    expect(linkSent).toContain(`If ${HOLDER} holds a license here`);
    // The same words whether or not a link went out: the answer says repeats within 15 minutes are not all sent.
    expect(linkSent).toContain('We send at most 5 links to one address in 15 minutes');

    let link = '';
    await expect
      .poll(() => {
        const mail = readOutbox(app.dataDir).find((candidate) => candidate.to.includes(HOLDER));
        link = mail?.body.match(/http:\/\/acme\.composer\.localhost:\d+\/portal\?token=[A-Za-z0-9_%-]+/)?.[0] ?? '';
        return link;
      })
      .not.toBe('');
    await page.goto(link);
    await page.getByTestId('portal-email').getByText(`Signed in as ${HOLDER}`).waitFor();
    expect(page.url()).toBe(`${portalOrigin}/portal`);
  });

  it('shows the license state, versions, downloads and the setup commands with copy buttons', async () => {
    const card = page.getByTestId('portal-license');
    await card.waitFor();
    expect(await card.getAttribute('data-state')).toBe('active');
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('acme/widget');
    expect(text).toContain('Widgets for PHP');
    expect(text).toContain('Active');
    expect(await page.getByTestId('portal-license-versions').textContent()).toMatch(/v1\.1\.0\s*v1\.0\.0/);
    expect(text).toMatch(/of 50 downloads used/);
    const body = (await page.textContent('main')) ?? '';
    expect(body).toContain(`composer config repositories.acme composer ${portalOrigin}`);
    expect(body).toContain(`composer config bearer.acme.composer.localhost:${app.port} YOUR_TOKEN`);
    expect(body).toContain('composer require acme/widget');
    expect(await page.getByTestId('portal-support-email').textContent()).toBe('help@acme.test');

    await page.getByTestId('portal-setup').getByRole('button', { name: 'Copy' }).first().click();
    await page.getByText('Copied!').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `composer config repositories.acme composer ${portalOrigin}`,
    );

    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await photograph(page, `portal-licenses-${width}`);
    }
  });

  it('rotates the token: the new one is shown once, and the seller audit trail records it', async () => {
    await page.getByRole('button', { name: 'Rotate my token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Rotate token' }).click();
    const shown = page.getByTestId('portal-new-token');
    await shown.waitFor();
    newToken = (await shown.locator('code').textContent()) ?? '';
    expect(newToken).toMatch(/^pgc_/);
    expect(newToken).not.toBe(issued.composerToken);
    expect(await page.textContent('main')).toContain(
      `composer config bearer.acme.composer.localhost:${app.port} ${newToken}`,
    );
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await photograph(page, `portal-rotated-${width}`);
    }
    await expect
      .poll(() => readOutbox(app.dataDir).some((mail) => mail.to.includes(HOLDER) && mail.body.includes(newToken)))
      .toBe(true);
    const events = await app.ctx.db.select().from(auditEvents).where(eq(auditEvents.userId, seller.user.id));
    expect(events.map((event) => event.action)).toContain('customer.token_regenerated');
  });

  it("refuses the old token at the holder's next composer update with our message, and serves the new one", async () => {
    // Regenerating revokes the old named token: the Composer door says so (features/composer/token-standing.ts).
    const message = 'This token was revoked on ';
    // On the holder's machine Composer prints our message and falls back to what it cached before.
    const cached = await composer(['update']);
    expect(cached.output).toContain(message);
    expect(cached.output).toContain('could not be fully loaded');
    // Where nothing is cached (a fresh checkout, CI), the update fails.
    const fresh = await composer(['update'], path.join(workDir, 'fresh-cache'));
    expect(fresh.code).not.toBe(0);
    expect(fresh.output).toContain(message);

    const configured = await composer(['config', `bearer.acme.composer.localhost:${app.port}`, newToken]);
    expect(configured.code, configured.output).toBe(0);
    const served = await composer(['update'], path.join(workDir, 'fresh-cache'));
    expect(served.code, served.output).toBe(0);
    expect(served.output).not.toContain(message);
  });

  it('gives a product’s license the command that requires every package in it, not the product’s name', async () => {
    const gizmo = await createPackage(app, seller.user, 'acme/gizmo', [
      { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
    ]);
    const [widget] = await app.ctx.db.select().from(packages).where(eq(packages.name, 'acme/widget'));
    const product = await createProduct(app, seller.user, 'Toolkit', [gizmo, widget!]);
    const [holder] = await app.ctx.db
      .select()
      .from(customers)
      .where(and(eq(customers.sellerId, seller.user.id), eq(customers.email, HOLDER)));
    await createProductGrant(app, { id: holder!.id, token: '', email: HOLDER }, product);

    await page.reload();
    const card = page.getByTestId('portal-license').filter({ hasText: 'Toolkit' });
    await card.waitFor();
    expect(await card.getByTestId('command-text').textContent()).toBe('$ composer require acme/gizmo acme/widget');
  });

  it('shows the sign-in form, not the licenses, once signed out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail address').waitFor();
    await page.setViewportSize({ width: 390, height: 900 });
    await photograph(page, 'portal-sign-in-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await photograph(page, 'portal-sign-in-1280');
  });
});
