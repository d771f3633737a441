import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBitbucket, startFakeBitbucket } from '../../../../test/fakes/bitbucket.js';
import { type FakeGitlab, type FakeGitlabProject, startFakeGitlab } from '../../../../test/fakes/gitlab.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../../../../test/support/git-fixtures.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CodeHostConnection, ConnectionRepository } from '../../../contract/code-hosts.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import { codeHostConnections, packages } from '../../db/schema/index.js';

// API v1's code hosts against a fake GitLab and a fake Bitbucket Cloud: a seller's tooling connects each with an
// access token, lists the connections and a connection's repositories, adds a package from one, and removes it; a
// token the host refuses stores nothing, and a token without packages:write may not connect.

type Answer<T> = { status: number; body: { success: boolean; data: T; error?: string; message?: string } };

let gitlab: FakeGitlab;
let bitbucket: FakeBitbucket;
let app: TestApp;
let workspace: string;
let project: FakeGitlabProject;
let seller: SignedIn;
let writeToken: string;

async function apiToken(permissions: string[]): Promise<string> {
  const issued = await seller.client.post('/api/developer/tokens', { name: permissions.join(' '), permissions });
  expect(issued.status).toBe(201);
  return ((await issued.json()) as CreatedApiToken).token;
}

async function callApi<T>(method: string, route: string, body?: unknown, token = writeToken): Promise<Answer<T>> {
  const response = await fetch(`${app.baseUrl}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer<T>['body'] };
}

async function storedConnections() {
  return app.ctx.db.select().from(codeHostConnections).where(eq(codeHostConnections.ownerId, seller.user.id));
}

beforeAll(async () => {
  gitlab = await startFakeGitlab();
  bitbucket = await startFakeBitbucket();
  app = await startTestApp({
    env: { ...gitlab.env(), ...bitbucket.env(), CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' },
  });
  workspace = await createTempDir('packgate-code-hosts-v1-');
  const repository = await createPackageRepository(path.join(workspace, 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0'],
    bare: true,
  });
  project = gitlab.addProject({ path: 'acme/widget', members: [], gitDir: repository.dir });
  bitbucket.addRepository({ workspace: 'acme', slug: 'gadget' });
  seller = await signInSeller(app, { email: 'ci@example.com' });
  await giveTrial(app, seller.user.id);
  writeToken = await apiToken(['packages:read', 'packages:write']);
});

afterAll(async () => {
  await app?.close();
  await gitlab?.close();
  await bitbucket?.close();
  await removeTempDir(workspace);
});

describe('API v1 code hosts', () => {
  it('refuses a GitLab token GitLab does not accept, in the error shape, storing nothing', async () => {
    const answer = await callApi('POST', '/code-hosts/gitlab', { token: 'glpat-not-a-real-token' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, status: 400, message: expect.stringMatching(/GitLab/) });
    expect(JSON.stringify(answer.body)).not.toContain('glpat-not-a-real-token');
    expect(await storedConnections()).toEqual([]);
  });

  it('refuses a token without packages:write with 403, storing nothing', async () => {
    const readOnly = await apiToken(['packages:read']);
    const token = gitlab.issueProjectAccessToken(project);
    const answer = await callApi('POST', '/code-hosts/gitlab', { token, baseUrl: gitlab.url }, readOnly);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toContain('packages:write');
    expect(await storedConnections()).toEqual([]);
  });

  it('connects GitLab with a token, lists it without the token, lists its repositories and adds a package', async () => {
    const token = gitlab.issueProjectAccessToken(project);
    const connected = await callApi<CodeHostConnection>('POST', '/code-hosts/gitlab', { token, baseUrl: gitlab.url });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    const connection = connected.body.data;
    expect(connection).toMatchObject({ kind: 'gitlab', status: 'active', packageCount: 0 });
    expect(JSON.stringify(connected.body)).not.toContain(token);

    const listed = await callApi<CodeHostConnection[]>('GET', '/code-hosts');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((entry) => entry.id)).toEqual([connection.id]);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    const [row] = await storedConnections();
    expect(row!.secretEncrypted).not.toContain(token);

    const repositories = await callApi<ConnectionRepository[]>('GET', `/code-hosts/${connection.id}/repositories`);
    expect(repositories.status).toBe(200);
    expect(repositories.body.data).toEqual([
      expect.objectContaining({ id: String(project.id), fullName: 'acme/widget', composerName: 'acme/widget' }),
    ]);

    const created = await callApi<{ id: string }>('POST', '/packages', {
      githubRepoId: String(project.id),
      connectionId: connection.id,
      packageName: 'acme/widget',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await waitForSync(app, created.body.data.id);
    const [stored] = await app.ctx.db.select().from(packages).where(eq(packages.id, created.body.data.id));
    expect(stored).toMatchObject({ codeHost: 'gitlab', connectionId: connection.id, syncStatus: 'ready' });
    const after = await callApi<CodeHostConnection[]>('GET', '/code-hosts');
    expect(after.body.data[0]?.packageCount).toBe(1);
  });

  it('connects Bitbucket Cloud with a workspace token, lists it, and removes it', async () => {
    const token = bitbucket.issueAccessToken({ workspace: 'acme' });
    const connected = await callApi<CodeHostConnection>('POST', '/code-hosts/bitbucket', { workspace: 'acme', token });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    expect(connected.body.data).toMatchObject({ kind: 'bitbucket', label: 'acme workspace on Bitbucket' });
    const id = connected.body.data.id;

    const listed = await callApi<CodeHostConnection[]>('GET', '/code-hosts');
    expect(listed.body.data.map((entry) => entry.kind).sort()).toEqual(['bitbucket', 'gitlab']);
    const repositories = await callApi<ConnectionRepository[]>('GET', `/code-hosts/${id}/repositories`);
    expect(repositories.body.data.map((repository) => repository.fullName)).toEqual(['acme/gadget']);

    const removed = await callApi<{ id: string; deleted: boolean }>('DELETE', `/code-hosts/${id}`);
    expect(removed).toMatchObject({ status: 200, body: { data: { id, deleted: true } } });
    expect((await storedConnections()).map((row) => row.kind)).toEqual(['gitlab']);
    const again = await callApi('DELETE', `/code-hosts/${id}`);
    expect(again.status).toBe(404);
  });

  it("answers 404 for another seller's connection", async () => {
    const other = await signInSeller(app, { email: 'other@example.com' });
    const issued = await other.client.post('/api/developer/tokens', { name: 'other', permissions: ['*'] });
    const otherToken = ((await issued.json()) as CreatedApiToken).token;
    const [row] = await storedConnections();
    const answer = await callApi('GET', `/code-hosts/${row!.id}/repositories`, undefined, otherToken);
    expect(answer.status).toBe(404);
    expect((await callApi('DELETE', `/code-hosts/${row!.id}`, undefined, otherToken)).status).toBe(404);
  });
});
