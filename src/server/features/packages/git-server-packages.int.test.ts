import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrant, createHolder } from '../../../../test/composer/repository-fixtures.js';
import { type FakeDns, startFakeDns } from '../../../../test/fakes/dns.js';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { startGitHttpServer } from '../../../../test/support/git-http-server.js';
import { gitServersAroundTests } from '../../../../test/support/git-servers.js';
import { requireAsHolder } from '../../../../test/support/holder-composer.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CodeHostOverview } from '../../../contract/code-hosts.js';
import type { CreatePackageResponse, PackageDetail } from '../../../contract/packages.js';

// Any git server by URL (issue 30 item 4) against real servers on loopback: git http-backend behind basic auth, and
// OpenSSH's sshd that lets in the deploy key Packgate generated. A license holder installs from each with the real
// composer; a wrong password, a changed host key, a private address and a hostile server are refused in words.

const credentials = { username: 'ci-reader', password: 'correct horse battery staple' };
const servers = gitServersAroundTests('packgate-git-servers-', credentials, async (repos) => {
  await createPackageRepository(path.join(repos, 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0', 'v1.1.0'],
    bare: true,
  });
  await createPackageRepository(path.join(repos, 'acme', 'gadget.git'), {
    name: 'acme/gadget',
    tags: ['v2.0.0'],
    bare: true,
  });
  await createPackageRepository(path.join(repos, 'team', 'toolkit-php.git'), {
    name: 'acme/toolkit',
    tags: ['v3.0.0'],
    bare: true,
  });
  for (const name of ['gizmo', 'sprocket']) {
    await createPackageRepository(path.join(repos, 'acme', `${name}.git`), {
      name: `acme/${name}`,
      tags: ['v0.1.0'],
      bare: true,
    });
  }
});
let app: TestApp;
let seller: SignedIn;

