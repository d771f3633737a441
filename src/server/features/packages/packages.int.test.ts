import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageRepository, type PackageRepository } from '../../../../test/support/git-fixtures.js';
import {
  giveExpiredTrial,
  giveTrial,
  readStored,
  sha1Hex,
  waitForSync,
  watchTasks,
  withoutTopFolder,
  zipFiles,
} from '../../../../test/support/packages.js';
import { type SignedIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CreatePackageResponse, Package, PackageDetail } from '../../../contract/packages.js';
import type { TaskProgressEvent } from '../../../contract/realtime.js';
import { jobs, tasks } from '../../db/schema/index.js';
import { distKeyFor } from './package-dists.js';
import { syncPackage } from './package-sync.js';

// The packages feature over HTTP with the embedded code host: git repositories in DATA_DIR/repos.

let app: TestApp;
let reposDir: string;
let widget: PackageRepository;
let sellerA: SignedIn;
let sellerB: SignedIn;

async function createPackage(signedIn: SignedIn, body: Record<string, unknown>) {
  const response = await signedIn.client.post('/api/repositories', { description: '', isActive: true, ...body });
  return { response, body: (await response.json()) as CreatePackageResponse & { message?: string } };
}

/** Polls the job's row until it reaches one of the statuses; throws at the bound. */
async function waitForJobStatus(jobId: string, statuses: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await app.ctx.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, jobId));
    if (job && statuses.includes(job.status)) return;
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not reach ${statuses.join(' or ')} in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function detail(signedIn: SignedIn, id: string): Promise<PackageDetail> {
  const response = await signedIn.client.get(`/api/repositories/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as PackageDetail;
}

beforeAll(async () => {
  app = await startTestApp();
  // The local code host reads GIT_REPOS_DIR, which defaults to DATA_DIR/repos.
  reposDir = path.join(app.dataDir, 'repos');
  expect(app.ctx.config.gitReposDir).toBe(reposDir);
  widget = await createPackageRepository(path.join(reposDir, 'acme', 'widget.git'), {
    name: 'acme/widget',
    description: 'Widgets for every shop',
    tags: ['v1.0.0', { name: 'v1.1.0', annotated: true }, 'not-a-version'],
    branches: ['main'],
    bare: true,
  });
  await createPackageRepository(path.join(reposDir, 'acme', 'notes'), {
    name: 'acme/notes',
    withoutComposerJson: true,
  });
  for (const name of ['gadget', 'tool', 'sprocket', 'doomed']) {
    await createPackageRepository(path.join(reposDir, 'acme', `${name}.git`), {
      name: `acme/${name}`,
      tags: ['v0.1.0'],
      bare: true,
    });
  }
  sellerA = await signInSeller(app);
  sellerB = await signInSeller(app);
  await giveTrial(app, sellerA.user.id);
  await giveTrial(app, sellerB.user.id);
});

afterAll(async () => {
  await app?.close();
});

describe('GET /api/github/repositories', () => {
  it('lists the code host’s repositories, saying which have a composer.json', async () => {
    const response = await sellerA.client.get('/api/github/repositories');
    expect(response.status).toBe(200);
    const repositories = (await response.json()) as Array<Record<string, unknown>>;
    expect(repositories).toContainEqual({
      githubId: 'acme/widget.git',
      fullName: 'acme/widget',
      description: 'Widgets for every shop',
      hasComposerJson: true,
      composerName: 'acme/widget',
    });
    expect(repositories).toContainEqual({
      githubId: 'acme/notes',
      fullName: 'acme/notes',
      description: null,
      hasComposerJson: false,
      composerName: null,
    });
  });

  it('needs a signed-in user', async () => {
    const response = await fetch(`${app.baseUrl}/api/github/repositories`);
    expect(response.status).toBe(401);
  });
});

describe('creating a package', () => {
  let created: CreatePackageResponse;

  beforeAll(async () => {
    const result = await createPackage(sellerA, {
      githubRepoId: 'acme/widget.git',
      fullName: 'acme/widget',
      packageName: 'acme/widget',
      description: 'Widgets',
    });
    expect(result.response.status).toBe(201);
    created = result.body;
    await waitForSync(app, created.id);
  });

  it('answers the package and the task of its first sync', () => {
    expect(created).toMatchObject({
      packageName: 'acme/widget',
      description: 'Widgets',
      isActive: true,
      fullName: 'acme/widget',
      githubRepoId: 'acme/widget.git',
      codeHost: 'local',
      createdAt: app.clock.now().toISOString(),
      syncStatus: 'pending',
      hasWebhook: false,
    });
    expect(created.taskId).toEqual(expect.any(String));
  });

  it('publishes the tags and branches by Composer’s rules and reports the invalid tag', async () => {
    const pkg = await detail(sellerA, created.id);
    expect(pkg.syncStatus).toBe('ready');
    expect(pkg.syncError).toBeNull();
    expect(pkg.versionCount).toBe(3);
    expect(pkg.versions.map((version) => [version.version, version.kind, version.commit])).toEqual([
      ['dev-main', 'branch', widget.revisions.main!.commit],
      ['v1.1.0', 'tag', widget.revisions['v1.1.0']!.commit],
      ['v1.0.0', 'tag', widget.revisions['v1.0.0']!.commit],
    ]);
    expect(pkg.versions.find((version) => version.version === 'v1.1.0')).toMatchObject({
      normalizedVersion: '1.1.0.0',
      releasedAt: widget.revisions['v1.1.0']!.time.toISOString(),
    });
    expect(pkg.skippedReferences).toEqual([
      { reference: 'not-a-version', reason: 'invalid tag name: not a version Composer understands' },
    ]);
  });

  it('stores a zip per version whose SHA-1 matches and whose files are exactly the tag’s', async () => {
    const pkg = await detail(sellerA, created.id);
    for (const version of pkg.versions) {
      expect(version.isCached, version.version).toBe(true);
      const zip = await readStored(app, distKeyFor(created.id, version.commit));
      expect(zip, version.version).toBeDefined();
      expect(sha1Hex(zip!)).toBe(version.distSha1);
      expect(zip!.length).toBe(version.distSize);
      const reference = version.kind === 'tag' ? version.reference : 'main';
      expect(withoutTopFolder(await zipFiles(zip!))).toEqual(widget.revisions[reference]!.files);
    }
  });

  it('lists the seller’s packages newest first', async () => {
    app.clock.advance(1000);
    const second = await createPackage(sellerA, { githubRepoId: 'acme/tool.git', packageName: 'acme/tool' });
    expect(second.response.status).toBe(201);
    await waitForSync(app, second.body.id);
    const response = await sellerA.client.get('/api/repositories');
    expect(response.status).toBe(200);
    const list = (await response.json()) as Package[];
    const ids = list.map((pkg) => pkg.id);
    expect(ids.indexOf(second.body.id)).toBeLessThan(ids.indexOf(created.id));
    expect(list.find((pkg) => pkg.id === created.id)).toMatchObject({ versionCount: 3, syncStatus: 'ready' });
  });

  it('publishes a new tag after a refresh, and drops the zip of the commit the branch left', async () => {
    const oldMain = widget.revisions.main!.commit;
    const before = await detail(sellerA, created.id);
    const released = await widget.addTag('v1.2.0');
    app.clock.advance(60_000);

    const response = await sellerA.client.post(`/api/repositories/${created.id}/refresh`);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ taskId: expect.any(String) });
    await waitForSync(app, created.id);

    const after = await detail(sellerA, created.id);
    expect(after.versions.map((version) => [version.version, version.commit])).toEqual([
      ['dev-main', released.commit],
      ['v1.2.0', released.commit],
      ['v1.1.0', widget.revisions['v1.1.0']!.commit],
      ['v1.0.0', widget.revisions['v1.0.0']!.commit],
    ]);
    expect(after.metadataUpdatedAt).not.toBe(before.metadataUpdatedAt);
    expect(after.versions.every((version) => version.isCached)).toBe(true);
    // The tag and the branch share a commit, and so one zip.
    expect(after.versions[0]!.distSha1).toBe(after.versions[1]!.distSha1);
    expect(await app.ctx.storage.head(distKeyFor(created.id, oldMain))).toBeUndefined();
    const zip = await readStored(app, distKeyFor(created.id, released.commit));
    expect(withoutTopFolder(await zipFiles(zip!))).toEqual(released.files);
  });

  it('leaves the metadata time alone when a refresh finds nothing new', async () => {
    const before = await detail(sellerA, created.id);
    app.clock.advance(60_000);
    await sellerA.client.post(`/api/repositories/${created.id}/refresh`);
    await waitForSync(app, created.id);
    const after = await detail(sellerA, created.id);
    expect(after.metadataUpdatedAt).toBe(before.metadataUpdatedAt);
    expect(after.lastSyncedAt).not.toBe(before.lastSyncedAt);
  });

  it('runs one sync per package at a time: a request during a sync queues one more, later ones join it', async () => {
    // The runner claims nothing while paused, which lines the requests up without racing it.
    app.ctx.jobs.pause();
    const first = await syncPackage(app.ctx, created.id, { userId: sellerA.user.id });
    const joining = await syncPackage(app.ctx, created.id, { userId: sellerA.user.id });
    expect(joining.taskId).toBe(first.taskId);
    app.ctx.jobs.resume();
    await waitForJobStatus(first.jobId, ['running', 'completed']);
    app.ctx.jobs.pause();
    const second = await syncPackage(app.ctx, created.id, { userId: sellerA.user.id });
    const third = await syncPackage(app.ctx, created.id, { userId: sellerA.user.id });
    app.ctx.jobs.resume();
    expect(second.taskId).not.toBe(first.taskId);
    expect(third.taskId).toBe(second.taskId);
    const [firstOutcome, secondOutcome] = await Promise.all([first.done, second.done]);
    expect(firstOutcome).toMatchObject({ status: 'ready', versionCount: 4 });
    expect(secondOutcome).toMatchObject({ status: 'ready', versionCount: 4, changed: false });
    const [queuedTask] = await app.ctx.db.select().from(tasks).where(eq(tasks.id, second.taskId));
    expect(queuedTask).toMatchObject({ status: 'completed' });
  });

  it('builds a zip again on demand once the cache and the mirror are gone', async () => {
    const { ensureDist, listPackageVersions } = await import('./packages.service.js');
    await app.ctx.storage.deletePrefix(`dists/${created.id}/`);
    await rm(path.join(app.dataDir, 'mirrors', `${created.id}.git`), { recursive: true, force: true });
    const [version] = (await listPackageVersions(app.ctx, created.id)).filter((row) => row.version === 'v1.0.0');
    const cached = await ensureDist(app.ctx, version!);
    expect(cached.distSha1).toBe(version!.distSha1);
    const zip = await readStored(app, cached.distKey);
    expect(sha1Hex(zip!)).toBe(cached.distSha1);
  });
});

describe('task progress', () => {
  it('reaches the owner’s socket: started, progress, completed with one taskId per task', async () => {
    const watcher = await watchTasks(app, sellerA);
    const other = await watchTasks(app, sellerB);
    try {
      const { response, body } = await createPackage(sellerA, {
        githubRepoId: 'acme/gadget.git',
        packageName: 'acme/gadget',
      });
      expect(response.status).toBe(201);
      await waitForSync(app, body.id);
      await watcher.next((event) => event.taskId === body.taskId && event.status === 'completed');
      await watcher.next((event) => event.type === 'package-pre-cache' && event.status === 'completed');

      const sync = watcher.events.filter((event) => event.taskId === body.taskId);
      expect(sync.map((event) => event.status)).toEqual(['started', 'progress', 'progress', 'progress', 'completed']);
      expect(sync.every((event) => event.type === 'github-sync')).toBe(true);
      // The type stays github-sync on the wire; the screens name the sync after the code host that ran it.
      expect(sync[0]?.data).toMatchObject({ codeHost: 'local' });
      expect(sync.at(-1)).toMatchObject({ progress: 100, message: 'Synced acme/gadget: 2 versions' });
      const progress = sync.map((event) => event.progress);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);

      const preCache = watcher.events.filter((event) => event.type === 'package-pre-cache');
      const preCacheTask = preCache.at(-1)!.taskId;
      const statuses = preCache.filter((event) => event.taskId === preCacheTask).map((event) => event.status);
      expect(statuses[0]).toBe('started');
      expect(statuses.at(-1)).toBe('completed');
      // Events reach a socket in order: once a later event for B arrives, none of A's went to B before it.
      const forB: TaskProgressEvent = { ...sync.at(-1)!, taskId: 'for-b', message: 'Synced acme/b' };
      app.ctx.realtime.sendToUser(sellerB.user.id, 'task-progress', forB);
      await other.next((event) => event.taskId === 'for-b');
      expect(other.events).toEqual([forB]);

      const recent = await sellerA.client.get('/api/tasks');
      const tasks = (await recent.json()) as TaskProgressEvent[];
      expect(tasks.find((task) => task.taskId === body.taskId)).toMatchObject({ status: 'completed', progress: 100 });
      const othersTasks = (await (await sellerB.client.get('/api/tasks')).json()) as TaskProgressEvent[];
      expect(othersTasks.find((task) => task.taskId === body.taskId)).toBeUndefined();
    } finally {
      watcher.close();
      other.close();
    }
  });

  it('records a failed sync on the package and in the task', async () => {
    const { body } = await createPackage(sellerA, { githubRepoId: 'acme/doomed.git', packageName: 'acme/doomed' });
    await waitForSync(app, body.id);
    await rm(path.join(reposDir, 'acme', 'doomed.git'), { recursive: true, force: true });

    const response = await sellerA.client.post(`/api/repositories/${body.id}/refresh`);
    expect(response.status).toBe(202);
    const { taskId } = (await response.json()) as { taskId: string };
    await waitForSync(app, body.id);

    const pkg = await detail(sellerA, body.id);
    expect(pkg.syncStatus).toBe('failed');
    expect(pkg.syncError).toMatch(/not found/i);
    // What was published before stays published.
    expect(pkg.versions.map((version) => version.version)).toEqual(['dev-main', 'v0.1.0']);
    const tasks = (await (await sellerA.client.get('/api/tasks')).json()) as TaskProgressEvent[];
    expect(tasks.find((task) => task.taskId === taskId)).toMatchObject({ status: 'failed', message: pkg.syncError });
  });
});

describe('tenancy', () => {
  let packageOfA: Package;

  beforeAll(async () => {
    const list = (await (await sellerA.client.get('/api/repositories')).json()) as Package[];
    packageOfA = list.find((pkg) => pkg.packageName === 'acme/widget')!;
  });

  it('answers 404 to another seller on every package route', async () => {
    const id = packageOfA.id;
    const attempts = [
      sellerB.client.get(`/api/repositories/${id}`),
      sellerB.client.put(`/api/repositories/${id}`, { description: 'taken over', isActive: false }),
      sellerB.client.post(`/api/repositories/${id}/refresh`),
      sellerB.client.delete(`/api/repositories/${id}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: 'Not Found',
        message: 'Package not found',
        status: 404,
        code: 'NOT_FOUND',
        requestId: response.headers.get('x-request-id'),
      });
    }
    const unchanged = await detail(sellerA, id);
    expect(unchanged).toMatchObject({ description: 'Widgets', isActive: true });
  });

  it('answers unknown and malformed ids with 404 too', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
      expect((await sellerA.client.get(`/api/repositories/${id}`)).status).toBe(404);
      expect((await sellerA.client.put(`/api/repositories/${id}`, { isActive: false })).status).toBe(404);
    }
  });

  it('never lists another seller’s packages', async () => {
    const listOfB = (await (await sellerB.client.get('/api/repositories')).json()) as Package[];
    expect(listOfB.map((pkg) => pkg.id)).not.toContain(packageOfA.id);
    // B may add the same repository under the same name: names are unique per seller.
    const { response, body } = await createPackage(sellerB, {
      githubRepoId: 'acme/widget.git',
      packageName: 'acme/widget',
    });
    expect(response.status).toBe(201);
    await waitForSync(app, body.id);
    const listOfA = (await (await sellerA.client.get('/api/repositories')).json()) as Package[];
    expect(listOfA.map((pkg) => pkg.id)).not.toContain(body.id);
  });

  it('lets an admin keep packages of their own', async () => {
    const admin = await signInAdmin(app);
    const { response, body } = await createPackage(admin, { githubRepoId: 'acme/tool.git', packageName: 'acme/tool' });
    expect(response.status).toBe(201);
    await waitForSync(app, body.id);
    const list = (await (await admin.client.get('/api/repositories')).json()) as Package[];
    expect(list.map((pkg) => pkg.id)).toEqual([body.id]);
    expect((await admin.client.get(`/api/repositories/${packageOfA.id}`)).status).toBe(404);
  });
});

