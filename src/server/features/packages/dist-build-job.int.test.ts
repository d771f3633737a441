import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createGrant,
  createHolder,
  createSeller,
  type FixtureHolder,
  jsonOf,
  type RawResponse,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { sha1Hex, waitForSync } from '../../../../test/support/packages.js';
import type { TestUser } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, testDatabaseKind } from '../../../../test/support/test-app.js';
import { type BuiltApp, buildApp } from '../../app.js';
import { jobs, packages, packageVersions } from '../../db/schema/index.js';
import { createJobRunner, type JobRunner, type JobTimings } from '../../jobs/job-runner.js';
import type { JobRow } from '../../jobs/jobs.repository.js';
import { DIST_BUILD_JOB, distKeyFor, distPrefixFor, type PackageVersionRow } from './package-dists.js';
import { syncPackage } from './package-sync.js';

// A dist zip built on demand (after a cache clear) is one durable job per zip: concurrent first downloads, in one
// process or in several, build it once; a build whose process died is finished by another once its lease runs out.
// The runners never poll here (pollMs is far beyond the test): what wakes a waiting download is the end of the job
// in the same process, or its announcement through PostgreSQL from another.

const HOST = 'acme.composer.localhost';
const LEASE_MS = 30_000;
const quiet: Partial<JobTimings> = { pollMs: 600_000, leaseMs: LEASE_MS, heartbeatMs: 600_000 };

let app: TestApp;
let seller: TestUser;
let packageId: string;
let holder: FixtureHolder;
let version: PackageVersionRow;
const extraRunners: JobRunner[] = [];

beforeAll(async () => {
  app = await startTestApp({ jobTimings: quiet });
  seller = await createSeller(app, 'acme');
  await createPackageRepository(path.join(app.dataDir, 'repos', 'acme', 'widget.git'), {
    name: 'acme/widget',
    tags: ['v1.0.0'],
    bare: true,
  });
  const [pkg] = await app.ctx.db
    .insert(packages)
    .values({
      ownerId: seller.id,
      codeHost: 'local',
      repositoryId: 'acme/widget.git',
      repositoryFullName: 'acme/widget.git',
      name: 'acme/widget',
      isActive: true,
    })
    .returning();
  packageId = pkg!.id;
  const sync = await syncPackage(app.ctx, packageId, { userId: seller.id });
  expect(await sync.done).toMatchObject({ status: 'ready' });
  await waitForSync(app, packageId);
  const [row] = await app.ctx.db
    .select()
    .from(packageVersions)
    .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.version, 'v1.0.0')));
  version = row!;
  expect(version.distSha1).not.toBeNull();
  holder = await createHolder(app, seller, 'holder@example.com');
  await createGrant(app, holder, { id: packageId });
});

afterAll(async () => {
  for (const each of extraRunners) each.halt();
  await app?.close();
});

/** Empties the zip cache (as the admin's cache clear does) and counts the zips written from now on. */
async function clearZipsAndCountBuilds(...apps: BuiltApp[]): Promise<() => number> {
  await app.ctx.storage.deletePrefix(distPrefixFor(packageId));
  vi.restoreAllMocks();
  const puts = apps.map((each) => vi.spyOn(each.ctx.storage, 'put'));
  const key = distKeyFor(packageId, version.commit);
  return () => puts.reduce((sum, put) => sum + put.mock.calls.filter(([written]) => written === key).length, 0);
}

function download(port: number): Promise<RawResponse> {
  return requestOnHost({ port } as TestApp, HOST, '/api/composer/download/acme/widget/v1.0.0', {
    token: holder.token,
  });
}

async function distJobs(): Promise<JobRow[]> {
  return app.ctx.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, DIST_BUILD_JOB), eq(jobs.singletonKey, distKeyFor(packageId, version.commit))));
}

function expectTheZip(responses: RawResponse[]): void {
  for (const response of responses) {
    expect(response.status, response.body.toString('utf8').slice(0, 300)).toBe(200);
    expect(sha1Hex(response.body)).toBe(version.distSha1);
  }
}

/** A runner standing for another process, which claims the zip's build and dies in it (as under SIGKILL). */
async function runnerThatDiesMidBuild(): Promise<JobRunner> {
  const doomed = createJobRunner({ db: app.ctx.db, clock: app.clock, log: app.ctx.log, timings: quiet });
  extraRunners.push(doomed);
  let started = () => {};
  const isRunning = new Promise<void>((resolve) => {
    started = resolve;
  });
  doomed.define(DIST_BUILD_JOB, {
    maxAttempts: 1,
    async run() {
      started();
      return new Promise(() => {});
    },
  });
  const job = await doomed.enqueueOnce(
    DIST_BUILD_JOB,
    { packageId, commit: version.commit },
    { singletonKey: distKeyFor(packageId, version.commit) },
  );
  void doomed.runNow(job.id);
  await isRunning;
  doomed.halt();
  return doomed;
}

