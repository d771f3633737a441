import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemporaryLicense } from '../../src/contract/licenses.js';
import type { CreatePackageResponse, Package } from '../../src/contract/packages.js';
import { waitForPackageReady } from '../support/dashboard-packages.js';
import {
  createPackageRepository,
  createTempDir,
  type PackageRepository,
  readFixtureTree,
  removeTempDir,
} from '../support/git-fixtures.js';
import { readOutbox, setupCommandsIn } from '../support/outbox.js';
import { type SignedIn, signInSeller } from '../support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../support/test-app.js';
import { type ComposerRun, runComposer } from './composer-cli.js';

// The real, unmodified composer client (Debian's php-cli and composer) against the real app: a license holder
// follows the e-mail's commands and installs, updates, and is refused with our message once the license is
// revoked. Host names under composer.localhost reach loopback through libcurl, which answers `*.localhost` itself
// (the system resolver does not): Composer's HTTP goes through PHP's curl extension, checked below.

const execFileAsync = promisify(execFile);
const TOKEN_PATTERN = /pgc_[A-Za-z0-9]{36}/;

let app: TestApp;
let workDir: string;
let repository: PackageRepository;
let seller: SignedIn;
let widget: Package;
let licenseId: string;
let setupCommands: string[];
let holderEmail: string;

/** Runs composer with a private home and cache, no packagist, no audit, no prompts; never throws. */
function composer(cwd: string, args: string[], options: { cacheDir?: string } = {}): Promise<ComposerRun> {
  return runComposer(cwd, args, { home: workDir, audit: false, ...options });
}

