import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrant, createHolder, jsonOf, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { type FakeGitlab, type FakeGitlabProject, startFakeGitlab } from '../../../../test/fakes/gitlab.js';
import { addPackageFromDashboard } from '../../../../test/support/dashboard-packages.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../../../../test/support/git-fixtures.js';
import { readOutbox } from '../../../../test/support/outbox.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CodeHostOverview } from '../../../contract/code-hosts.js';
import type { PackageDetail } from '../../../contract/packages.js';
import { codeHostConnections, packages } from '../../db/schema/index.js';

// GitLab connections against a fake GitLab (OAuth with PKCE and rotating refresh tokens, API v4, git over HTTP):
// connecting through OAuth and with a pasted access token, a token renewed before it expires, a refused renewal
// that breaks the connection and tells the seller once while Composer keeps serving, and push webhooks.

const HOUR_MS = 60 * 60_000;

let gitlab: FakeGitlab;
let app: TestApp;
let workspace: string;
let project: FakeGitlabProject;
let seller: SignedIn;

async function connectThroughOAuth(signedIn: SignedIn): Promise<Response> {
  const start = await signedIn.client.get('/api/code-hosts/gitlab/authorize');
  expect(start.status).toBe(302);
  const atGitlab = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect(atGitlab.status).toBe(302);
  const back = new URL(atGitlab.headers.get('location')!);
  return signedIn.client.get(back.pathname + back.search);
}

async function gitlabConnection(ownerId: string) {
  const [row] = await app.ctx.db
    .select()
    .from(codeHostConnections)
    .where(eq(codeHostConnections.ownerId, ownerId))
    .limit(1);
  return row!;
}

async function addPackage(signedIn: SignedIn, connectionId: string, name: string): Promise<string> {
  const created = await addPackageFromDashboard(app, signedIn, {
    githubRepoId: String(project.id),
    connectionId,
    fullName: project.path,
    packageName: name,
    description: '',
    isActive: true,
  });
  return created.id;
}

async function refresh(signedIn: SignedIn, packageId: string): Promise<void> {
  const response = await signedIn.client.post(`/api/repositories/${packageId}/refresh`);
  expect(response.status).toBe(202);
  await waitForSync(app, packageId);
}

