import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitHub, type FakeGithubRepo, startFakeGitHub } from '../../../../test/fakes/github.js';
import {
  createPackageRepository,
  createTempDir,
  type PackageRepository,
  removeTempDir,
} from '../../../../test/support/git-fixtures.js';
import { giveTrial, waitForSync, watchTasks } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CodeHostRepository, CreatePackageResponse, PackageDetail } from '../../../contract/packages.js';
import { packages, tasks, users } from '../../db/schema/index.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';

// The packages feature against a fake GitHub that follows the public REST API, serves git over smart HTTP
// for its private repositories and delivers signed webhooks.

let github: FakeGitHub;
let app: TestApp;
let workspace: string;
let widget: PackageRepository;
let widgetRepo: FakeGithubRepo;
let seller: SignedIn;
let token: string;

async function connectGithub(signedIn: SignedIn, accessToken: string | null): Promise<void> {
  await app.ctx.db
    .update(users)
    .set({
      githubAccessTokenEncrypted: accessToken ? encryptSecret(app.ctx.config.secretKey, accessToken) : null,
    })
    .where(eq(users.id, signedIn.user.id));
}

async function createFrom(signedIn: SignedIn, repo: FakeGithubRepo, packageName: string) {
  const response = await signedIn.client.post('/api/repositories', {
    githubRepoId: String(repo.id),
    fullName: `${repo.owner}/${repo.name}`,
    packageName,
    description: '',
    isActive: true,
  });
  return { response, body: (await response.json()) as CreatePackageResponse & { message?: string } };
}

async function versionsOf(packageId: string): Promise<string[]> {
  const response = await seller.client.get(`/api/repositories/${packageId}`);
  return ((await response.json()) as PackageDetail).versions.map((version) => version.version);
}

const pushPayload = (repo: FakeGithubRepo, ref: string) => ({
  ref,
  before: '0'.repeat(40),
  after: 'f'.repeat(40),
  repository: { id: repo.id, full_name: `${repo.owner}/${repo.name}`, private: repo.private },
  pusher: { name: repo.owner },
});

beforeAll(async () => {
  github = await startFakeGitHub();
  app = await startTestApp({ env: github.env() });
  workspace = await createTempDir('packgate-github-');
  github.addUser({ login: 'octo' });
  token = github.issueToken('octo');
  widget = await createPackageRepository(path.join(workspace, 'octo', 'widget.git'), {
    name: 'octo/widget',
    description: 'Private widgets',
    tags: ['v1.0.0', 'v1.1.0'],
    branches: ['main'],
    bare: true,
  });
  widgetRepo = github.addRepo({
    owner: 'octo',
    name: 'widget',
    private: true,
    description: 'Private widgets',
    gitDir: widget.dir,
  });
  seller = await signInSeller(app, { githubUsername: 'octo' });
  await connectGithub(seller, token);
  await giveTrial(app, seller.user.id);
});

afterAll(async () => {
  await app?.close();
  await github?.close();
  await removeTempDir(workspace);
});

