import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runComposer } from '../../../../test/composer/composer-cli.js';
import { createGrant, createHolder } from '../../../../test/composer/repository-fixtures.js';
import { type FakeGitHub, type FakeGithubRepo, startFakeGitHub } from '../../../../test/fakes/github.js';
import { attachGithubApp, type FakeGithubApp, type FakeInstallation } from '../../../../test/fakes/github-app.js';
import { addPackageFromDashboard } from '../../../../test/support/dashboard-packages.js';
import {
  createPackageRepository,
  createTempDir,
  type PackageRepository,
  removeTempDir,
} from '../../../../test/support/git-fixtures.js';
import { requireAsHolder } from '../../../../test/support/holder-composer.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CodeHostOverview, ConnectionRepository, GithubAppConnected } from '../../../contract/code-hosts.js';
import type { CreatePackageResponse, PackageDetail } from '../../../contract/packages.js';
import { codeHostConnections, grants, packages, users } from '../../db/schema/index.js';
import { encryptSecret } from '../../lib/crypto.js';

// The GitHub App (issue 30 item 1) against the fake GitHub: a seller installs it on the repositories they pick,
// Packgate verifies the installation before storing it, mints a one-hour installation token per sync (never stored),
// hears the App's webhook, and an old OAuth seller switches to it keeping their packages.

let github: FakeGitHub;
let githubApp: FakeGithubApp;
let app: TestApp;
let workspace: string;
let widget: PackageRepository;
let widgetRepo: FakeGithubRepo;
let gadgetRepo: FakeGithubRepo;
let seller: SignedIn;

async function installUrl(signedIn: SignedIn): Promise<URL> {
  const response = await signedIn.client.get('/api/code-hosts/github-app/install');
  expect(response.status).toBe(200);
  return new URL(((await response.json()) as { url: string }).url);
}

/** The seller clicks Install on Code hosts, picks repositories on GitHub, and comes back through the Setup URL. */
async function installAndConnect(signedIn: SignedIn, login: string, repos: FakeGithubRepo[]) {
  const state = (await installUrl(signedIn)).searchParams.get('state')!;
  const installation = githubApp.install(login, repos);
  const response = await signedIn.client.post('/api/code-hosts/github-app', {
    installationId: String(installation.id),
    state,
  });
  return { installation, response, body: (await response.json()) as GithubAppConnected & { message?: string } };
}

async function overview(signedIn: SignedIn): Promise<CodeHostOverview> {
  return (await (await signedIn.client.get('/api/code-hosts')).json()) as CodeHostOverview;
}

