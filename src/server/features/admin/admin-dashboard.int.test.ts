import { rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrant, createHolder, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { addPackageFromDashboard } from '../../../../test/support/dashboard-packages.js';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { TestClient } from '../../../../test/support/http-client.js';
import {
  giveExpiredTrial,
  giveTrial,
  readStored,
  sha1Hex,
  type WatchedSocket,
  watchTasks,
} from '../../../../test/support/packages.js';
import { createTestUser, type SignedIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type {
  AdminStats,
  AdminUserListItem,
  CachedPackage,
  CacheRefreshAllResponse,
  CacheStats,
  CacheTaskResponse,
} from '../../../contract/admin.js';
import type { TaskProgressEvent } from '../../../contract/realtime.js';
import { BILLING_OFF_REVENUE_NOTE } from '../../../contract/sales.js';
import { packageVersions, platformSubscriptions } from '../../db/schema/index.js';
import { formatBytes } from './cache.service.js';

// The admin Overview figures, the Users tab's subscription columns and the cache panel over HTTP, with the
// embedded code host (git repositories in DATA_DIR/repos) and the admin's socket watching the cache tasks.

let app: TestApp;
let admin: SignedIn;
let seller: SignedIn;
let widgetId: string;
let gadgetId: string;

async function createPackage(name: string, isActive: boolean): Promise<string> {
  const created = await addPackageFromDashboard(app, seller, {
    githubRepoId: `${name}.git`,
    fullName: name,
    packageName: name,
    description: '',
    isActive,
  });
  return created.id;
}

async function getJson<T>(client: TestClient, url: string): Promise<T> {
  const response = await client.get(url);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

function waitForTaskEnd(watched: WatchedSocket, taskId: string): Promise<TaskProgressEvent> {
  return watched.next(
    (event) => event.taskId === taskId && (event.status === 'completed' || event.status === 'failed'),
  );
}

beforeAll(async () => {
  app = await startTestApp();
  const reposDir = path.join(app.dataDir, 'repos');
  await createPackageRepository(path.join(reposDir, 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0', 'v1.1.0'],
    branches: ['main'],
    bare: true,
  });
  await createPackageRepository(path.join(reposDir, 'acme', 'gadget.git'), {
    name: 'acme/gadget',
    tags: ['v0.1.0'],
    bare: true,
  });
  admin = await signInAdmin(app);
  seller = await signInSeller(app, { slug: 'acme' });
  await giveTrial(app, seller.user.id);
  widgetId = await createPackage('acme/widget', true);
  gadgetId = await createPackage('acme/gadget', false);
});

afterAll(async () => {
  await app?.close();
});

describe('GET /api/admin/stats', () => {
  it('counts users and active packages, and no revenue from plan list prices while billing is off', async () => {
    const paying = await createTestUser(app);
    const payingToo = await createTestUser(app);
    const lapsed = await createTestUser(app);
    await createTestUser(app); // no plan at all
    await app.ctx.db.insert(platformSubscriptions).values([
      { userId: paying.id, status: 'active', tierId: 'growth' },
      { userId: payingToo.id, status: 'active', tierId: 'scale' },
      { userId: lapsed.id, status: 'inactive', tierId: 'enterprise' },
    ]);
    // A purchase grant given by hand is no sale: no money moved.
    const holder = await createHolder(app, seller.user, 'buyer@example.com');
    await createGrant(app, holder, { id: widgetId }, { kind: 'purchase' });

    const stats = await getJson<AdminStats>(admin.client, '/api/admin/stats');
    expect(stats).toMatchObject({
      totalUsers: 6, // admin, seller and the four above
      activePackages: 1, // gadget is inactive
      platformRevenue: 0, // active plans activated without a charge are not revenue
      totalSales: 0,
      billingOff: true,
      revenueNote: BILLING_OFF_REVENUE_NOTE,
      recentTransactions: [],
    });
  });
});

describe('GET /api/admin/users', () => {
  it('carries each account’s subscription status, tier and selected tier', async () => {
    const trialing = await createTestUser(app);
    await giveTrial(app, trialing.id, 'starter');
    const expired = await createTestUser(app);
    await giveExpiredTrial(app, expired.id, 'growth');
    const subscribed = await createTestUser(app);
    await app.ctx.db.insert(platformSubscriptions).values({ userId: subscribed.id, status: 'active', tierId: 'scale' });
    const choosing = await createTestUser(app, { selectedTier: 'growth' });

    const list = await getJson<AdminUserListItem[]>(admin.client, '/api/admin/users');
    const row = (id: string) => list.find((entry) => entry.id === id);
    expect(row(trialing.id)).toMatchObject({ subscriptionStatus: 'trial', tier: 'starter', selectedTier: 'starter' });
    expect(row(expired.id)).toMatchObject({ subscriptionStatus: 'trial_expired', tier: 'growth' });
    expect(row(subscribed.id)).toMatchObject({ subscriptionStatus: 'active', tier: 'scale', selectedTier: 'scale' });
    expect(row(choosing.id)).toMatchObject({
      subscriptionStatus: 'tier_selection_required',
      tier: null,
      selectedTier: 'growth',
    });
    expect(row(admin.user.id)).toMatchObject({ userType: 'admin', subscriptionStatus: 'active', tier: null });
  });
});

describe('cache panel', () => {
  it('shows the zips built by a sync', async () => {
    const stats = await getJson<CacheStats>(admin.client, '/api/admin/cache/stats');
    const stored = await app.ctx.storage.totalSize('dists/');
    expect(stored).toBeGreaterThan(0);
    expect(stats.totalPackages).toBe(2);
    expect(stats.cachedPackages).toBeGreaterThanOrEqual(1);
    expect(stats.cacheSize).not.toBe('0 B');
    expect(stats.lastUpdated).toBe(app.clock.now().toISOString());

    const list = await getJson<CachedPackage[]>(admin.client, '/api/admin/cache/packages');
    expect(list.map((entry) => entry.packageName)).toEqual(['acme/gadget', 'acme/widget']);
    const widget = list.find((entry) => entry.id === widgetId)!;
    expect(widget).toEqual({
      id: widgetId,
      packageName: 'acme/widget',
      isActive: true,
      isCached: true,
      cacheSize: expect.stringMatching(/^\d+(\.\d)? (B|KB|MB)$/),
      lastCached: app.clock.now().toISOString(),
      // The code host reads this package's code: no access problem to show.
      accessProblem: null,
    });
    expect(list.find((entry) => entry.id === gadgetId)).toMatchObject({ packageName: 'acme/gadget', isActive: false });
  });

  it('refreshes every active package in a cache-refresh task the admin watches', async () => {
    const watched = await watchTasks(app, admin);
    try {
      const response = await admin.client.post('/api/admin/cache/refresh-all');
      expect(response.status).toBe(200);
      const body = (await response.json()) as CacheRefreshAllResponse;
      expect(body.packageCount).toBe(1);

      const end = await waitForTaskEnd(watched, body.taskId);
      expect(end).toMatchObject({ type: 'cache-refresh', status: 'completed', progress: 100 });
      expect(end.message).toBe('Refreshed 1 package');
      const ofTask = watched.events.filter((event) => event.taskId === body.taskId);
      expect(ofTask[0]).toMatchObject({ status: 'started', progress: 0 });
      expect(ofTask.some((event) => event.status === 'progress')).toBe(true);
      // The sync it ran reported to the admin too.
      expect(watched.events.some((event) => event.type === 'github-sync' && event.data?.packageId === widgetId)).toBe(
        true,
      );
    } finally {
      watched.close();
    }
  });

  it('refreshes one package, and answers 404 for an unknown one', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-package']) {
      const response = await admin.client.post(`/api/admin/cache/refresh/${id}`);
      expect(response.status).toBe(404);
    }
    const watched = await watchTasks(app, admin);
    try {
      const response = await admin.client.post(`/api/admin/cache/refresh/${gadgetId}`);
      expect(response.status).toBe(200);
      const { taskId } = (await response.json()) as CacheTaskResponse;
      expect(await waitForTaskEnd(watched, taskId)).toMatchObject({
        type: 'cache-refresh',
        status: 'completed',
        message: 'Refreshed 1 package',
      });
    } finally {
      watched.close();
    }
    const list = await getJson<CachedPackage[]>(admin.client, '/api/admin/cache/packages');
    expect(list.find((entry) => entry.id === gadgetId)).toMatchObject({ isCached: true });
  });

  it('clears every zip, and Composer downloads still work by building them again', async () => {
    const [version] = await app.ctx.db
      .select()
      .from(packageVersions)
      .where(eq(packageVersions.packageId, widgetId))
      .limit(1);
    const before = await readStored(app, version!.distKey!);
    expect(before).toBeDefined();

    const watched = await watchTasks(app, admin);
    try {
      const response = await admin.client.post('/api/admin/cache/clear');
      expect(response.status).toBe(200);
      const { taskId } = (await response.json()) as CacheTaskResponse;
      expect(await waitForTaskEnd(watched, taskId)).toMatchObject({
        type: 'cache-clear',
        status: 'completed',
        message: 'All cached packages have been cleared',
      });
    } finally {
      watched.close();
    }

    expect(await app.ctx.storage.totalSize()).toBe(0);
    expect(await getJson<CacheStats>(admin.client, '/api/admin/cache/stats')).toEqual({
      totalPackages: 2,
      cachedPackages: 0,
      cacheSize: '0 B',
      lastUpdated: null,
    });
    const list = await getJson<CachedPackage[]>(admin.client, '/api/admin/cache/packages');
    for (const entry of list) expect(entry).toMatchObject({ isCached: false, cacheSize: '0 B', lastCached: null });

    const holder = await createHolder(app, seller.user, 'installer@example.com');
    await createGrant(app, holder, { id: widgetId });
    const download = await requestOnHost(
      app,
      'acme.composer.localhost',
      `/api/composer/download/acme/widget/${encodeURIComponent(version!.version)}`,
      { token: holder.token },
    );
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    // git archive of the same commit: the same bytes as before the clear.
    expect(sha1Hex(download.body)).toBe(sha1Hex(before!));
    expect(await app.ctx.storage.totalSize('dists/')).toBeGreaterThan(0);
  });
});

describe('a refresh that cannot reach a repository', () => {
  it('refreshes the others and ends the cache-refresh task failed, naming the package', async () => {
    const repository = path.join(app.dataDir, 'repos', 'acme', 'doomed.git');
    await createPackageRepository(repository, { name: 'acme/doomed', tags: ['v1.0.0'], bare: true });
    await createPackage('acme/doomed', true);
    await rm(repository, { recursive: true, force: true });

    const watched = await watchTasks(app, admin);
    try {
      const response = await admin.client.post('/api/admin/cache/refresh-all');
      const body = (await response.json()) as CacheRefreshAllResponse;
      expect(body.packageCount).toBe(2);
      const end = await waitForTaskEnd(watched, body.taskId);
      expect(end).toMatchObject({ type: 'cache-refresh', status: 'failed' });
      expect(end.message).toBe('Refreshed 1 of 2 packages; failed: acme/doomed');
    } finally {
      watched.close();
    }
  });
});

describe('admin-only', () => {
  const calls = (client: TestClient) => [
    client.get('/api/admin/stats'),
    client.get('/api/admin/cache/stats'),
    client.get('/api/admin/cache/packages'),
    client.post('/api/admin/cache/refresh-all'),
    client.post(`/api/admin/cache/refresh/${widgetId}`),
    client.post('/api/admin/cache/clear'),
  ];

  it('refuses the dashboard and cache endpoints to a seller with 403', async () => {
    for (const response of await Promise.all(calls(seller.client))) {
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'Access Denied', status: 403 });
    }
  });

  it('refuses them to visitors who are not signed in with 401', async () => {
    for (const response of await Promise.all(calls(new TestClient(app.baseUrl)))) expect(response.status).toBe(401);
  });
});

describe('formatBytes', () => {
  it('writes sizes as display text', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1.2 * 1024 * 1024)).toBe('1.2 MB');
  });
});
