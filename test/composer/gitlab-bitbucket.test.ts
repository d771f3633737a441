import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePackageResponse, Package } from '../../src/contract/packages.js';
import { type FakeBitbucket, startFakeBitbucket } from '../fakes/bitbucket.js';
import { type FakeGitlab, startFakeGitlab } from '../fakes/gitlab.js';
import { waitForPackageReady } from '../support/dashboard-packages.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../support/git-fixtures.js';
import { readOutbox, setupCommandsIn } from '../support/outbox.js';
import { type SignedIn, signInSeller } from '../support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../support/test-app.js';
import { runComposer } from './composer-cli.js';

// The real composer client installs packages whose code Packgate read from GitLab and from Bitbucket Cloud (fakes
// serving git over HTTP on loopback, issue 30's Done when): the seller connects each with an access token, adds a
// repository of each, and a license holder follows the licence e-mail and requires both.

const TOKEN_PATTERN = /pgc_[A-Za-z0-9_-]{32,}/;

let gitlab: FakeGitlab;
let bitbucket: FakeBitbucket;
let app: TestApp;
let workDir: string;
let seller: SignedIn;

async function addPackage(connectionId: string, repositoryId: string, packageName: string): Promise<Package> {
  const response = await seller.client.post('/api/repositories', {
    githubRepoId: repositoryId,
    connectionId,
    packageName,
    description: '',
    isActive: true,
  });
  const created = (await response.json()) as CreatePackageResponse & { message?: string };
  expect(response.status, created.message).toBe(201);
  return waitForPackageReady(seller, created.id);
}

beforeAll(async () => {
  gitlab = await startFakeGitlab();
  bitbucket = await startFakeBitbucket();
  workDir = await createTempDir('packgate-composer-hosts-');
  app = await startTestApp({
    clock: new TestClock(new Date()),
    env: { ...gitlab.env(), ...bitbucket.env(), CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' },
  });
  const widget = await createPackageRepository(path.join(workDir, 'repos', 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0', 'v1.1.0'],
    bare: true,
  });
  const gadget = await createPackageRepository(path.join(workDir, 'repos', 'acme', 'gadget.git'), {
    name: 'acme/gadget',
    tags: ['v2.0.0'],
    bare: true,
  });
  const project = gitlab.addProject({ path: 'acme/widget', members: [], gitDir: widget.dir });
  const repository = bitbucket.addRepository({ workspace: 'acme', slug: 'gadget', gitDir: gadget.dir });

  seller = await signInSeller(app, { slug: 'acme' });
  const trial = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
  expect(trial.status).toBe(200);

  const viaGitlab = await seller.client.post('/api/code-hosts/gitlab/token', {
    token: gitlab.issueProjectAccessToken(project),
  });
  expect(viaGitlab.status).toBe(201);
  const viaBitbucket = await seller.client.post('/api/code-hosts/bitbucket', {
    workspace: 'acme',
    repository: 'gadget',
    token: bitbucket.issueAccessToken({ workspace: 'acme', repositorySlug: 'gadget', scopes: ['repository'] }),
  });
  expect(viaBitbucket.status).toBe(201);
  const widgetPackage = await addPackage(
    ((await viaGitlab.json()) as { id: string }).id,
    String(project.id),
    'acme/widget',
  );
  const gadgetPackage = await addPackage(
    ((await viaBitbucket.json()) as { id: string }).id,
    repository.uuid,
    'acme/gadget',
  );
  for (const pkg of [widgetPackage, gadgetPackage]) {
    const issued = await seller.client.post(`/api/repositories/${pkg.id}/temporary-licenses`, {
      email: 'holder@example.com',
      durationDays: 7,
    });
    expect(issued.status).toBe(201);
  }
});

afterAll(async () => {
  await app?.close();
  await gitlab?.close();
  await bitbucket?.close();
  if (workDir) await removeTempDir(workDir);
});

describe('the composer client', () => {
  it('installs a package read from GitLab and one read from Bitbucket, following the licence e-mail', async () => {
    const mail = readOutbox(app.dataDir).find((candidate) => TOKEN_PATTERN.test(candidate.body));
    expect(mail).toBeDefined();
    const commands = setupCommandsIn(mail!.body).filter((line) => !line.startsWith('composer require'));
    const projectDir = path.join(workDir, 'project');
    await mkdir(projectDir, { recursive: true });
    const manifest = { name: 'holder/project', type: 'project', repositories: { 'packagist.org': false }, require: {} };
    await writeFile(path.join(projectDir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
    const composer = (args: string[]) => runComposer(projectDir, args, { home: workDir, audit: false });
    for (const line of commands) {
      const run = await composer(line.split(' ').slice(1));
      expect(run.code, `${line}\n${run.output}`).toBe(0);
    }
    const run = await composer(['require', 'acme/widget:^1.0', 'acme/gadget:^2.0']);
    expect(run.code, run.output).toBe(0);
    const lock = JSON.parse(await readFile(path.join(projectDir, 'composer.lock'), 'utf8')) as {
      packages: Array<{ name: string; version: string }>;
    };
    expect(lock.packages.map((entry) => [entry.name, entry.version]).sort()).toEqual([
      ['acme/gadget', 'v2.0.0'],
      ['acme/widget', 'v1.1.0'],
    ]);
    const installed = JSON.parse(await readFile(path.join(projectDir, 'vendor/acme/gadget/composer.json'), 'utf8'));
    expect(installed.name).toBe('acme/gadget');
  });
});