async function detail(signedIn: SignedIn, packageId: string): Promise<PackageDetail> {
  return (await (await signedIn.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
}

const webhookUrl = () => `${app.ctx.config.publicUrl}/api/webhooks/github-app`;

beforeAll(async () => {
  github = await startFakeGitHub();
  githubApp = attachGithubApp(github);
  app = await startTestApp({ env: { ...github.env(), ...githubApp.env() } });
  workspace = await createTempDir('packgate-github-app-');
  github.addUser({ login: 'acme' });
  widget = await createPackageRepository(path.join(workspace, 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0'],
    branches: ['main'],
    bare: true,
  });
  widgetRepo = github.addRepo({ owner: 'acme', name: 'widget', private: true, gitDir: widget.dir });
  gadgetRepo = github.addRepo({ owner: 'acme', name: 'gadget', files: { 'composer.json': '{"name":"acme/gadget"}' } });
  seller = await signInSeller(app, { slug: 'acme' });
  await giveTrial(app, seller.user.id);
});

afterAll(async () => {
  await app?.close();
  await github?.close();
  await removeTempDir(workspace);
});

describe('connecting the GitHub App', () => {
  it('sends the seller to the App’s install page with a state', async () => {
    const url = await installUrl(seller);
    expect(`${url.origin}${url.pathname}`).toBe(`${github.webUrl}/github-apps/${githubApp.slug}/installations/new`);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect((await overview(seller)).available.githubApp).toBe(true);
  });

  it('refuses an installation id that did not come back from this seller’s install', async () => {
    const other = await signInSeller(app);
    const state = (await installUrl(other)).searchParams.get('state')!;
    const installation = githubApp.install('acme', [widgetRepo]);
    const forged = await seller.client.post('/api/code-hosts/github-app', {
      installationId: String(installation.id),
      state,
    });
    expect(forged.status).toBe(400);
    // An installation made before the seller left for GitHub cannot be claimed with a fresh state.
    const old = githubApp.install('acme', [widgetRepo], {
      installedAt: new Date(app.clock.now().getTime() - 3 * 60 * 60_000),
    });
    const fresh = (await installUrl(seller)).searchParams.get('state')!;
    const claimed = await seller.client.post('/api/code-hosts/github-app', {
      installationId: String(old.id),
      state: fresh,
    });
    expect(claimed.status).toBe(400);
    const unknown = await seller.client.post('/api/code-hosts/github-app', {
      installationId: '999999999',
      state: fresh,
    });
    expect(unknown.status).toBe(400);
    expect((await overview(seller)).connections).toEqual([]);
  });
});

describe('a package through the GitHub App', () => {
  let installation: FakeInstallation;
  let connectionId: string;
  let created: CreatePackageResponse;

  beforeAll(async () => {
    const connected = await installAndConnect(seller, 'acme', [widgetRepo]);
    expect(connected.response.status).toBe(201);
    installation = connected.installation;
    connectionId = connected.body.connectionId;
  });

  it('is listed on Code hosts with the App’s permissions and no secret', async () => {
    const { connections } = await overview(seller);
    expect(connections).toEqual([
      expect.objectContaining({
        id: connectionId,
        kind: 'github_app',
        label: `acme on ${new URL(github.webUrl).host}`,
      }),
    ]);
    expect(connections[0]!.access).toMatch(/Contents read, Metadata read/);
    const [row] = await app.ctx.db.select().from(codeHostConnections).where(eq(codeHostConnections.id, connectionId));
    expect(row).toMatchObject({
      externalId: String(installation.id),
      secretEncrypted: null,
      authMethod: 'installation',
    });
  });

  it('lists the installation’s repositories live, a repository added on GitHub included', async () => {
    const list = async () =>
      (
        (await (
          await seller.client.get(`/api/code-hosts/${connectionId}/repositories`)
        ).json()) as ConnectionRepository[]
      ).map((repository) => repository.fullName);
    expect(await list()).toEqual(['acme/widget']);
    githubApp.setRepositories(installation, [widgetRepo, gadgetRepo]);
    expect(await list()).toEqual(['acme/gadget', 'acme/widget']);
  });

  it('adds a package and syncs it with an installation token that is never stored', async () => {
    created = await addPackageFromDashboard(app, seller, {
      githubRepoId: String(widgetRepo.id),
      connectionId,
      packageName: 'acme/widget',
    });
    const pkg = await detail(seller, created.id);
    expect(pkg).toMatchObject({ connectionId, codeHost: 'github', hasWebhook: false, accessProblem: null });
    expect(pkg.versions.map((version) => version.version)).toEqual(['dev-main', 'v1.0.0']);
    expect(githubApp.jwtRequests.some((request) => request.path.endsWith('/access_tokens') && request.valid)).toBe(
      true,
    );
    const minted = githubApp.mintedTokens();
    expect(minted.length).toBeGreaterThan(0);
    const stored = JSON.stringify([
      await app.ctx.db.select().from(codeHostConnections),
      await app.ctx.db.select().from(packages),
      await app.ctx.db.select().from(users),
    ]);
    for (const token of minted) expect(stored).not.toContain(token);
  });

  it('syncs a pushed tag on the App’s webhook, once per delivery', async () => {
    await widget.addTag('v1.1.0');
    const push = { ref: 'refs/tags/v1.1.0', repository: { id: widgetRepo.id, full_name: 'acme/widget' } };
    const delivery = await githubApp.deliver(webhookUrl(), 'push', installation, push);
    expect(delivery.status).toBe(202);
    await waitForSync(app, created.id);
    expect((await detail(seller, created.id)).versions.map((version) => version.version)).toContain('v1.1.0');
    const tagCreated = await githubApp.deliver(webhookUrl(), 'create', installation, {
      ref: 'v1.1.0',
      ref_type: 'tag',
      repository: push.repository,
    });
    expect(tagCreated.status).toBe(202);
    await waitForSync(app, created.id);
    const again = await githubApp.deliver(webhookUrl(), 'push', installation, push, {
      deliveryId: delivery.deliveryId,
    });
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true });
    const forged = await githubApp.deliver(webhookUrl(), 'push', installation, push, { secret: 'not-the-secret' });
    expect(forged.status).toBe(401);
  });

  it('follows a repository renamed, archived and unarchived on GitHub', async () => {
    const renamed = { action: 'renamed', repository: { id: widgetRepo.id, full_name: 'acme/widget-lib' } };
    expect((await githubApp.deliver(webhookUrl(), 'repository', installation, renamed)).status).toBe(200);
    expect((await detail(seller, created.id)).fullName).toBe('acme/widget-lib');
    const archived = { action: 'archived', repository: { id: widgetRepo.id, full_name: 'acme/widget-lib' } };
    await githubApp.deliver(webhookUrl(), 'repository', installation, archived);
    expect((await detail(seller, created.id)).accessProblem).toMatch(/archived on GitHub/);
    await githubApp.deliver(webhookUrl(), 'repository', installation, { ...archived, action: 'unarchived' });
    expect((await detail(seller, created.id)).accessProblem).toBeNull();
    await githubApp.deliver(webhookUrl(), 'repository', installation, {
      action: 'renamed',
      repository: { id: widgetRepo.id, full_name: 'acme/widget' },
    });
  });

  it('installs with the real composer', async () => {
    const holder = await createHolder(app, seller.user, 'app-holder@example.com');
    await createGrant(app, holder, { id: created.id });
    const home = path.join(workspace, 'composer-home');
    const project = path.join(workspace, 'project');
    const locked = await requireAsHolder(app, holder.token, { project, home }, 'acme/widget:^1.0');
    expect(locked[0]).toMatchObject({ name: 'acme/widget', version: 'v1.1.0' });
  });

  it('shows a repository taken out of the installation as the package’s access problem', async () => {
    githubApp.setRepositories(installation, [gadgetRepo]);
    await githubApp.deliver(webhookUrl(), 'installation_repositories', installation, {
      action: 'removed',
      repositories_removed: [{ id: widgetRepo.id, full_name: 'acme/widget' }],
      repositories_added: [],
    });
    expect((await detail(seller, created.id)).accessProblem).toMatch(/taken out of the GitHub App’s installation/);
    githubApp.setRepositories(installation, [widgetRepo, gadgetRepo]);
    await githubApp.deliver(webhookUrl(), 'installation_repositories', installation, {
      action: 'added',
      repositories_added: [{ id: widgetRepo.id, full_name: 'acme/widget' }],
      repositories_removed: [],
    });
    expect((await detail(seller, created.id)).accessProblem).toBeNull();
  });

  it('breaks the connection when the App is uninstalled, while Composer keeps serving', async () => {
    githubApp.uninstall(installation);
    const deleted = await githubApp.deliver(webhookUrl(), 'installation', installation, { action: 'deleted' });
    expect(deleted.status).toBe(200);
    const { connections } = await overview(seller);
    expect(connections[0]).toMatchObject({ status: 'broken', problem: expect.stringMatching(/uninstalled/) });
    const pkg = await detail(seller, created.id);
    expect(pkg.accessProblem).toMatch(/uninstalled/);
    expect(pkg.versions.map((version) => version.version)).toContain('v1.1.0');
    const refresh = await seller.client.post(`/api/repositories/${created.id}/refresh`);
    expect(refresh.status).toBe(202);
    await waitForSync(app, created.id);
    expect((await detail(seller, created.id)).versions.map((version) => version.version)).toContain('v1.1.0');
    const run = await runComposer(path.join(workspace, 'project'), ['update', '--no-cache'], {
      home: path.join(workspace, 'composer-home'),
      audit: false,
    });
    expect(run.code, run.output).toBe(0);
  });
});

