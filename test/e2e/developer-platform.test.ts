import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ComposerRun, runComposer } from '../composer/composer-cli.js';
import { createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { addSyncedPackage } from '../support/packages.js';
import { TestClock } from '../support/test-app.js';
import { sellerPageAroundTests } from './support/seller-page.js';

// A seller's shop on the developer platform, end to end: a token made on /api-tokens and read once, API v1
// called with it, a license created through the API installed by the real composer client, revoked through
// the API so that the next install fails, and the token deleted on the page so that the API refuses it.

type Envelope<T> = { success: boolean; data: T; message?: string; status?: number };

let workDir: string;
let packageId: string;
let apiToken: string;

/** A toast's title or description (Radix also announces it in a live region, hence exact). */
const toast = (text: string) => dashboard.page.getByText(text, { exact: true }).first().waitFor();

async function callApi<T>(
  method: string,
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Envelope<T> }> {
  const { app } = dashboard;
  const response = await fetch(new URL(pathname, app.baseUrl), {
    method,
    headers: {
      authorization: `Bearer ${apiToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Envelope<T> };
}

/** Runs composer with a private home and cache, no packagist, no prompts; never throws. */
function composer(cwd: string, args: string[], cacheDir: string): Promise<ComposerRun> {
  return runComposer(cwd, args, { home: workDir, cacheDir, audit: false });
}

/** A fresh project that knows only the commands the API answered with, then requires the package. */
async function installInFreshProject(name: string, setupCommands: string[]) {
  const dir = path.join(workDir, name);
  await mkdir(dir, { recursive: true });
  const manifest = { name: `holder/${name}`, type: 'project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(dir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  const cacheDir = path.join(workDir, `${name}-cache`);
  for (const line of setupCommands) {
    if (line.startsWith('composer require')) continue;
    const run = await composer(dir, line.split(' ').slice(1), cacheDir);
    expect(run.code, `${line}\n${run.output}`).toBe(0);
  }
  return composer(dir, ['require', 'acme/widget'], cacheDir);
}

// On today's date, as the composer tests do: metadata dates and the app's clock must agree.
const dashboard = sellerPageAroundTests(() => ({ app: { clock: new TestClock(new Date()) }, onTrial: true }));

beforeAll(async () => {
  const { app, seller } = dashboard;
  workDir = await createTempDir('packgate-e2e-developer-');
  packageId = await addSyncedPackage(app, seller, 'acme/widget');
});

afterAll(async () => {
  if (workDir) await removeTempDir(workDir);
});

describe('the developer platform in a real browser', () => {
  it('creates a token on /api-tokens and shows it once', async () => {
    const { page, origin } = dashboard;
    await page.goto(`${origin}/api-tokens`);
    await page.getByText('No API tokens yet').waitFor();
    await page.getByRole('button', { name: 'Create Token' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create API Token' });
    const create = dialog.getByRole('button', { name: 'Create', exact: true });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Token Name').fill('   ');
    await dialog.getByRole('checkbox', { name: /^packages:read/ }).check();
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Token Name').fill('Shop');
    await dialog.getByRole('checkbox', { name: /^customers:write/ }).check();
    expect(await create.isDisabled()).toBe(false);
    await create.click();

    const shown = page.getByRole('dialog', { name: 'API Token Created' });
    await shown.waitFor();
    await toast('API Token Created');
    apiToken = await shown.getByLabel('Your API token').inputValue();
    expect(apiToken).toMatch(/^pga_/);
    await shown.getByRole('button', { name: 'Copy token' }).click();
    await shown.getByRole('button', { name: 'Copied!' }).first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiToken);
    // The ready-to-paste request carries the new token and the app's public address.
    const sample = (await shown.getByTestId('code-sample').textContent()) ?? '';
    expect(sample).toContain(`curl '${origin}/api/v1/packages'`);
    expect(sample).toContain(`-H 'Authorization: Bearer ${apiToken}'`);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const card = page.getByTestId('api-token').filter({ hasText: 'Shop' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/Shop\s*Active/);
    expect(await card.textContent()).toContain('Never used');
    expect(await card.textContent()).toContain('packages:read');
    expect(await card.textContent()).toContain('customers:write');
    // Shown once: nowhere on the page any more, and never in the list the server sends.
    expect(await page.content()).not.toContain(apiToken);
  });

  it('calls /api/v1/packages with the token and shows when it was last used', async () => {
    const { page } = dashboard;
    const packages = await callApi<{ id: string; name: string }[]>('GET', '/api/v1/packages');
    expect(packages.status).toBe(200);
    expect(packages.json.success).toBe(true);
    expect(packages.json.data.map((pkg) => pkg.name)).toEqual(['acme/widget']);

    await page.reload();
    const card = page.getByTestId('api-token').filter({ hasText: 'Shop' });
    await expect.poll(() => card.textContent()).toContain('Last used');
  });

  it('creates a license through the API that the holder installs with composer, and revokes it', async () => {
    const issued = await callApi<{ license: { id: string }; composerToken: string | null; setupCommands: string[] }>(
      'POST',
      '/api/v1/licenses',
      {
        packageId,
        email: 'buyer@example.com',
        expiresAt: null,
        downloadLimit: null,
        endMode: 'access',
        sendEmail: false,
      },
      { 'idempotency-key': 'order-1' },
    );
    expect(issued.status, JSON.stringify(issued.json)).toBe(201);
    const { license, composerToken, setupCommands } = issued.json.data;
    expect(composerToken).toMatch(/^pgc_/);
    expect(setupCommands.some((line) => line.includes(composerToken!))).toBe(true);

    const install = await installInFreshProject('licensed', setupCommands);
    expect(install.code, install.output).toBe(0);

    const revoked = await callApi<{ status: string }>('DELETE', `/api/v1/licenses/${license.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.json.data.status).toBe('revoked');

    const refused = await installInFreshProject('revoked', setupCommands);
    expect(refused.code, refused.output).not.toBe(0);
  });

  it('deletes the token on the page, after which the API refuses it', async () => {
    const { page } = dashboard;
    const card = page.getByTestId('api-token').filter({ hasText: 'Shop' });
    await card.getByRole('button', { name: 'Delete Shop' }).click();
    await page.getByRole('dialog', { name: 'Delete API Token' }).getByRole('button', { name: 'Delete' }).click();
    await toast('Token Deleted');
    await page.getByText('No API tokens yet').waitFor();

    const refused = await callApi<unknown>('GET', '/api/v1/packages');
    expect(refused.status).toBe(401);
    expect(refused.json.success).toBe(false);
    expect(refused.json.message).toMatch(/deleted/i);
  });
});
