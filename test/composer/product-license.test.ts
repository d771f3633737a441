import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiToken } from '../../src/contract/developer.js';
import { createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { readOutbox } from '../support/outbox.js';
import { giveTrial } from '../support/packages.js';
import { type SignedIn, signInSeller } from '../support/sessions.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { type ComposerRun, runComposer } from './composer-cli.js';
import { createPackage } from './repository-fixtures.js';

// The real, unmodified composer with a product's license (issue 31's Done when): a seller makes a product of three
// packages and licenses it to one holder through API v1; the holder gets exactly one e-mail naming all three, and the
// setup commands in it install all three. A fourth package added to the product afterwards installs with the same
// token, with no new license and no new e-mail; a package taken out of the product is no longer found.

const HOLDER = 'suite-holder@example.com';

let app: TestApp;
let workDir: string;
let seller: SignedIn;
let apiToken: string;
let productId: string;
const ids: Record<string, string> = {};
let setup: string[] = [];
let projects = 0;

async function api(method: string, pathname: string, body?: unknown) {
  const response = await fetch(new URL(`/api/v1${pathname}`, app.baseUrl), {
    method,
    headers: {
      authorization: `Bearer ${apiToken}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers read field by field
  return { status: response.status, body: (await response.json()) as any };
}

const mailsToHolder = () => readOutbox(app.dataDir).filter((mail) => mail.to.includes(HOLDER));

/** The setup commands of the license e-mail, in order: add the repository, (secure-http), the token, require. */
function setupCommandsOf(body: string): string[] {
  const lines = body.split(/\r?\n/).map((line) => line.trim());
  const first = (pattern: RegExp) => lines.find((line) => pattern.test(line));
  const wanted = [
    /^composer config repositories\.\S+ composer /,
    /^composer config secure-http false$/,
    /^composer config bearer\./,
  ];
  const found = wanted.map(first).filter((line): line is string => line !== undefined);
  const require = first(/^composer require /);
  return require ? [...found, require] : found;
}

/** Splits a command the e-mail shows into composer's arguments (its words hold no quotes or spaces). */
const argumentsOf = (command: string) => command.split(/\s+/).slice(1);

/** A fresh project with its own cache, set up with the e-mail's commands up to (not including) `composer require`. */
async function createProject(): Promise<{ dir: string; run: (args: string[]) => Promise<ComposerRun> }> {
  const dir = path.join(workDir, `project-${++projects}`);
  await mkdir(dir, { recursive: true });
  const manifest = { name: 'holder/app', type: 'project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(dir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  const options = { home: workDir, cacheDir: path.join(dir, 'cache'), audit: false };
  const run = (args: string[]) => runComposer(dir, args, options);
  for (const command of setup.filter((line) => !line.startsWith('composer require '))) {
    const result = await run(argumentsOf(command));
    expect(result.code, `${command}\n${result.output}`).toBe(0);
  }
  return { dir, run };
}

async function installedVersion(dir: string, name: string): Promise<string> {
  return readFile(path.join(dir, 'vendor', ...name.split('/'), 'VERSION.txt'), 'utf8');
}

beforeAll(async () => {
  workDir = await createTempDir('packgate-product-');
  app = await startTestApp();
  seller = await signInSeller(app, { slug: 'suite' });
  await giveTrial(app, seller.user.id);
  for (const name of ['a', 'b', 'c', 'd']) {
    const pkg = await createPackage(app, seller.user, `acme/${name}`, [
      { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
    ]);
    ids[name] = pkg.id;
  }
  const response = await seller.client.post('/api/developer/tokens', {
    name: 'shop',
    permissions: ['packages:read', 'packages:write', 'customers:read', 'customers:write'],
  });
  expect(response.status).toBe(201);
  apiToken = ((await response.json()) as CreatedApiToken).token;
});

afterAll(async () => {
  await app?.close();
  if (workDir) await removeTempDir(workDir);
});

describe('a product license with the real composer', () => {
  it('sends one e-mail naming the three packages, whose setup commands install all three', async () => {
    const product = await api('POST', '/products', { name: 'Suite', packageIds: [ids.a, ids.b, ids.c] });
    expect(product.status).toBe(201);
    productId = product.body.data.id;
    const issued = await api('POST', '/licenses', { email: HOLDER, productId });
    expect(issued.status).toBe(201);

    const mails = mailsToHolder();
    expect(mails).toHaveLength(1);
    for (const name of ['acme/a', 'acme/b', 'acme/c']) expect(mails[0]!.body).toContain(name);
    setup = setupCommandsOf(mails[0]!.body);
    expect(setup.at(-1)).toBe('composer require acme/a acme/b acme/c');
    expect(setup.some((line) => line.startsWith('composer config bearer.'))).toBe(true);

    const { dir, run } = await createProject();
    const required = await run(argumentsOf(setup.at(-1)!));
    expect(required.code, required.output).toBe(0);
    for (const name of ['acme/a', 'acme/b', 'acme/c']) {
      expect(await installedVersion(dir, name)).toMatch(new RegExp(`^${name} v1\\.0\\.0 `));
    }
  });

  it('covers a fourth package added to the product afterwards, with no new license or e-mail', async () => {
    const { dir, run } = await createProject();
    const before = await run(['require', 'acme/d']);
    expect(before.code, before.output).not.toBe(0);

    const added = await api('PATCH', `/products/${productId}`, { packageIds: [ids.a, ids.b, ids.c, ids.d] });
    expect(added.status).toBe(200);
    const after = await run(['require', 'acme/d']);
    expect(after.code, after.output).toBe(0);
    expect(await installedVersion(dir, 'acme/d')).toMatch(/^acme\/d v1\.0\.0 /);
    expect(mailsToHolder()).toHaveLength(1);
    const licenses = await api('GET', '/licenses');
    expect(licenses.status).toBe(200);
    expect(licenses.body.data).toHaveLength(1);
  });

  it('no longer finds a package taken out of the product, in a fresh project', async () => {
    const removed = await api('PATCH', `/products/${productId}`, { packageIds: [ids.a, ids.b, ids.c] });
    expect(removed.status).toBe(200);
    const { run } = await createProject();
    const refused = await run(['require', 'acme/d']);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/Could not find (a matching version of )?package acme\/d/);
    const stillCovered = await run(['require', 'acme/a']);
    expect(stillCovered.code, stillCovered.output).toBe(0);
  });
});