describe('a dist zip built on demand', () => {
  it('is built once, as one job, for concurrent first downloads', async () => {
    const before = (await distJobs()).length;
    const builds = await clearZipsAndCountBuilds(app);
    const responses = await Promise.all(Array.from({ length: 6 }, () => download(app.port)));
    expectTheZip(responses);
    expect(builds()).toBe(1);
    const created = (await distJobs()).slice(before);
    expect(created.map((job) => [job.status, job.attempts])).toEqual([['completed', 1]]);
    expect(created[0]!.result).toMatchObject({ sha1: version.distSha1 });
  });

  it("is finished by this process when the process building it died, once the build's lease runs out", async () => {
    const builds = await clearZipsAndCountBuilds(app);
    const doomed = await runnerThatDiesMidBuild();
    const [held] = (await distJobs()).filter((job) => job.status === 'running');
    expect(held).toMatchObject({ lockedBy: doomed.workerId, attempts: 1 });

    const responses = Promise.all([download(app.port), download(app.port)]);
    app.clock.advance(LEASE_MS + 1);
    app.ctx.jobs.wake();
    expectTheZip(await responses);
    expect(builds()).toBe(1);
    const [done] = (await distJobs()).filter((job) => job.id === held!.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 2, lockedBy: null });
  });

  it('answers a failed build as the download route always did, and builds again at the next download', async () => {
    await app.ctx.storage.deletePrefix(distPrefixFor(packageId));
    await rm(path.join(app.dataDir, 'mirrors', `${packageId}.git`), { recursive: true, force: true });
    // A refusal reaches the client as it is, whichever process ran the build.
    await app.ctx.db.update(packages).set({ codeHost: 'github' }).where(eq(packages.id, packageId));
    try {
      const refused = await download(app.port);
      expect(refused.status).toBe(409);
      expect(jsonOf(refused).message).toBe(
        'The connection this package synced through was removed, so Packgate can no longer read its code; every ' +
          'published version is still served. Connect GitHub again on Code hosts, then add the repository again.',
      );
    } finally {
      await app.ctx.db.update(packages).set({ codeHost: 'local' }).where(eq(packages.id, packageId));
    }
    // Anything else is the plain 500.
    const repository = path.join(app.dataDir, 'repos', 'acme', 'widget.git');
    const aside = `${repository}.aside`;
    await rm(aside, { recursive: true, force: true });
    await rename(repository, aside);
    try {
      const failed = await download(app.port);
      expect(failed.status).toBe(500);
      expect(jsonOf(failed).message).toBe('A server error occurred. Please try again later.');
      const [last] = (await distJobs()).slice(-1);
      expect(last).toMatchObject({ status: 'failed', attempts: 1 });
    } finally {
      await rename(aside, repository);
    }
    expectTheZip([await download(app.port)]);
  });
});

// Two apps on one database need PostgreSQL (one PGlite database belongs to one process). Registered only where they
// can run, never passed without running.
const describeOnSharedDatabase: (name: string, body: () => void) => void =
  testDatabaseKind() === 'postgres' ? describe : () => {};

describeOnSharedDatabase('a dist zip built on demand by two apps on one PostgreSQL database', () => {
  let second: BuiltApp;
  let secondPort: number;

  beforeAll(async () => {
    // Same settings, so the same data folder: the same code-host repositories and the same stored zips.
    second = await buildApp({
      config: { ...app.ctx.config },
      clock: app.clock,
      database: app.databaseTarget!,
      logger: false,
      jobTimings: quiet,
    });
    secondPort = Number(new URL(await second.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });

  afterAll(async () => {
    await second?.close();
  });

  it('is built once for concurrent first downloads through both', async () => {
    const builds = await clearZipsAndCountBuilds(app, second);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) => download(index % 2 === 0 ? app.port : secondPort)),
    );
    expectTheZip(responses);
    expect(builds()).toBe(1);
  });

  it('is finished by one app, and served by both, when the process building it died', async () => {
    const builds = await clearZipsAndCountBuilds(app, second);
    const doomed = await runnerThatDiesMidBuild();
    const [held] = (await distJobs()).filter((job) => job.status === 'running');
    expect(held).toMatchObject({ lockedBy: doomed.workerId });

    const responses = Promise.all([download(app.port), download(secondPort)]);
    app.clock.advance(LEASE_MS + 1);
    // Only the second app looks for due work: the first app's download learns of the end through PostgreSQL.
    second.ctx.jobs.wake();
    expectTheZip(await responses);
    expect(builds()).toBe(1);
    const [done] = (await distJobs()).filter((job) => job.id === held!.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 2, lockedBy: null });
  });
});

// Last in this file: it stops the app's job runner, as a graceful shutdown does before the HTTP server closes.
describe('a dist zip asked for while the process stops', () => {
  it('is answered 503 when the runner stops, not at the end of the wait for a build running elsewhere', async () => {
    const builds = await clearZipsAndCountBuilds(app);
    await runnerThatDiesMidBuild();
    const waitFor = vi.spyOn(app.ctx.jobs, 'waitFor');
    const pending = download(app.port);
    await vi.waitFor(() => expect(waitFor).toHaveBeenCalled(), { timeout: 20_000 });
    await app.ctx.jobs.close();
    const response = await pending;
    expect(response.status).toBe(503);
    expect(jsonOf(response).message).toBe('The archive is still being prepared.');
    expect(builds()).toBe(0);
    // The dead builder's job is another test's business.
    await app.ctx.db.delete(jobs).where(and(eq(jobs.kind, DIST_BUILD_JOB), eq(jobs.status, 'running')));
  });

  it('is answered 503 at once, its build left queued for the next process', async () => {
    const builds = await clearZipsAndCountBuilds(app);
    await app.ctx.jobs.close();
    const response = await download(app.port);
    expect(response.status).toBe(503);
    expect(jsonOf(response)).toMatchObject({
      code: 'UNAVAILABLE',
      message: 'The archive is still being prepared.',
      suggestion: 'Try again in a minute.',
    });
    expect(builds()).toBe(0);
    const left = (await distJobs()).filter((job) => job.status === 'queued');
    expect(left.map((job) => [job.attempts, job.lockedBy])).toEqual([[0, null]]);
  });
});
