import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrant, createHolder, jsonOf, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import {
  type FakeBitbucket,
  type FakeBitbucketRepository,
  startFakeBitbucket,
} from '../../../../test/fakes/bitbucket.js';
import { addPackageFromDashboard } from '../../../../test/support/dashboard-packages.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../../../../test/support/git-fixtures.js';
import { readOutbox } from '../../../../test/support/outbox.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CachedPackage } from '../../../contract/admin.js';
import type { CodeHostOverview } from '../../../contract/code-hosts.js';
import type { PackageDetail } from '../../../contract/packages.js';
import { codeHostConnections } from '../../db/schema/index.js';

// Bitbucket Cloud connections against a fake Bitbucket (API 2.0, access tokens, git over HTTP, signed webhooks):
// a workspace token connected after Bitbucket accepts it, app passwords refused with the date they ended, push
// webhooks checked by their signature, and a revoked token seen on Management, the admin's cache screen and in
// one e-mail, while Composer keeps serving what was published.

let bitbucket: FakeBitbucket;
let app: TestApp;
let workspaceDir: string;
let repository: FakeBitbucketRepository;
let seller: SignedIn;
let token: string;
let connectionId: string;
let packageId: string;

async function refresh(packageIdToSync: string): Promise<void> {
  const response = await seller.client.post(`/api/repositories/${packageIdToSync}/refresh`);
  expect(response.status).toBe(202);
  await waitForSync(app, packageIdToSync);
}