beforeAll(async () => {
  gitlab = await startFakeGitlab();
  app = await startTestApp({ env: { ...gitlab.env(), CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' } });
  workspace = await createTempDir('packgate-gitlab-');
  gitlab.addUser({ username: 'ada' });
  const repository = await createPackageRepository(path.join(workspace, 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0', 'v1.1.0'],
    branches: ['main'],
    bare: true,
  });
  project = gitlab.addProject({ path: 'acme/widget', members: ['ada'], gitDir: repository.dir });
  seller = await signInSeller(app, { email: 'ada@example.com' });
  await giveTrial(app, seller.user.id);
});

afterAll(async () => {
  await app?.close();
  await gitlab?.close();
  await removeTempDir(workspace);
});

describe('GitLab through OAuth', () => {
  let packageId: string;

  it('asks for read_api and read_repository only, with PKCE, and stores the tokens sealed', async () => {
    const start = await seller.client.get('/api/code-hosts/gitlab/authorize');
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('scope')).toBe('read_api read_repository');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

    gitlab.setApprovingUser('ada');
    const back = await connectThroughOAuth(seller);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/code-hosts?connected=gitlab');

    const overview = (await (await seller.client.get('/api/code-hosts')).json()) as CodeHostOverview;
    const connection = overview.connections.find((entry) => entry.kind === 'gitlab')!;
    expect(connection.label).toBe(`ada on ${new URL(gitlab.url).host}`);
    expect(connection.access).toContain('read_api, read_repository');
    expect(connection.status).toBe('active');
    const row = await gitlabConnection(seller.user.id);
    for (const issued of gitlab.issuedTokens()) {
      expect(row.secretEncrypted).not.toContain(issued);
      expect(row.refreshTokenEncrypted).not.toContain(issued);
    }
    expect(JSON.stringify(overview)).not.toMatch(/secret|refresh/i);
  });

  it('refuses a callback that this session did not start', async () => {
    const other = await signInSeller(app);
    const response = await other.client.get('/api/code-hosts/gitlab/callback?code=stolen&state=guessed');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/code-hosts\?error=/);
  });

  it('lists the projects the grant reads and adds one as a package', async () => {
    const connection = await gitlabConnection(seller.user.id);
    const listed = await seller.client.get(`/api/code-hosts/${connection.id}/repositories`);
    expect(await listed.json()).toEqual([
      {
        id: String(project.id),
        fullName: 'acme/widget',
        description: null,
        hasComposerJson: true,
        composerName: 'acme/widget',
      },
    ]);
    packageId = await addPackage(seller, connection.id, 'acme/widget');
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.syncStatus).toBe('ready');
    expect(detail.versions.map((version) => version.version).sort()).toEqual(['dev-main', 'v1.0.0', 'v1.1.0']);
  });

  it('renews the two-hour token before a sync and stores the rotated refresh token', async () => {
    const before = await gitlabConnection(seller.user.id);
    app.clock.advance(HOUR_MS + 55 * 60_000);
    gitlab.advanceClock(HOUR_MS + 55 * 60_000);
    await refresh(seller, packageId);
    const after = await gitlabConnection(seller.user.id);
    expect(gitlab.refreshesSeen()).toHaveLength(1);
    expect(after.refreshTokenEncrypted).not.toBe(before.refreshTokenEncrypted);
    expect(after.tokenExpiresAt!.getTime()).toBe(app.clock.now().getTime() + 2 * HOUR_MS);
    const [pkg] = await app.ctx.db.select().from(packages).where(eq(packages.id, packageId));
    expect(pkg!.syncStatus).toBe('ready');

    // The renewed token lasts: the next sync within its life renews nothing.
    app.clock.advance(30 * 60_000);
    gitlab.advanceClock(30 * 60_000);
    await refresh(seller, packageId);
    expect(gitlab.refreshesSeen()).toHaveLength(1);
  });

  it('breaks the connection when GitLab refuses the renewal, e-mails once, and Composer keeps serving', async () => {
    const holder = await createHolder(app, seller.user, 'holder-gl@example.com');
    await createGrant(app, holder, { id: packageId });
    gitlab.revokeUserAuthorizations('ada');
    app.clock.advance(2 * HOUR_MS);
    gitlab.advanceClock(2 * HOUR_MS);
    const mailsBefore = readOutbox(app.dataDir).length;
    for (let attempt = 0; attempt < 3; attempt++) await refresh(seller, packageId);

    const connection = await gitlabConnection(seller.user.id);
    expect(connection.status).toBe('broken');
    expect(connection.problem).toMatch(/GitLab refused to renew.*Connect GitLab again on Code hosts/);
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.accessProblem).toMatch(/Connect GitLab again on Code hosts/);
    expect(detail.accessProblem).toMatch(/still served/);
    const mails = readOutbox(app.dataDir).slice(mailsBefore);
    expect(mails.filter((mail) => mail.to === 'ada@example.com')).toHaveLength(1);
    expect(mails[0]!.subject).toContain('can no longer read your code');

    const served = await requestOnHost(app, app.ctx.config.composerDomain, '/p2/acme/widget.json', {
      token: holder.token,
    });
    expect(served.status).toBe(200);
    const versions = jsonOf<{ packages: Record<string, Array<{ version: string }>> }>(served).packages['acme/widget']!;
    expect(versions.map((version) => version.version).sort()).toEqual(['v1.0.0', 'v1.1.0']);
  });

  it('clears the problem when the seller connects again and the next sync works', async () => {
    gitlab.setApprovingUser('ada');
    const back = await connectThroughOAuth(seller);
    expect(back.headers.get('location')).toBe('/code-hosts?connected=gitlab');
    const rows = await app.ctx.db
      .select()
      .from(codeHostConnections)
      .where(eq(codeHostConnections.ownerId, seller.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('active');
    await refresh(seller, packageId);
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.accessProblem).toBeNull();
    expect(detail.syncStatus).toBe('ready');
  });
});