beforeAll(async () => {
  // The servers are on loopback: only the guard's own test turns the setting off.
  app = await startTestApp({ env: { CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' } });
  seller = await signInSeller(app, { slug: 'acme' });
  await giveTrial(app, seller.user.id);
});

afterAll(async () => {
  await app?.close();
});

async function detail(packageId: string): Promise<PackageDetail> {
  return (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
}

async function refresh(packageId: string): Promise<PackageDetail> {
  expect((await seller.client.post(`/api/repositories/${packageId}/refresh`)).status).toBe(202);
  await waitForSync(app, packageId);
  return detail(packageId);
}

/** A license holder of the package requires it with the real composer; answers the locked version. */
async function installWithComposer(packageId: string, name: string, constraint: string): Promise<string> {
  const holder = await createHolder(app, seller.user, `holder-${name.replace('/', '-')}@example.com`);
  await createGrant(app, holder, { id: packageId });
  const project = path.join(servers.workspace, `project-${name.replace('/', '-')}`);
  const home = path.join(servers.workspace, 'composer-home');
  const locked = await requireAsHolder(app, holder.token, { project, home }, `${name}:${constraint}`);
  return locked.find((entry) => entry.name === name)!.version;
}

describe('a git server over HTTPS with a user name and password', () => {
  it('refuses a wrong password in words, without storing anything or repeating it', async () => {
    const response = await seller.client.post('/api/repositories/from-url', {
      repositoryUrl: `${servers.http.url}/acme/widget.git`,
      credentials: { username: credentials.username, password: 'not-the-password-42' },
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain('refused the user name and password');
    expect(text).not.toContain('not-the-password-42');
    expect(await (await seller.client.get('/api/repositories')).json()).toEqual([]);
  });

  it('adds the package named by composer.json, syncs it and a holder installs it with composer', async () => {
    const response = await seller.client.post('/api/repositories/from-url', {
      repositoryUrl: `${servers.http.url}/acme/widget.git`,
      credentials,
    });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expect(text).not.toContain(credentials.password);
    const created = JSON.parse(text) as CreatePackageResponse;
    expect(created).toMatchObject({ packageName: 'acme/widget', codeHost: 'git', deployKey: null });
    expect(created.taskId).toEqual(expect.any(String));
    await waitForSync(app, created.id);
    const synced = await detail(created.id);
    expect(synced.syncStatus).toBe('ready');
    expect(synced.versions.map((version) => version.version).sort()).toEqual(['dev-main', 'v1.0.0', 'v1.1.0']);

    const codeHosts = await (await seller.client.get('/api/code-hosts')).text();
    expect(codeHosts).not.toContain(credentials.password);
    const overview = JSON.parse(codeHosts) as CodeHostOverview;
    expect(overview.connections).toContainEqual(
      expect.objectContaining({ kind: 'git', accountName: credentials.username, packageCount: 1 }),
    );

    expect(await installWithComposer(created.id, 'acme/widget', '^1.0')).toBe('v1.1.0');
  });
});

describe('a git server over SSH with a deploy key', () => {
  it('answers the deploy key, syncs once it is added, installs with composer, and refuses a changed host key', async () => {
    const response = await seller.client.post('/api/repositories/from-url', {
      repositoryUrl: servers.ssh.urlFor('acme/gadget.git'),
    });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expect(text).not.toContain('PRIVATE KEY');
    const created = JSON.parse(text) as CreatePackageResponse;
    expect(created).toMatchObject({
      packageName: 'acme/gadget',
      taskId: null,
      sshHostKeyFingerprint: servers.ssh.hostKeyFingerprint,
    });
    expect(created.deployKey).toMatch(/^ssh-ed25519 AAAA[A-Za-z0-9+/=]+ packgate acme\/gadget$/);

    const beforeKey = await refresh(created.id);
    expect(beforeKey.syncStatus).toBe('failed');
    expect(beforeKey.syncError).toContain("refused Packgate's deploy key");
    // Not a problem yet: the key was never added (the sync's error says what to do), so nobody is e-mailed.
    expect(beforeKey.accessProblem).toBeNull();
    // Renaming waits for the code too: the first sync takes composer.json's name again.
    const renamed = await seller.client.put(`/api/repositories/${created.id}`, { packageName: 'acme/gadget-tools' });
    expect(renamed.status).toBe(200);

    await servers.ssh.authorize(created.deployKey!);
    const synced = await refresh(created.id);
    expect(synced.syncStatus, synced.syncError ?? '').toBe('ready');
    expect(synced.versions.map((version) => version.version)).toContain('v2.0.0');
    expect(await installWithComposer(created.id, 'acme/gadget', '^2.0')).toBe('v2.0.0');

    await servers.ssh.replaceHostKey();
    const impersonated = await refresh(created.id);
    expect(impersonated.syncStatus).toBe('failed');
    expect(impersonated.syncError).toContain('is not the one pinned when the package was added');
    expect(impersonated.syncError).toContain(created.sshHostKeyFingerprint);
    // What was published stays published.
    expect(impersonated.versions.map((version) => version.version)).toContain('v2.0.0');
    // The package's own key is the problem, not the server's connection (other packages' keys may still work).
    expect(impersonated.accessProblem).toContain('is not the one pinned');
    const overview = (await (await seller.client.get('/api/code-hosts')).json()) as CodeHostOverview;
    expect(overview.connections.find((connection) => connection.label.endsWith('(SSH)'))?.status).toBe('active');
  });
});

describe('a package over SSH named by its URL', () => {
  it('takes the name composer.json declares at its first sync', async () => {
    const response = await seller.client.post('/api/repositories/from-url', {
      repositoryUrl: servers.ssh.urlFor('team/toolkit-php.git'),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as CreatePackageResponse;
    expect(created.packageName).toBe('team/toolkit-php');
    await servers.ssh.authorize(created.deployKey!);
    const synced = await refresh(created.id);
    expect(synced.syncStatus, synced.syncError ?? '').toBe('ready');
    expect(synced.packageName).toBe('acme/toolkit');
  });
});

describe('API v1', () => {
  async function post(token: string, body: unknown): Promise<Response> {
    return fetch(new URL('/api/v1/packages', app.baseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  it('creates packages from a git URL: over HTTPS named by composer.json, over SSH answering the deploy key', async () => {
    const created = await seller.client.post('/api/developer/tokens', {
      name: 'deploys',
      permissions: ['packages:read', 'packages:write'],
    });
    const { token } = (await created.json()) as { token: string };

    const https = await post(token, { repositoryUrl: `${servers.http.url}/acme/sprocket.git`, credentials });
    const httpsText = await https.text();
    expect(https.status, httpsText).toBe(201);
    expect(httpsText).not.toContain(credentials.password);
    expect(JSON.parse(httpsText).data).toMatchObject({ name: 'acme/sprocket', deployKey: null });

    const overSsh = await post(token, { repositoryUrl: servers.ssh.urlFor('acme/gizmo.git') });
    const sshText = await overSsh.text();
    expect(overSsh.status, sshText).toBe(201);
    expect(sshText).not.toContain('PRIVATE KEY');
    expect(JSON.parse(sshText).data).toMatchObject({
      name: 'acme/gizmo',
      deployKey: expect.stringMatching(/^ssh-ed25519 /),
      sshHostKeyFingerprint: servers.ssh.hostKeyFingerprint,
    });

    const both = await post(token, { githubRepoId: '1', repositoryUrl: servers.ssh.urlFor('acme/gizmo.git') });
    expect(both.status).toBe(400);
    expect(await both.text()).toContain('repositoryUrl');
  });
});

describe('the private-network guard and hostile servers', () => {
  let dns: FakeDns;

  beforeAll(async () => {
    dns = await startFakeDns();
    dns.records.set('git.internal.test', { a: '10.20.30.40' });
  });

  afterAll(async () => {
    app.ctx.config.codeHostAllowPrivateNetworks = true;
    app.ctx.config.dnsServers = undefined;
    await dns?.close();
  });

  it('refuses a URL whose name resolves to a private address, or that is a loopback address', async () => {
    app.ctx.config.codeHostAllowPrivateNetworks = false;
    app.ctx.config.dnsServers = [dns.server];
    try {
      for (const repositoryUrl of [
        'https://git.internal.test/acme/widget.git',
        `https://127.0.0.1:${servers.http.port}/acme/widget.git`,
      ]) {
        const response = await seller.client.post('/api/repositories/from-url', { repositoryUrl, credentials });
        expect(response.status).toBe(400);
        expect(await response.text()).toContain('private, loopback or link-local address');
      }
      const plain = await seller.client.post('/api/repositories/from-url', {
        repositoryUrl: `${servers.http.url}/acme/widget.git`,
      });
      expect(plain.status).toBe(400);
    } finally {
      app.ctx.config.codeHostAllowPrivateNetworks = true;
    }
  });

  it('follows no redirect (one could lead to a private address)', async () => {
    const redirecting = await startGitHttpServer(servers.workspace, {
      redirectTo: `${servers.http.url}/acme/widget.git/info/refs`,
    });
    try {
      const response = await seller.client.post('/api/repositories/from-url', {
        repositoryUrl: `${redirecting.url}/acme/other.git`,
        credentials,
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('redirect');
    } finally {
      await redirecting.close();
    }
  });

  it('refuses a server whose references never end, while other requests are answered', async () => {
    const hostile = await startGitHttpServer(servers.workspace, { hugeRefs: 400_000 });
    try {
      const [refused, listed] = await Promise.all([
        seller.client.post('/api/repositories/from-url', { repositoryUrl: `${hostile.url}/acme/endless.git` }),
        seller.client.get('/api/repositories'),
      ]);
      expect(listed.status).toBe(200);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('MB of tags and branches');
    } finally {
      await hostile.close();
    }
  });
});