describe('switching from the OAuth grant to the App', () => {
  it('moves the seller’s GitHub packages to the App, keeping them, and the old grant can be removed', async () => {
    const oldSeller = await signInSeller(app, { githubUsername: 'octo' });
    github.addUser({ login: 'octo' });
    await giveTrial(app, oldSeller.user.id);
    const library = await createPackageRepository(path.join(workspace, 'octo', 'library.git'), {
      name: 'octo/library',
      tags: ['v2.0.0'],
      bare: true,
    });
    const libraryRepo = github.addRepo({ owner: 'octo', name: 'library', gitDir: library.dir });
    await app.ctx.db
      .update(users)
      .set({
        githubAccessTokenEncrypted: encryptSecret(app.ctx.config.secretKey, github.issueToken('octo')),
        githubScopes: 'repo,read:user',
      })
      .where(eq(users.id, oldSeller.user.id));
    const { id: packageId } = await addPackageFromDashboard(app, oldSeller, {
      githubRepoId: String(libraryRepo.id),
      packageName: 'octo/library',
    });
    const before = await detail(oldSeller, packageId);
    const holder = await createHolder(app, oldSeller.user, 'library-holder@example.com');
    const license = await createGrant(app, holder, { id: packageId }, { downloadCount: 3 });
    const oauth = (await overview(oldSeller)).connections.find((connection) => connection.kind === 'github_oauth')!;
    expect(oauth.access).toContain('repo');
    expect(before).toMatchObject({ connectionId: oauth.id, hasWebhook: true });

    const { body } = await installAndConnect(oldSeller, 'octo', [libraryRepo]);
    expect(body.movedPackages).toEqual(['octo/library']);
    // The grant's per-repository webhook goes: the App's webhook hears the repository now.
    expect(libraryRepo.hooks).toEqual([]);
    const removed = await oldSeller.client.delete(`/api/code-hosts/${oauth.id}`);
    expect(removed.status).toBe(200);
    const after = await detail(oldSeller, packageId);
    expect(after).toMatchObject({
      id: packageId,
      connectionId: body.connectionId,
      accessProblem: null,
      hasWebhook: false,
    });
    expect(after.versions).toEqual(before.versions);
    const [kept] = await app.ctx.db.select().from(grants).where(eq(grants.id, license.id));
    expect(kept).toMatchObject({ packageId, downloadCount: 3, status: 'active' });
    expect((await overview(oldSeller)).connections.map((connection) => connection.kind)).toEqual(['github_app']);
    const refresh = await oldSeller.client.post(`/api/repositories/${packageId}/refresh`);
    expect(refresh.status).toBe(202);
    await waitForSync(app, packageId);
    expect((await detail(oldSeller, packageId)).syncStatus).toBe('ready');
  });
});
