import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Advisory } from '../../src/contract/lifecycle.js';
import type { CreatePackageResponse, Package } from '../../src/contract/packages.js';
import { waitForPackageReady } from '../support/dashboard-packages.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { readOutbox, setupCommandsIn } from '../support/outbox.js';
import { type SignedIn, signInSeller } from '../support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../support/test-app.js';
import { runComposer } from './composer-cli.js';

// A seller's security advisory, abandonment and yanked version as the real, unmodified composer client (Debian's
// Composer 2.5) shows them to a license holder: `composer audit` lists the advisory for an affected installed
// version and nothing for another, `composer update` prints Composer's abandoned warning and our yank reason and
// never picks the yanked version, while `composer install` from a lock that names it still gets it.

const TOKEN_PATTERN = /pgc_[A-Za-z0-9]{36}/;
const YANK_REASON = 'It deletes the cache folder on install';

let app: TestApp;
let workDir: string;
let seller: SignedIn;
let gadget: Package;
let setupCommands: string[];

/** The holder's composer, with Composer's own audit after install and update left on. */
const composer = (cwd: string, args: string[]) => runComposer(cwd, args, { home: workDir });

/** A project that knows only our repository, configured with the e-mail's commands. */
async function createProject(name: string): Promise<string> {
  const dir = path.join(workDir, name);
  await mkdir(dir, { recursive: true });
  const manifest = { name: `holder/${name}`, type: 'project', repositories: { 'packagist.org': false }, require: {} };
  await writeFile(path.join(dir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  for (const line of setupCommands) {
    if (line.startsWith('composer require')) continue;
    const run = await composer(dir, line.split(' ').slice(1));
    expect(run.code, `${line}\n${run.output}`).toBe(0);
  }
  return dir;
}

async function lockedVersion(dir: string): Promise<string> {
  const lock = JSON.parse(await readFile(path.join(dir, 'composer.lock'), 'utf8'));
  return lock.packages.find((entry: { name: string }) => entry.name === 'acme/gadget').version;
}

beforeAll(async () => {
  workDir = await createTempDir('packgate-advisories-');
  app = await startTestApp({ clock: new TestClock(new Date()) });
  await createPackageRepository(path.join(app.ctx.config.gitReposDir, 'acme-gadget'), {
    name: 'acme/gadget',
    tags: ['v1.0.0', 'v1.1.0', 'v1.2.0'],
  });
  seller = await signInSeller(app, { slug: 'gadgets' });
  expect((await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' })).status).toBe(200);
  const listed = (await (await seller.client.get('/api/github/repositories')).json()) as { githubId: string }[];
  const repo = listed.find((candidate) => candidate.githubId.endsWith('acme-gadget'));
  expect(repo, JSON.stringify(listed)).toBeDefined();
  const created = await seller.client.post('/api/repositories', {
    githubRepoId: repo!.githubId,
    packageName: 'acme/gadget',
  });
  expect(created.status).toBe(201);
  gadget = await waitForPackageReady(seller, ((await created.json()) as CreatePackageResponse).id);

  const issued = await seller.client.post(`/api/repositories/${gadget.id}/temporary-licenses`, {
    email: 'gadget-holder@example.com',
    durationDays: 30,
  });
  expect(issued.status).toBe(201);
  const mail = readOutbox(app.dataDir).find((candidate) => candidate.to.includes('gadget-holder@example.com'));
  expect(mail?.body).toMatch(TOKEN_PATTERN);
  setupCommands = setupCommandsIn(mail!.body);
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (workDir) await removeTempDir(workDir);
});

describe('the holder’s composer', () => {
  let affectedProject: string;
  let currentProject: string;

  it('lists the seller’s advisory in composer audit for an affected version, and nothing for another', async () => {
    affectedProject = await createProject('affected');
    expect((await composer(affectedProject, ['require', 'acme/gadget:1.1.0'])).code).toBe(0);
    currentProject = await createProject('current');
    expect((await composer(currentProject, ['require', 'acme/gadget:^1.0'])).code).toBe(0);
    expect(await lockedVersion(currentProject)).toBe('v1.2.0');
    const clean = await composer(affectedProject, ['audit', '--format=plain']);
    expect(clean.output).toContain('No security vulnerability advisories found');

    const published = await seller.client.post(`/api/repositories/${gadget.id}/advisories`, {
      title: 'Remote code execution in the gadget loader',
      affectedVersions: '>=1.0,<1.2.0',
      severity: 'critical',
      cve: 'CVE-2026-40001',
      link: 'https://example.com/advisories/gadget-1',
      reportedAt: '2026-11-20',
    });
    expect(published.status).toBe(201);
    const advisory = (await published.json()) as Advisory;

    const affected = await composer(affectedProject, ['audit', '--format=plain']);
    expect(affected.code, affected.output).not.toBe(0);
    expect(affected.output).toContain('Found 1 security vulnerability advisory affecting 1 package');
    expect(affected.output).toContain('Package: acme/gadget');
    expect(affected.output).toContain('CVE: CVE-2026-40001');
    expect(affected.output).toContain('Title: Remote code execution in the gadget loader');
    expect(affected.output).toContain('URL: https://example.com/advisories/gadget-1');
    expect(affected.output).toContain('Affected versions: >=1.0,<1.2.0');
    expect(affected.output).toContain('Reported at: 2026-11-20T00:00:00+00:00');

    const current = await composer(currentProject, ['audit', '--format=plain']);
    expect(current.code, current.output).toBe(0);
    expect(current.output).toContain('No security vulnerability advisories found');

    // Withdrawn, it leaves the holder's audit on the next run.
    expect(
      (await seller.client.delete(`/api/repositories/${gadget.id}/advisories/${advisory.advisoryId}`)).status,
    ).toBe(200);
    expect((await composer(affectedProject, ['audit', '--format=plain'])).output).toContain(
      'No security vulnerability advisories found',
    );
  });

  it('never picks a yanked version on update, says why, and still installs it from a lock that names it', async () => {
    const yanked = await seller.client.put(`/api/repositories/${gadget.id}/versions/v1.2.0/yank`, {
      reason: YANK_REASON,
    });
    expect(yanked.status).toBe(200);

    await rm(path.join(currentProject, 'vendor'), { recursive: true, force: true });
    const install = await composer(currentProject, ['install']);
    expect(install.code, install.output).toBe(0);
    expect(install.output).toContain('Installing acme/gadget (v1.2.0)');

    const update = await composer(currentProject, ['update']);
    expect(update.code, update.output).toBe(0);
    expect(update.output).toContain(`acme/gadget v1.2.0 was yanked by the seller: ${YANK_REASON}.`);
    expect(update.output).toContain('Downgrading acme/gadget (v1.2.0 => v1.1.0)');
    expect(await lockedVersion(currentProject)).toBe('v1.1.0');

    const fresh = await createProject('fresh');
    expect((await composer(fresh, ['require', 'acme/gadget'])).code).toBe(0);
    expect(await lockedVersion(fresh)).toBe('v1.1.0');
  });

  it('warns that the package is abandoned, naming its replacement', async () => {
    const abandoned = await seller.client.put(`/api/repositories/${gadget.id}/abandonment`, {
      replacement: 'acme/gadget-ng',
    });
    expect(abandoned.status).toBe(200);
    const update = await composer(affectedProject, ['update']);
    expect(update.code, update.output).toBe(0);
    expect(update.output).toContain(
      'Package acme/gadget is abandoned, you should avoid using it. Use acme/gadget-ng instead.',
    );
  });
});