beforeAll(async () => {
  bitbucket = await startFakeBitbucket();
  app = await startTestApp({ env: { ...bitbucket.env(), CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' } });
  workspaceDir = await createTempDir('packgate-bitbucket-');
  const repo = await createPackageRepository(path.join(workspaceDir, 'acme', 'gadget.git'), {
    name: 'acme/gadget',
    tags: ['v2.0.0'],
    branches: ['main'],
    bare: true,
  });
  repository = bitbucket.addRepository({ workspace: 'acme', slug: 'gadget', gitDir: repo.dir });
  bitbucket.addRepository({ workspace: 'acme', slug: 'notes' });
  seller = await signInSeller(app, { email: 'bea@example.com' });
  await giveTrial(app, seller.user.id);
  token = bitbucket.issueAccessToken({ workspace: 'acme' });
});

afterAll(async () => {
  await app?.close();
  await bitbucket?.close();
  await removeTempDir(workspaceDir);
});

describe('Bitbucket Cloud', () => {
  it('refuses an app password, saying that Bitbucket ended them', async () => {
    const response = await seller.client.post('/api/code-hosts/bitbucket', {
      workspace: 'acme',
      username: 'bea',
      token: 'ATBB0123456789abcdef',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/app passwords.*2026-06-09/);
  });

  it('refuses a token Bitbucket does not accept, storing nothing', async () => {
    const response = await seller.client.post('/api/code-hosts/bitbucket', {
      workspace: 'acme',
      token: 'ATCTT-wrong-token',
    });
    expect(response.status).toBe(400);
    const rows = await app.ctx.db
      .select()
      .from(codeHostConnections)
      .where(eq(codeHostConnections.ownerId, seller.user.id));
    expect(rows).toEqual([]);
  });

  it('connects a workspace access token and lists its repositories', async () => {
    const response = await seller.client.post('/api/code-hosts/bitbucket', { workspace: 'acme', token });
    expect(response.status).toBe(201);
    connectionId = ((await response.json()) as { id: string }).id;
    const overview = (await (await seller.client.get('/api/code-hosts')).json()) as CodeHostOverview;
    expect(overview.available.bitbucket).toBe(true);
    const connection = overview.connections.find((entry) => entry.id === connectionId)!;
    expect(connection.label).toBe('acme workspace on Bitbucket');
    expect(connection.access).toContain('every repository of the workspace acme');
    const [row] = await app.ctx.db.select().from(codeHostConnections).where(eq(codeHostConnections.id, connectionId));
    expect(row!.secretEncrypted).not.toContain(token);

    const listed = await seller.client.get(`/api/code-hosts/${connectionId}/repositories`);
    expect(await listed.json()).toEqual([
      {
        id: repository.uuid,
        fullName: 'acme/gadget',
        description: null,
        hasComposerJson: true,
        composerName: 'acme/gadget',
      },
      { id: expect.any(String), fullName: 'acme/notes', description: null, hasComposerJson: false, composerName: null },
    ]);
  });

  it('adds a package, clones it with the token, and syncs on a push signed with its secret only', async () => {
    const created = await addPackageFromDashboard(app, seller, {
      githubRepoId: repository.uuid,
      connectionId,
      fullName: 'acme/gadget',
      packageName: 'acme/gadget',
      description: '',
      isActive: true,
    });
    packageId = created.id;
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.versions.map((version) => version.version).sort()).toEqual(['dev-main', 'v2.0.0']);
    expect(repository.hooks).toHaveLength(1);
    expect(repository.hooks[0]!.events).toEqual(['repo:push']);

    const forged = await bitbucket.deliverPush(repository, { secret: 'someone-else' });
    expect(forged.map((answer) => answer.status)).toEqual([401]);
    const signed = await bitbucket.deliverPush(repository, { requestUuid: 'request-1' });
    expect(signed.map((answer) => answer.status)).toEqual([202]);
    const repeated = await bitbucket.deliverPush(repository, { requestUuid: 'request-1' });
    expect(JSON.parse(repeated[0]!.body)).toMatchObject({ duplicate: true });
    await waitForSync(app, packageId);
  });

  it('shows a revoked token on Management and the cache screen, e-mails once, and keeps serving', async () => {
    const holder = await createHolder(app, seller.user, 'holder-bb@example.com');
    await createGrant(app, holder, { id: packageId });
    bitbucket.revokeToken(token);
    const mailsBefore = readOutbox(app.dataDir).length;
    // Add Package meets the refusal first and says so (a GET changes nothing: the syncs below record it).
    const listing = await seller.client.get(`/api/code-hosts/${connectionId}/repositories`);
    expect(listing.status).toBe(401);
    for (let attempt = 0; attempt < 3; attempt++) await refresh(packageId);

    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.syncStatus).toBe('failed');
    expect(detail.accessProblem).toMatch(
      /Bitbucket refused the stored credential.*Connect Bitbucket again on Code hosts/,
    );
    const overview = (await (await seller.client.get('/api/code-hosts')).json()) as CodeHostOverview;
    expect(overview.connections.find((entry) => entry.id === connectionId)).toMatchObject({ status: 'broken' });
    const mails = readOutbox(app.dataDir)
      .slice(mailsBefore)
      .filter((mail) => mail.to === 'bea@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('acme workspace on Bitbucket');

    const admin = await signInAdmin(app);
    const cached = (await (await admin.client.get('/api/admin/cache/packages')).json()) as CachedPackage[];
    expect(cached.find((entry) => entry.id === packageId)?.accessProblem).toMatch(/Connect Bitbucket again/);

    const served = await requestOnHost(app, app.ctx.config.composerDomain, '/p2/acme/gadget.json', {
      token: holder.token,
    });
    expect(served.status).toBe(200);
    const versions = jsonOf<{ packages: Record<string, Array<{ version: string }>> }>(served).packages['acme/gadget']!;
    expect(versions.map((version) => version.version)).toEqual(['v2.0.0']);
  });

  it('clears the problem once a new token for the same workspace works', async () => {
    const renewed = bitbucket.issueAccessToken({ workspace: 'acme' });
    const response = await seller.client.post('/api/code-hosts/bitbucket', { workspace: 'acme', token: renewed });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { id: string }).id).toBe(connectionId);
    await refresh(packageId);
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.accessProblem).toBeNull();
    expect(detail.syncStatus).toBe('ready');
  });
  it('shows a deleted repository on its package and e-mails once, while the connection keeps working', async () => {
    const mailsBefore = readOutbox(app.dataDir).length;
    bitbucket.removeRepository(repository);
    for (let attempt = 0; attempt < 3; attempt++) await refresh(packageId);
    const detail = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
    expect(detail.accessProblem).toMatch(/Bitbucket no longer shows the repository acme\/gadget/);
    expect(detail.versions.map((version) => version.version).sort()).toEqual(['dev-main', 'v2.0.0']);
    const mails = readOutbox(app.dataDir)
      .slice(mailsBefore)
      .filter((mail) => mail.to === 'bea@example.com');
    expect(mails.map((mail) => mail.subject)).toEqual(['Packgate can no longer read the code of acme/gadget']);
    const [row] = await app.ctx.db.select().from(codeHostConnections).where(eq(codeHostConnections.id, connectionId));
    expect(row!.status).toBe('active');
  });
});