describe('GitLab with a pasted access token', () => {
  let tokenSeller: SignedIn;

  beforeAll(async () => {
    tokenSeller = await signInSeller(app, { email: 'grace@example.com' });
    await giveTrial(app, tokenSeller.user.id);
  });

  it('refuses a token GitLab does not accept, storing nothing', async () => {
    const response = await tokenSeller.client.post('/api/code-hosts/gitlab/token', { token: 'glpat-not-a-real-token' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/GitLab refused this token/);
    const rows = await app.ctx.db
      .select()
      .from(codeHostConnections)
      .where(eq(codeHostConnections.ownerId, tokenSeller.user.id));
    expect(rows).toEqual([]);
  });

  it('connects a project access token with its expiry, and a push webhook with the right token syncs', async () => {
    const token = gitlab.issueProjectAccessToken(project, {
      scopes: ['api', 'read_repository'],
      expiresOn: '2027-01-31',
    });
    const response = await tokenSeller.client.post('/api/code-hosts/gitlab/token', { token, baseUrl: gitlab.url });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const row = await gitlabConnection(tokenSeller.user.id);
    expect(row.tokenExpiresAt?.toISOString()).toBe('2027-01-31T00:00:00.000Z');
    expect(row.secretEncrypted).not.toContain(token);

    const packageId = await addPackage(tokenSeller, id, 'acme/widget');
    expect(project.hooks).toHaveLength(1);
    const wrong = await gitlab.deliverWebhook(project, 'Tag Push Hook', { token: 'not-the-secret' });
    expect(wrong.map((answer) => answer.status)).toEqual([401]);
    const right = await gitlab.deliverWebhook(project, 'Tag Push Hook', { eventUuid: 'event-1' });
    expect(right.map((answer) => answer.status)).toEqual([202]);
    const again = await gitlab.deliverWebhook(project, 'Tag Push Hook', { eventUuid: 'event-1' });
    expect(JSON.parse(again[0]!.body)).toMatchObject({ duplicate: true });
    await waitForSync(app, packageId);
  });
  it('adds a package from the GitLab connection through API v1, naming the connection', async () => {
    const tools = await createPackageRepository(path.join(workspace, 'acme', 'tools.git'), {
      name: 'acme/tools',
      tags: ['v0.1.0'],
      bare: true,
    });
    const toolsProject = gitlab.addProject({ path: 'acme/tools', members: [], gitDir: tools.dir });
    const token = gitlab.issueProjectAccessToken(toolsProject);
    const connected = await tokenSeller.client.post('/api/code-hosts/gitlab/token', { token });
    expect(connected.status).toBe(201);
    const { id: connectionId } = (await connected.json()) as { id: string };
    const apiToken = (await (
      await tokenSeller.client.post('/api/developer/tokens', { name: 'ci', permissions: ['packages:write'] })
    ).json()) as { token: string };
    const created = await fetch(`${app.baseUrl}/api/v1/packages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiToken.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ githubRepoId: String(toolsProject.id), connectionId, packageName: 'acme/tools' }),
    });
    const body = (await created.json()) as { data: { id: string; packageName: string } };
    expect(created.status, JSON.stringify(body)).toBe(201);
    await waitForSync(app, body.data.id);
    const [row] = await app.ctx.db.select().from(packages).where(eq(packages.id, body.data.id));
    expect(row).toMatchObject({ codeHost: 'gitlab', connectionId, syncStatus: 'ready' });
  });
});