/** A fresh project that knows no package repository but ours (packagist disabled). */
async function createProject(name: string): Promise<string> {
  const dir = path.join(workDir, name);
  await mkdir(dir, { recursive: true });
  const manifest = { name: `holder/${name}`, type: 'project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(dir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  return dir;
}

/** The e-mail's setup commands, run as the holder would type them, except the final require. */
async function configureFromEmail(projectDir: string): Promise<void> {
  for (const line of setupCommands) {
    if (line.startsWith('composer require')) continue;
    const run = await composer(projectDir, line.split(' ').slice(1));
    expect(run.code, `${line}\n${run.output}`).toBe(0);
  }
}

async function addPackage(repositoryFolder: string, packageName: string): Promise<Package> {
  const listed = (await (await seller.client.get('/api/github/repositories')).json()) as {
    githubId: string;
    fullName: string;
  }[];
  const repo = listed.find(
    (candidate) => candidate.githubId === repositoryFolder || candidate.fullName.endsWith(repositoryFolder),
  );
  expect(repo, JSON.stringify(listed)).toBeDefined();
  const response = await seller.client.post('/api/repositories', { githubRepoId: repo!.githubId, packageName });
  expect(response.status).toBe(201);
  const created = (await response.json()) as CreatePackageResponse;
  return waitForPackageReady(seller, created.id);
}

beforeAll(async () => {
  const php = await execFileAsync('php', ['-m']);
  // Without the curl extension Composer falls back to PHP streams, which resolve names through the system
  // resolver, and that one does not know `*.localhost`.
  expect(php.stdout).toMatch(/^curl$/m);

  workDir = await createTempDir('packgate-composer-');
  // On today's date: rows the database stamps itself (a grant's updated_at) and the app's clock must agree, as
  // they do in production, for Last-Modified to move forward.
  app = await startTestApp({ clock: new TestClock(new Date()) });
  repository = await createPackageRepository(path.join(app.ctx.config.gitReposDir, 'acme-widget'), {
    name: 'acme/widget',
    description: 'Widgets for PHP',
    tags: ['v1.0.0', 'v1.1.0'],
    branches: ['main'],
  });
  await createPackageRepository(path.join(app.ctx.config.gitReposDir, 'acme-other'), {
    name: 'acme/other',
    tags: ['v1.0.0'],
  });
  seller = await signInSeller(app, { slug: 'acme' });
  const trial = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
  expect(trial.status).toBe(200);
  widget = await addPackage('acme-widget', 'acme/widget');
  await addPackage('acme-other', 'acme/other');

  holderEmail = 'holder@example.com';
  const issued = await seller.client.post(`/api/repositories/${widget.id}/temporary-licenses`, {
    email: holderEmail,
    durationDays: 7,
  });
  expect(issued.status).toBe(201);
  licenseId = ((await issued.json()) as TemporaryLicense).id;
  const mail = readOutbox(app.dataDir).find((candidate) => candidate.to.includes(holderEmail));
  expect(mail).toBeDefined();
  const token = mail!.body.match(TOKEN_PATTERN)?.[0];
  expect(token).toBeDefined();
  // The commands as the e-mail's plain-text part lists them (its HTML part repeats them).
  setupCommands = setupCommandsIn(mail!.body);
  expect(setupCommands.some((line) => line.includes(`composer.localhost:${app.port}`))).toBe(true);
  expect(setupCommands.some((line) => line.includes(token!))).toBe(true);
});

afterAll(async () => {
  await app?.close();
  if (workDir) await removeTempDir(workDir);
});

describe('the composer client', () => {
  let projectDir: string;

  it("installs ^1.0 as 1.1.0 with exactly the tag's files, following the e-mail", async () => {
    projectDir = await createProject('main-project');
    await configureFromEmail(projectDir);
    const run = await composer(projectDir, ['require', 'acme/widget:^1.0']);
    expect(run.code, run.output).toBe(0);
    const lock = JSON.parse(await readFile(path.join(projectDir, 'composer.lock'), 'utf8'));
    expect(lock.packages.map((entry: { name: string; version: string }) => [entry.name, entry.version])).toEqual([
      ['acme/widget', 'v1.1.0'],
    ]);
    expect(lock.packages[0].dist.url).toBe(
      `http://acme.composer.localhost:${app.port}/api/composer/download/acme/widget/v1.1.0`,
    );
    expect(lock.packages[0]).not.toHaveProperty('source');
    expect(await readFixtureTree(path.join(projectDir, 'vendor/acme/widget'))).toEqual(
      repository.revisions['v1.1.0']!.files,
    );

    // The seller sees the download counted.
    const licenses = (await (
      await seller.client.get(`/api/repositories/${widget.id}/temporary-licenses`)
    ).json()) as TemporaryLicense[];
    expect(licenses.find((license) => license.id === licenseId)?.lastUsedAt).not.toBeNull();
  });

  it('authenticates with HTTP basic too, the token as the password', async () => {
    const dir = await createProject('basic-project');
    const repositoryLine = setupCommands.find((line) => line.startsWith('composer config repositories.'))!;
    const bearerLine = setupCommands.find((line) => line.startsWith('composer config bearer.'))!;
    const [, , key, token] = bearerLine.split(' ');
    for (const args of [
      repositoryLine.split(' ').slice(1),
      ['config', 'secure-http', 'false'],
      ['config', `http-basic.${key!.slice('bearer.'.length)}`, 'anyone', token!],
    ]) {
      const run = await composer(dir, args);
      expect(run.code, run.output).toBe(0);
    }
    const run = await composer(dir, ['require', 'acme/widget:1.0.0'], { cacheDir: path.join(workDir, 'cache-basic') });
    expect(run.code, run.output).toBe(0);
    expect(await readFixtureTree(path.join(dir, 'vendor/acme/widget'))).toEqual(repository.revisions['v1.0.0']!.files);
  });

  it('installs dev-main', async () => {
    const dir = await createProject('dev-project');
    await configureFromEmail(dir);
    const run = await composer(dir, ['require', 'acme/widget:dev-main']);
    expect(run.code, run.output).toBe(0);
    expect(await readFixtureTree(path.join(dir, 'vendor/acme/widget'))).toEqual(repository.revisions.main!.files);
  });

  it('does not find a package the license does not include', async () => {
    const dir = await createProject('unlicensed-project');
    await configureFromEmail(dir);
    const run = await composer(dir, ['require', 'acme/other:^1.0']);
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/could not find a matching version of package acme\/other|could not be found/i);
  });

  it('finds a new tag after a refresh', async () => {
    const release = await repository.addTag('v1.2.0');
    // The seller pushes and refreshes a while later: Last-Modified has whole seconds, and the test clock stands still.
    app.clock.advance(60_000);
    const refresh = await seller.client.post(`/api/repositories/${widget.id}/refresh`);
    expect(refresh.status).toBe(202);
    await waitForPackageReady(seller, widget.id, (pkg) => pkg.versionCount > widget.versionCount);
    const run = await composer(projectDir, ['update', 'acme/widget']);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Upgrading acme\/widget \(v1\.1\.0 => v1\.2\.0\)/);
    expect(await readFixtureTree(path.join(projectDir, 'vendor/acme/widget'))).toEqual(release.files);
  });

  it('refuses an install from composer.lock, and an update, once the license is revoked, with our message', async () => {
    const revoke = await seller.client.delete(`/api/repositories/${widget.id}/temporary-licenses/${licenseId}`);
    expect(revoke.status).toBeLessThan(300);

    // From the lock file: Composer reads no metadata, only the dist URL, which checks the license itself.
    const lockedDir = path.join(workDir, 'locked-project');
    await mkdir(lockedDir, { recursive: true });
    for (const file of ['composer.json', 'composer.lock', 'auth.json']) {
      await writeFile(path.join(lockedDir, file), await readFile(path.join(projectDir, file)));
    }
    const install = await composer(lockedDir, ['install'], { cacheDir: path.join(workDir, 'cache-empty') });
    expect(install.code).not.toBe(0);
    expect(install.output).toContain('Your license for acme/widget has been revoked.');
    expect(install.output).toContain('403');

    const update = await composer(projectDir, ['update', 'acme/widget']);
    expect(update.code).not.toBe(0);
    expect(update.output).toContain('Your license for acme/widget has been revoked.');
    await rm(lockedDir, { recursive: true, force: true });
  });
});
