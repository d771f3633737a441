import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackageRepository,
  createTempDir,
  type PackageRepository,
  removeTempDir,
} from '../../../../test/support/git-fixtures.js';
import { startGitHttpServer, type TestGitHttpServer } from '../../../../test/support/git-http-server.js';
import { giveTrial, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CreatePackageResponse, PackageDetail } from '../../../contract/packages.js';
import { RECONCILE_JOB } from './reconcile.job.js';

// Tags are never missed (issue 30 item 5): five tags pushed at once reach no webhook (GitHub sends none for more than
// three), and reconciliation, comparing the remote's tags and branches with the package's, publishes them.

let app: TestApp;
let workspace: string;
let http: TestGitHttpServer;
let seller: SignedIn;
let widget: PackageRepository;
let packageId: string;

beforeAll(async () => {
  workspace = await createTempDir('packgate-reconcile-');
  widget = await createPackageRepository(path.join(workspace, 'repos', 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0'],
    bare: true,
  });
  http = await startGitHttpServer(path.join(workspace, 'repos'));
  app = await startTestApp({ env: { CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true' } });
  seller = await signInSeller(app, { slug: 'acme' });
  await giveTrial(app, seller.user.id);
  const created = await seller.client.post('/api/repositories/from-url', {
    repositoryUrl: `${http.url}/acme/widget.git`,
  });
  expect(created.status).toBe(201);
  packageId = ((await created.json()) as CreatePackageResponse).id;
  await waitForSync(app, packageId);
});

afterAll(async () => {
  await app?.close();
  await http?.close();
  await removeTempDir(workspace);
});

async function detail(): Promise<PackageDetail> {
  return (await (await seller.client.get(`/api/repositories/${packageId}`)).json()) as PackageDetail;
}

/** Check for new tags, as the seller clicks it; answers what the job found. */
async function reconcileNow(): Promise<{ checked: number; synced: number }> {
  const response = await seller.client.post('/api/repositories/reconcile');
  expect(response.status).toBe(202);
  const { jobId } = (await response.json()) as { jobId: string };
  const job = await app.ctx.jobs.waitFor(jobId, 60_000);
  expect(job.status).toBe('completed');
  await waitForSync(app, packageId);
  return job.result as { checked: number; synced: number };
}

describe('reconciliation', () => {
  it('is scheduled from start-up, every CODE_HOST_RECONCILE_MINUTES', async () => {
    const scheduled = await app.ctx.jobs.findQueued(RECONCILE_JOB, 'package-reconcile:scheduled');
    expect(scheduled?.payload).toEqual({ scheduled: true });
  });

  it('publishes five tags pushed at once with no webhook', async () => {
    const tags = ['v1.1.0', 'v1.2.0', 'v1.3.0', 'v1.4.0', 'v1.5.0'];
    for (const tag of tags) await widget.addTag(tag);
    expect((await detail()).versions.map((version) => version.version)).not.toContain('v1.5.0');

    expect(await reconcileNow()).toMatchObject({ checked: 1, synced: 1 });
    const after = await detail();
    expect(after.versions.map((version) => version.version).sort()).toEqual(['dev-main', 'v1.0.0', ...tags].sort());
    expect(after.lastReconciledAt).not.toBeNull();
  });

  it('leaves a package that matches its remote alone', async () => {
    const before = await detail();
    expect(await reconcileNow()).toMatchObject({ checked: 1, synced: 0 });
    expect((await detail()).versions).toEqual(before.versions);
  });
});