describe('refusals', () => {
  it('refuses a seller whose trial has expired, or who has no plan yet', async () => {
    const expired = await signInSeller(app);
    await giveExpiredTrial(app, expired.user.id);
    const noPlan = await signInSeller(app);
    for (const seller of [expired, noPlan]) {
      const { response, body } = await createPackage(seller, {
        githubRepoId: 'acme/sprocket.git',
        packageName: 'acme/sprocket',
      });
      expect(response.status).toBe(403);
      expect(body.message).toBe('An active subscription or free trial is required for this action.');
    }
  });

  it('refuses names Composer would not accept', async () => {
    for (const packageName of [
      'Acme/Sprocket',
      'acme',
      'acme/sprocket/extra',
      '-acme/sprocket',
      'acme/sprocket-',
      'acme/spr ocket',
      'acme/spr---ocket',
      '',
    ]) {
      const { response } = await createPackage(sellerA, { githubRepoId: 'acme/sprocket.git', packageName });
      expect(response.status, packageName).toBe(400);
    }
  });

  it('refuses a name that differs from the repository’s composer.json', async () => {
    const { response, body } = await createPackage(sellerA, {
      githubRepoId: 'acme/sprocket.git',
      packageName: 'acme/cog',
    });
    expect(response.status).toBe(400);
    expect(body.message).toBe(
      'The composer.json of acme/sprocket names the package "acme/sprocket", not "acme/cog"; Composer would refuse the mismatch.',
    );
  });

  it('refuses a repository without composer.json, and one that does not exist', async () => {
    const withoutManifest = await createPackage(sellerA, { githubRepoId: 'acme/notes', packageName: 'acme/notes' });
    expect(withoutManifest.response.status).toBe(400);
    expect(withoutManifest.body.message).toBe('acme/notes has no composer.json on main.');
    const missing = await createPackage(sellerA, { githubRepoId: 'acme/missing.git', packageName: 'acme/missing' });
    expect(missing.response.status).toBe(404);
  });

  it('answers 409 to a duplicate name or repository', async () => {
    const sameName = await createPackage(sellerA, { githubRepoId: 'acme/sprocket.git', packageName: 'acme/widget' });
    expect(sameName.response.status).toBe(409);
    expect(sameName.body.message).toBe('You already have a package named acme/widget.');
    const sameRepository = await createPackage(sellerA, { githubRepoId: 'acme/widget.git', packageName: 'acme/other' });
    expect(sameRepository.response.status).toBe(409);
  });

  it('holds a seller to the plan’s package limit', async () => {
    const starter = await signInSeller(app);
    await giveTrial(app, starter.user.id, 'starter');
    for (const name of ['widget', 'gadget', 'tool']) {
      const { response, body } = await createPackage(starter, {
        githubRepoId: `acme/${name}.git`,
        packageName: `acme/${name}`,
      });
      expect(response.status).toBe(201);
      await waitForSync(app, body.id);
    }
    const fourth = await createPackage(starter, { githubRepoId: 'acme/sprocket.git', packageName: 'acme/sprocket' });
    expect(fourth.response.status).toBe(403);
    expect(fourth.body.message).toBe('Your Starter plan allows 3 packages.');
  });

  it('lets only one of several simultaneous creations take the last place in the plan', async () => {
    const starter = await signInSeller(app);
    await giveTrial(app, starter.user.id, 'starter');
    for (const name of ['widget', 'gadget']) {
      const { body } = await createPackage(starter, { githubRepoId: `acme/${name}.git`, packageName: `acme/${name}` });
      await waitForSync(app, body.id);
    }
    const racers = ['race-one', 'race-two', 'race-three'];
    for (const name of racers) {
      await createPackageRepository(path.join(reposDir, 'acme', `${name}.git`), {
        name: `acme/${name}`,
        tags: ['v0.1.0'],
        bare: true,
      });
    }
    const racing = await Promise.all(
      racers.map((name) => createPackage(starter, { githubRepoId: `acme/${name}.git`, packageName: `acme/${name}` })),
    );
    const statuses = racing.map(({ response }) => response.status).sort();
    expect(statuses).toEqual([201, 403, 403]);
    for (const { response, body } of racing) if (response.status === 201) await waitForSync(app, body.id);
    const listed = await starter.client.get('/api/repositories');
    expect(((await listed.json()) as unknown[]).length).toBe(3);
  });
});

