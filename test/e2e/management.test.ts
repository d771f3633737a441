import { request as httpRequest } from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageRepository, createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { readOutbox } from '../support/outbox.js';
import { sellerPageAroundTests } from './support/seller-page.js';

/** GET on the app's port with the Host a Composer client would send (Node does not resolve *.localhost names). */
function getFromHost(
  url: string,
  port: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: target.pathname, headers: { ...headers, host: target.host } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A toast's title or description (Radix also announces it in a live region, hence exact). */
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).waitFor();

describe('package management in a real browser', () => {
  let reposDir: string;

  // Registered before the page's set-up, so it runs after the app reading these repositories is closed.
  afterAll(async () => {
    if (reposDir) await removeTempDir(reposDir);
  });

  const dashboard = sellerPageAroundTests(async () => {
    reposDir = await createTempDir('packgate-e2e-repos-');
    await createPackageRepository(path.join(reposDir, 'acme-widget'), {
      name: 'acme/widget',
      description: 'Widgets for PHP',
      tags: ['v1.0.0', 'v1.1.0'],
      bare: true,
      gitDescription: 'Widgets for PHP',
    });
    await createPackageRepository(path.join(reposDir, 'plain-notes'), {
      name: 'acme/notes',
      withoutComposerJson: true,
    });
    return { app: { env: { GIT_REPOS_DIR: reposDir } } };
  });

  beforeAll(async () => {
    const { seller } = dashboard;
    const trial = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(trial.status).toBe(200);
  });

  it('adds a package from the local code host through ?action=add-package and watches its sync', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/management?action=add-package`);
    const dialog = page.getByRole('dialog', { name: 'Add New Package' });
    await dialog.waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');

    const options = dialog.getByTestId('repository-option');
    await expect.poll(() => options.count()).toBe(2);
    expect(await dialog.getByRole('radio', { name: /plain-notes/ }).isDisabled()).toBe(true);
    const create = dialog.getByRole('button', { name: 'Create Package' });
    expect(await create.isDisabled()).toBe(true);
    expect(await dialog.getByText('Please select a repository').isVisible()).toBe(true);

    await dialog.getByRole('radio', { name: /acme-widget/ }).click();
    const name = dialog.getByLabel('Package Name');
    // composer.json names the package, so that name is suggested rather than the repository's.
    expect(await name.inputValue()).toBe('acme/widget');
    expect(await dialog.getByLabel('Description').inputValue()).toBe('Widgets for PHP');
    await name.fill('');
    expect(await create.isDisabled()).toBe(true);
    expect(await dialog.getByText('Please fill in all required fields').isVisible()).toBe(true);
    await name.fill('acme/widget');
    await create.click();

    await toast(page, 'Package created successfully');
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByTestId('package-card').filter({ hasText: 'acme/widget' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Widgets for PHP');
    expect(await card.textContent()).toContain('local/acme-widget');
    // The sync runs in the background: the strip under the header shows it, and the card follows when it completes.
    const tasks = page.getByTestId('task-progress-widget');
    await tasks.waitFor();
    await expect.poll(() => card.getByTestId('sync-state').textContent(), { timeout: 30_000 }).toMatch(/^Synced/);
    await expect.poll(() => card.textContent()).toMatch(/Versions\s*3/);
    await tasks.getByText('Tasks finished').waitFor();
    // Named after the code host that ran it: the embedded one here, not GitHub.
    await tasks.getByRole('button', { name: 'Details' }).click();
    await tasks.getByTestId('task-progress-item').getByText('Local Repository Sync').waitFor();
    await tasks.getByRole('button', { name: 'Hide' }).click();
    await tasks.getByRole('button', { name: 'Dismiss' }).click();
    await tasks.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('stat-cards').textContent()).toMatch(/Active Packages\s*1/);
  });

  it('filters and searches the package cards', async () => {
    const { page } = dashboard;
    const cards = page.getByTestId('package-card');
    await page.getByLabel('Filter packages').selectOption('inactive');
    await expect.poll(() => cards.count()).toBe(0);
    await page.getByText('No packages match').waitFor();
    await page.getByLabel('Filter packages').selectOption('active');
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByLabel('Search packages').fill('gadget');
    await expect.poll(() => cards.count()).toBe(0);
    await page.getByLabel('Search packages').fill('WIDGETS');
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByLabel('Filter packages').selectOption('all');
    await page.getByLabel('Search packages').fill('');
  });

  it("issues a temporary license whose e-mail holds setup commands that reach the seller's repository", async () => {
    const { app, page } = dashboard;
    const card = page.getByTestId('package-card').filter({ hasText: 'acme/widget' });
    await card.getByRole('button', { name: 'Actions for acme/widget' }).click();
    await page.getByRole('menuitem', { name: 'Temporary Licenses' }).click();
    const dialog = page.getByRole('dialog', { name: 'Temporary Licenses' });
    await dialog.getByText('No temporary licenses yet.').waitFor();
    const createLicense = dialog.getByRole('button', { name: 'Create License' });
    expect(await createLicense.isDisabled()).toBe(true);
    await dialog.getByLabel('Email').fill('   ');
    expect(await createLicense.isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Duration').inputValue()).toBe('7');
    await dialog.getByLabel('Email').fill('holder@example.com');
    await dialog.getByLabel('Note (optional)').fill('Evaluation');
    await createLicense.click();

    await toast(page, '7-day access granted to holder@example.com');
    const row = dialog.getByTestId('temporary-license');
    await row.waitFor();
    expect(await row.textContent()).toMatch(/holder@example\.com.*Active.*7 days left/);
    expect(await row.textContent()).toContain('Evaluation');
    expect(await row.textContent()).toContain('Never used');
    expect(await row.getByRole('button', { name: 'Revoke' }).isVisible()).toBe(true);
    // Escape would first close the toast (Radix layers): close the dialog the way a seller does.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    let mail: ReturnType<typeof readOutbox>[number] | undefined;
    await expect
      .poll(() => {
        mail = readOutbox(app.dataDir).find((message) => message.to.includes('holder@example.com'));
        return Boolean(mail);
      })
      .toBe(true);
    const body = mail!.body;
    const repositoryUrl = `http://acme.composer.localhost:${app.port}`;
    const token = /composer config bearer\.acme\.composer\.localhost:\d+ (\S+)/.exec(body)?.[1];
    expect(token).toBeTruthy();
    for (const command of [
      `composer config repositories.acme composer ${repositoryUrl}`,
      'composer config secure-http false',
      `composer config bearer.acme.composer.localhost:${app.port} ${token}`,
      'composer require acme/widget',
    ]) {
      expect(body).toContain(command);
    }

    // The e-mailed URL and token open the repository; without the token it stays shut.
    const packagesJson = await getFromHost(`${repositoryUrl}/packages.json`, app.port, {
      authorization: `Bearer ${token}`,
    });
    expect(packagesJson.status).toBe(200);
    expect(JSON.parse(packagesJson.body)['available-packages']).toContain('acme/widget');
    const anonymous = await getFromHost(`${repositoryUrl}/packages.json`, app.port, {});
    expect(anonymous.status).toBe(401);
    const metadata = await getFromHost(`${repositoryUrl}/p2/acme/widget.json`, app.port, {
      authorization: `Bearer ${token}`,
    });
    expect(metadata.status).toBe(200);
    const versions = JSON.parse(metadata.body).packages['acme/widget'] as { version: string; dist: { url: string } }[];
    expect(versions.map((version) => version.version)).toEqual(expect.arrayContaining(['v1.1.0', 'v1.0.0']));
    const newest = versions.find((version) => version.version === 'v1.1.0')!;
    const zip = await getFromHost(newest.dist.url, app.port, { authorization: `Bearer ${token}` });
    expect(zip.status).toBe(200);

    // The Setup Guide shows the same commands, with a placeholder for the token.
    await card.getByRole('button', { name: 'Setup Guide' }).click();
    const guide = page.getByRole('dialog', { name: 'Setup Guide' });
    expect(await guide.getByTestId('setup-step').count()).toBe(3);
    const guideText = (await guide.textContent()) ?? '';
    expect(guideText).toContain(`composer config repositories.acme composer ${repositoryUrl}`);
    expect(guideText).toContain('composer config secure-http false');
    expect(guideText).toContain(`composer config bearer.acme.composer.localhost:${app.port} YOUR_TOKEN`);
    expect(guideText).toContain('composer require acme/widget');
    await guide.getByRole('button', { name: 'Close' }).click();
    await guide.waitFor({ state: 'detached' });

    // The seller sees the download counted once the figures are read again.
    await page.reload();
    await expect.poll(() => page.getByTestId('stat-cards').textContent()).toMatch(/Total Downloads\s*1\D/);
    await expect.poll(() => page.getByTestId('stat-cards').textContent()).toMatch(/Total Users\s*1\D/);

    await card.getByRole('button', { name: 'Copy URL' }).click();
    await card.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(repositoryUrl);
  });

  it('lists the license holder under Access Management and regenerates their token', async () => {
    const { app, page } = dashboard;
    await page.getByRole('tab', { name: 'Access Management' }).click();
    const holder = page.getByTestId('license-holder').filter({ hasText: 'holder@example.com' });
    await holder.waitFor();
    const grant = holder.getByTestId('grant-row');
    expect(await grant.textContent()).toMatch(/acme\/widget.*Temporary.*Active/);
    expect(await grant.textContent()).toContain('1 / Unlimited');

    await holder.getByRole('button', { name: 'Regenerate token' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Regenerate token' }).click();
    await toast(page, 'A new token was e-mailed to holder@example.com');
    await expect
      .poll(() => readOutbox(app.dataDir).filter((message) => message.to.includes('holder@example.com')).length)
      .toBe(2);
  });

  it('edits, deactivates and deletes the package', async () => {
    const { page } = dashboard;
    await page.getByRole('tab', { name: 'Overview' }).click();
    const card = page.getByTestId('package-card').filter({ hasText: 'acme/widget' });
    await card.getByRole('button', { name: 'Actions for acme/widget' }).click();
    await page.getByRole('menuitem', { name: 'Edit Package' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Package' });
    await edit.getByLabel('Package Name').fill('');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.getByText('Package name is required').waitFor();
    await edit.getByLabel('Package Name').fill('acme/widget');
    await edit.getByRole('switch', { name: 'Active' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Package Updated');
    await expect.poll(() => card.textContent()).toContain('Inactive');

    await card.getByRole('button', { name: 'Actions for acme/widget' }).click();
    await page.getByRole('menuitem', { name: 'Delete Package' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Repository' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Repository Deleted');
    await page.getByText('No packages yet').waitFor();
  });

  it('sends /packages to Management', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/packages`);
    await page.waitForURL(`${origin}/management`);
    await page.getByRole('heading', { name: 'Repository Management' }).waitFor();
  });
});
