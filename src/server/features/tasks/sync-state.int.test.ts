import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPackageFromDashboard } from '../../../../test/support/dashboard-packages.js';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { PackageDetail } from '../../../contract/packages.js';
import type { TaskProgressEvent } from '../../../contract/realtime.js';
import { packages, tasks } from '../../db/schema/index.js';
import { resumeTask } from './tasks.service.js';

// A package sync's state is written once, to its task (issue 29 item 5): the Tasks view and the package's badge
// read the same state through a successful and a failed sync, and the sync code writes no package status of its own.

let app: TestApp;
let seller: SignedIn;
const repository = () => path.join(app.ctx.config.gitReposDir, 'acme', 'flaky.git');

beforeAll(async () => {
  app = await startTestApp();
  await createPackageRepository(repository(), { name: 'acme/flaky', tags: ['v1.0.0'], bare: true });
  seller = await signInSeller(app);
  await giveTrial(app, seller.user.id);
});

afterAll(async () => {
  await app?.close();
});

/** The badge's state (the package) and the Tasks view's entry for the task. */
async function bothViews(packageId: string, taskId: string) {
  const pkg = (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
  const listed = (await (await seller.client.get('/api/tasks')).json()) as TaskProgressEvent[];
  return { pkg, task: listed.find((task) => task.taskId === taskId) };
}

describe('one state per package sync', () => {
  it('shows the same state in the Tasks view and on the package through a successful and a failed sync', async () => {
    const { id, taskId } = await addPackageFromDashboard(app, seller, {
      githubRepoId: 'acme/flaky.git',
      packageName: 'acme/flaky',
      description: '',
      isActive: true,
    });

    expect(taskId).toEqual(expect.any(String));
    const synced = await bothViews(id, taskId!);
    expect(synced.task).toMatchObject({ type: 'github-sync', status: 'completed' });
    expect(synced.pkg).toMatchObject({ syncStatus: 'ready', syncError: null });

    await rm(repository(), { recursive: true, force: true });
    const refreshed = await seller.client.post(`/api/repositories/${id}/refresh`);
    expect(refreshed.status).toBe(202);
    const failedTaskId = ((await refreshed.json()) as { taskId: string }).taskId;
    await waitForSync(app, id);

    const failed = await bothViews(id, failedTaskId);
    expect(failed.task).toMatchObject({ type: 'github-sync', status: 'failed' });
    expect(failed.pkg.syncStatus).toBe('failed');
    expect(failed.pkg.syncError).toMatch(/not found/i);
    expect(failed.pkg.syncError).toBe(failed.task!.message);

    // The repository back, a new sync: both say ready again, and the failure is gone from the package.
    await createPackageRepository(repository(), { name: 'acme/flaky', tags: ['v1.0.0', 'v1.1.0'], bare: true });
    const again = await seller.client.post(`/api/repositories/${id}/refresh`);
    const againTaskId = ((await again.json()) as { taskId: string }).taskId;
    await waitForSync(app, id);
    const recovered = await bothViews(id, againTaskId);
    expect(recovered.task).toMatchObject({ status: 'completed' });
    expect(recovered.pkg).toMatchObject({ syncStatus: 'ready', syncError: null });
    expect(recovered.pkg.versionCount).toBe(synced.pkg.versionCount + 1);
  });

  it('moves the package with its task, and leaves it as it was while the task only waits', async () => {
    const [pkg] = await app.ctx.db.select().from(packages).limit(1);
    const at = app.clock.now();
    const [task] = await app.ctx.db
      .insert(tasks)
      .values({
        userId: seller.user.id,
        type: 'github-sync',
        status: 'started',
        message: 'Waiting for the running sync of acme/flaky',
        data: { packageId: pkg!.id },
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    expect((await bothViews(pkg!.id, task!.id)).pkg.syncStatus).toBe('ready');
    const running = (await resumeTask(app.ctx, task!.id))!;
    await running.progress(10, 'Fetching acme/flaky');
    expect((await bothViews(pkg!.id, task!.id)).pkg).toMatchObject({ syncStatus: 'syncing', syncError: null });
    await running.fail('The repository acme/flaky was not found.');
    const views = await bothViews(pkg!.id, task!.id);
    expect(views.task).toMatchObject({ status: 'failed', message: 'The repository acme/flaky was not found.' });
    expect(views.pkg).toMatchObject({ syncStatus: 'failed', syncError: 'The repository acme/flaky was not found.' });
  });
});