describe('GET /api/github/repositories with GitHub', () => {
  beforeAll(() => {
    for (let index = 0; index < 104; index++) {
      github.addRepo({
        owner: 'octo',
        name: `library-${String(index).padStart(3, '0')}`,
        files: index % 2 === 0 ? { 'composer.json': `{"name": "octo/library-${index}"}` } : {},
      });
    }
  });

  it('lists every repository across pages, with composer.json checked per repository', async () => {
    const response = await seller.client.get('/api/github/repositories');
    expect(response.status).toBe(200);
    const repositories = (await response.json()) as CodeHostRepository[];
    expect(repositories).toHaveLength(105);
    expect(repositories[0]).toEqual({
      githubId: expect.any(String),
      fullName: 'octo/library-000',
      description: null,
      hasComposerJson: true,
      composerName: 'octo/library-0',
    });
    expect(repositories.find((repository) => repository.fullName === 'octo/library-001')?.hasComposerJson).toBe(false);
    expect(repositories.find((repository) => repository.fullName === 'octo/widget')).toEqual({
      githubId: String(widgetRepo.id),
      fullName: 'octo/widget',
      description: 'Private widgets',
      hasComposerJson: true,
      composerName: 'octo/widget',
    });
    const listCalls = github.requests.filter((request) => request.path.startsWith('/api/v3/user/repos'));
    expect(listCalls).toHaveLength(2);
    const firstPage = new URL(listCalls[0]!.path, github.webUrl).searchParams;
    expect(firstPage.get('affiliation')).toBe('owner,collaborator,organization_member');
    expect(firstPage.get('per_page')).toBe('100');
    expect(new URL(listCalls[1]!.path, github.webUrl).searchParams.get('page')).toBe('2');
  });

  it('does not ask GitHub about composer.json again for repositories not pushed since', async () => {
    const contentCalls = () => github.requests.filter((request) => request.path.includes('/contents/')).length;
    const before = contentCalls();
    const response = await seller.client.get('/api/github/repositories');
    expect(response.status).toBe(200);
    expect(contentCalls()).toBe(before);
  });

  it('turns GitHub’s rate limit into 429 with the reset time', async () => {
    const resetAt = new Date(Math.ceil((Date.now() + 30 * 60_000) / 1000) * 1000);
    github.setRateLimit({ kind: 'primary', resetAt });
    try {
      const response = await seller.client.get('/api/github/repositories');
      expect(response.status).toBe(429);
      const body = (await response.json()) as { error: string; message: string };
      expect(body.error).toBe('GitHub Rate Limit Reached');
      expect(body.message).toContain(resetAt.toISOString());
      expect(body.message).toMatch(/^GitHub's API rate limit is exhausted; it resets at \d\d:\d\d UTC/);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);

      const creation = await createFrom(seller, widgetRepo, 'octo/widget');
      expect(creation.response.status).toBe(429);

      github.setRateLimit({ kind: 'secondary', retryAfterSeconds: 60 });
      const secondary = await seller.client.get('/api/github/repositories');
      expect(secondary.status).toBe(429);
      expect(secondary.headers.get('retry-after')).toBe('60');
    } finally {
      github.setRateLimit(null);
    }
  });

  it('asks the seller to reconnect GitHub when the token is refused or missing', async () => {
    const revoked = await signInSeller(app);
    await connectGithub(revoked, 'gho_revoked_token');
    const refused = await revoked.client.get('/api/github/repositories');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'GitHub refused the stored access token. Reconnect GitHub to list and sync your repositories.',
    );

    const notConnected = await signInSeller(app);
    const missing = await notConnected.client.get('/api/github/repositories');
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { message: string }).message).toMatch(/^GitHub is not connected to this account/);
  });
});