describe('editing and deleting', () => {
  let pkg: CreatePackageResponse;

  beforeAll(async () => {
    const { body } = await createPackage(sellerB, { githubRepoId: 'acme/sprocket.git', packageName: 'acme/sprocket' });
    pkg = body;
    await waitForSync(app, pkg.id);
  });

  it('updates the description and the active switch, and checks a new name', async () => {
    app.clock.advance(1000);
    const response = await sellerB.client.put(`/api/repositories/${pkg.id}`, {
      packageName: 'acme/sprocket',
      description: 'Sprockets, refined',
      isActive: false,
    });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as Package;
    expect(updated).toMatchObject({ description: 'Sprockets, refined', isActive: false, versionCount: 2 });
    expect(updated.metadataUpdatedAt).not.toBe(pkg.metadataUpdatedAt);

    const renamed = await sellerB.client.put(`/api/repositories/${pkg.id}`, { packageName: 'acme/cog' });
    expect(renamed.status).toBe(400);
    const invalid = await sellerB.client.put(`/api/repositories/${pkg.id}`, { packageName: 'Not A Name' });
    expect(invalid.status).toBe(400);
  });

  it('deletes the package with its mirror folder and its zips', async () => {
    const mirror = path.join(app.dataDir, 'mirrors', `${pkg.id}.git`);
    const versions = (await detail(sellerB, pkg.id)).versions;
    expect(existsSync(mirror)).toBe(true);
    expect(await app.ctx.storage.totalSize(`dists/${pkg.id}/`)).toBeGreaterThan(0);

    const response = await sellerB.client.delete(`/api/repositories/${pkg.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, id: pkg.id });

    expect(existsSync(mirror)).toBe(false);
    expect(await app.ctx.storage.totalSize(`dists/${pkg.id}/`)).toBe(0);
    for (const version of versions) {
      expect(await app.ctx.storage.head(distKeyFor(pkg.id, version.commit))).toBeUndefined();
    }
    expect((await sellerB.client.get(`/api/repositories/${pkg.id}`)).status).toBe(404);
    expect((await sellerB.client.delete(`/api/repositories/${pkg.id}`)).status).toBe(404);
  });
});