describe('a package from a private GitHub repository', () => {
  let created: CreatePackageResponse;

  beforeAll(async () => {
    const result = await createFrom(seller, widgetRepo, 'octo/widget');
    expect(result.response.status).toBe(201);
    created = result.body;
    await waitForSync(app, created.id);
  });

  it('is cloned over HTTP with the seller’s token and gets its versions', async () => {
    expect(created).toMatchObject({ codeHost: 'github', githubRepoId: String(widgetRepo.id), hasWebhook: true });
    expect(await versionsOf(created.id)).toEqual(['dev-main', 'v1.1.0', 'v1.0.0']);
    const gitCalls = github.requests.filter((request) => request.path.startsWith('/octo/widget.git/'));
    expect(gitCalls.length).toBeGreaterThan(0);
    const authorized = gitCalls.filter((request) => request.headers.authorization);
    expect(authorized.length).toBeGreaterThan(0);
    for (const request of authorized) {
      const credentials = Buffer.from(request.headers.authorization!.replace(/^Basic /, ''), 'base64').toString();
      expect(credentials).toBe(`x-access-token:${token}`);
    }
  });

  it('registers a push webhook with a secret kept encrypted', async () => {
    expect(widgetRepo.hooks).toHaveLength(1);
    const hook = widgetRepo.hooks[0]!;
    expect(hook.config).toMatchObject({
      url: `${app.ctx.config.publicUrl}/api/webhooks/github`,
      content_type: 'json',
      insecure_ssl: '0',
    });
    expect(hook.events).toEqual(expect.arrayContaining(['push']));
    const [row] = await app.ctx.db.select().from(packages).where(eq(packages.id, created.id));
    expect(row!.webhookId).toBe(String(hook.id));
    expect(row!.webhookSecretEncrypted).not.toContain(hook.config.secret!);
    expect(decryptSecret(app.ctx.config.secretKey, row!.webhookSecretEncrypted!)).toBe(hook.config.secret);
  });

  it('syncs on a push delivered with a good signature, and the owner watches it', async () => {
    const watcher = await watchTasks(app, seller);
    try {
      const released = await widget.addTag('v2.0.0');
      const [delivery] = await github.deliverWebhook(widgetRepo, 'push', pushPayload(widgetRepo, 'refs/tags/v2.0.0'));
      expect(delivery!.status).toBe(202);
      const { taskIds } = JSON.parse(delivery!.body) as { taskIds: string[] };
      expect(taskIds).toHaveLength(1);
      await waitForSync(app, created.id);
      expect(await versionsOf(created.id)).toEqual(['dev-main', 'v2.0.0', 'v1.1.0', 'v1.0.0']);
      const detail = (await (await seller.client.get(`/api/repositories/${created.id}`)).json()) as PackageDetail;
      expect(detail.versions.find((version) => version.version === 'v2.0.0')!.commit).toBe(released.commit);
      expect(watcher.events.filter((event) => event.taskId === taskIds[0]).at(-1)?.status).toBe('completed');
    } finally {
      watcher.close();
    }
  });

  it('refuses a delivery with a bad signature or none', async () => {
    const [delivery] = await github.deliverWebhook(widgetRepo, 'push', pushPayload(widgetRepo, 'refs/heads/main'), {
      secret: 'not-the-secret',
    });
    expect(delivery!.status).toBe(401);
    expect(JSON.parse(delivery!.body)).toMatchObject({ status: 401, message: 'The webhook signature does not match.' });

    const unsigned = await fetch(`${app.baseUrl}/api/webhooks/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'unsigned' },
      body: JSON.stringify(pushPayload(widgetRepo, 'refs/heads/main')),
    });
    expect(unsigned.status).toBe(401);
  });

  it('does nothing new for a repeated delivery', async () => {
    const syncTasks = async () =>
      (await app.ctx.db.select().from(tasks).where(eq(tasks.userId, seller.user.id))).filter(
        (task) => task.type === 'github-sync',
      ).length;
    const deliveryId = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
    const [first] = await github.deliverWebhook(widgetRepo, 'push', pushPayload(widgetRepo, 'refs/heads/main'), {
      deliveryId,
    });
    expect(first!.status).toBe(202);
    await waitForSync(app, created.id);
    const afterFirst = await syncTasks();

    const [again] = await github.deliverWebhook(widgetRepo, 'push', pushPayload(widgetRepo, 'refs/heads/main'), {
      deliveryId,
    });
    expect(again!.status).toBe(200);
    expect(JSON.parse(again!.body)).toEqual({ received: true, event: 'push', duplicate: true });
    await waitForSync(app, created.id);
    expect(await syncTasks()).toBe(afterFirst);
  });

  it('answers a ping', async () => {
    const [delivery] = await github.deliverWebhook(widgetRepo, 'ping', {
      zen: 'Keep it logically awesome.',
      hook_id: widgetRepo.hooks[0]!.id,
      repository: { id: widgetRepo.id, full_name: 'octo/widget' },
    });
    expect(delivery!.status).toBe(200);
    expect(JSON.parse(delivery!.body)).toMatchObject({ received: true, event: 'ping' });
  });

  it('removes the webhook when the package is deleted', async () => {
    const response = await seller.client.delete(`/api/repositories/${created.id}`);
    expect(response.status).toBe(200);
    expect(widgetRepo.hooks).toEqual([]);
  });
});

describe('when GitHub refuses the webhook', () => {
  it('still creates the package, which is then refreshed by hand', async () => {
    const gadget = await createPackageRepository(path.join(workspace, 'octo', 'gadget.git'), {
      name: 'octo/gadget',
      tags: ['v0.1.0'],
      bare: true,
    });
    const gadgetRepo = github.addRepo({ owner: 'octo', name: 'gadget', gitDir: gadget.dir });
    github.setRefuseHooks(true);
    try {
      const { response, body } = await createFrom(seller, gadgetRepo, 'octo/gadget');
      expect(response.status).toBe(201);
      expect(body.hasWebhook).toBe(false);
      await waitForSync(app, body.id);
      expect(await versionsOf(body.id)).toEqual(['dev-main', 'v0.1.0']);
      const [row] = await app.ctx.db.select().from(packages).where(eq(packages.id, body.id));
      expect(row!.webhookSecretEncrypted).toBeNull();
    } finally {
      github.setRefuseHooks(false);
    }
  });

  it('refuses a repository the seller cannot see', async () => {
    github.addUser({ login: 'stranger' });
    const hidden = github.addRepo({ owner: 'stranger', name: 'secret', files: { 'composer.json': '{}' } });
    const { response } = await createFrom(seller, hidden, 'stranger/secret');
    expect(response.status).toBe(404);
  });
});
