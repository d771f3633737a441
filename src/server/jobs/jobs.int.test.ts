import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeSmtp } from '../../../test/fakes/smtp.js';
import { createPackageRepository } from '../../../test/support/git-fixtures.js';
import { watchTasks } from '../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../test/support/sessions.js';
import { startTestApp, type TestApp, testDatabaseKind } from '../../../test/support/test-app.js';
import type { TemporaryLicense } from '../../contract/licenses.js';
import { type BuiltApp, buildApp } from '../app.js';
import { jobs, packages } from '../db/schema/index.js';
import type { AnyJobDefinition } from './job-definition.js';
import { createJobRunner, type JobRunner, type JobTimings } from './job-runner.js';
import type { JobRow } from './jobs.repository.js';
import { MAIL_JOB, MAIL_MAX_ATTEMPTS, sendQueuedMail } from './mail-delivery.js';

// Durable jobs over the real database (PGlite and PostgreSQL). A "process" is a runner: several runners on one
// database stand for several processes (on PostgreSQL also two whole apps). Times come from the app's clock, so a
// test passes a backoff or a lease by moving the clock, never by waiting for it.

const fast: Partial<JobTimings> = {
  leaseMs: 30_000,
  heartbeatMs: 60_000,
  pollMs: 20,
  backoffBaseMs: 1_000,
  maxBackoffMs: 4_000,
  shutdownWaitMs: 5_000,
};

let app: TestApp;
/** The test kinds are the tests' own, outside the app's registry: any kind, any payload. */
type TestPayloads = Record<string, Record<string, unknown>>;
const extraRunners: JobRunner<TestPayloads>[] = [];

function runner(timings: Partial<JobTimings> = fast): JobRunner<TestPayloads> {
  const created = createJobRunner<TestPayloads>({ db: app.ctx.db, clock: app.clock, log: app.ctx.log, timings });
  extraRunners.push(created);
  return created;
}

async function jobRow(id: string): Promise<JobRow> {
  const [row] = await app.ctx.db.select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw new Error(`no job ${id}`);
  return row;
}

/** Polls the job until `isDone` holds; throws at the bound. */
async function until(id: string, isDone: (job: JobRow) => boolean, what: string, timeoutMs = 20_000): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobRow(id);
    if (isDone(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} never ${what}: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A promise with its resolve function, for handlers the test lets go on. */
function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * The runner as sendQueuedMail sees it, but for its waits, which are only recorded (and answered with the row as it
 * stands): a test then sees whether the mail was waited for without waiting.
 */
function recordingWaits(runner: JobRunner<TestPayloads> | JobRunner): { runner: JobRunner; waitedFor: string[] } {
  const waitedFor: string[] = [];
  const recording = {
    runNow: (jobId: string) => runner.runNow(jobId),
    isStopping: () => runner.isStopping(),
    waitFor: async (jobId: string) => {
      waitedFor.push(jobId);
      return jobRow(jobId);
    },
  } as unknown as JobRunner;
  return { runner: recording, waitedFor };
}

beforeAll(async () => {
  // With Redis (when the run has it) the realtime channel spans the apps of one test, as it spans processes.
  app = await startTestApp({ jobTimings: fast, redis: true });
});
afterAll(async () => {
  for (const extra of extraRunners) await extra.close();
  await app.close();
});

describe('the job runner', () => {
  it('runs each job once when two runners race for the same jobs', async () => {
    const runs = new Map<string, number>();
    const kind = 'test-race';
    const first = runner();
    const second = runner();
    for (const each of [first, second]) {
      each.define<{ n: number }>(kind, {
        maxAttempts: 1,
        async run(payload) {
          runs.set(String(payload.n), (runs.get(String(payload.n)) ?? 0) + 1);
          return { by: each.workerId };
        },
      });
    }
    const queued: JobRow[] = [];
    for (let n = 0; n < 20; n++) queued.push(await first.enqueue(kind, { n }));
    await Promise.all([first.start(), second.start()]);
    const finished = await Promise.all(queued.map((job) => first.waitFor(job.id, 20_000)));

    expect(finished.every((job) => job.status === 'completed' && job.attempts === 1)).toBe(true);
    expect([...runs.values()]).toEqual(Array(20).fill(1));
  });

  it('queues work of one singleton key once while it is unfinished, whichever runner asks, and anew once it ended', async () => {
    const first = runner();
    const second = runner();
    const finish = gate();
    for (const each of [first, second]) {
      each.define('test-singleton', {
        maxAttempts: 1,
        async run() {
          await finish.promise;
          return {};
        },
      });
    }
    const asked = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        (n % 2 === 0 ? first : second).enqueueOnce('test-singleton', { n }, { singletonKey: 'singleton:a' }),
      ),
    );
    expect(new Set(asked.map((job) => job.id)).size).toBe(1);
    const other = await first.enqueueOnce('test-singleton', {}, { singletonKey: 'singleton:b' });
    expect(other.id).not.toBe(asked[0]!.id);

    await first.start();
    await until(asked[0]!.id, (job) => job.status === 'running', 'ran');
    expect((await second.enqueueOnce('test-singleton', {}, { singletonKey: 'singleton:a' })).id).toBe(asked[0]!.id);
    finish.open();
    expect(await first.waitFor(asked[0]!.id, 20_000)).toMatchObject({ status: 'completed' });
    const again = await second.enqueueOnce('test-singleton', {}, { singletonKey: 'singleton:a' });
    expect(again.id).not.toBe(asked[0]!.id);
    expect(await first.waitFor(again.id, 20_000)).toMatchObject({ status: 'completed' });
  });

  it("checks a payload against its kind's schema when queued and before the handler, failing a bad one clearly", async () => {
    const handled: unknown[] = [];
    const kind = 'test-checked';
    const checked: AnyJobDefinition<{ seen: unknown[] }> = {
      kind,
      payload: z.object({ packageId: z.string().min(1) }),
      maxAttempts: 3,
      async handler(deps, payload) {
        deps.seen.push(payload);
        return {};
      },
    };
    const worker = runner();
    worker.register([checked], { seen: handled });
    await expect(worker.enqueue(kind, { packageId: 42 })).rejects.toThrow(
      /payload of the test-checked job is not valid/,
    );
    // A row written before the kind had its schema (or by hand) reaches the runner as it is.
    const unchecked = runner();
    unchecked.define(kind, { maxAttempts: 3, run: async () => ({}) });
    const bad = await unchecked.enqueue(kind, { packageId: '' });
    const good = await worker.enqueue(kind, { packageId: 'p1', extra: 'dropped' });
    await worker.start();

    const failed = await worker.waitFor(bad.id, 20_000);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.lastError).toMatch(/^The payload of the test-checked job is not valid: .*packageId/);
    expect(await worker.waitFor(good.id, 20_000)).toMatchObject({ status: 'completed' });
    expect(handled).toEqual([{ packageId: 'p1' }]);
  });

  it('keeps what a kind describes of the error that failed a job for good, for waiters elsewhere', async () => {
    const worker = runner();
    worker.define('test-described-failure', {
      maxAttempts: 1,
      async run() {
        throw new Error('refused');
      },
      describeFailure: (error) => ({ reason: (error as Error).message }),
    });
    await worker.start();
    const job = await worker.enqueue('test-described-failure', {});
    expect(await worker.waitFor(job.id, 20_000)).toMatchObject({
      status: 'failed',
      lastError: 'refused',
      result: { reason: 'refused' },
    });
  });

  it('retries a failed job after its backoff, doubling it, and completes it when it succeeds', async () => {
    const worker = runner();
    let calls = 0;
    worker.define('test-retry', {
      maxAttempts: 4,
      async run() {
        calls++;
        if (calls < 3) throw new Error(`refused ${calls}`);
        return { calls };
      },
    });
    await worker.start();
    const job = await worker.enqueue('test-retry', {});

    const afterFirst = await until(job.id, (row) => row.attempts === 1 && row.status === 'queued', 'failed once');
    expect(afterFirst.lastError).toBe('refused 1');
    expect(afterFirst.runAt.getTime() - app.clock.now().getTime()).toBe(1_000);

    app.clock.advance(1_000);
    const afterSecond = await until(job.id, (row) => row.attempts === 2 && row.status === 'queued', 'failed twice');
    expect(afterSecond.runAt.getTime() - app.clock.now().getTime()).toBe(2_000);

    app.clock.advance(2_000);
    const done = await worker.waitFor(job.id, 20_000);
    expect(done).toMatchObject({ status: 'completed', attempts: 3, result: { calls: 3 } });
  });

  it('fails a job for good once its attempts are spent, and says so once', async () => {
    const worker = runner();
    const gaveUp: string[] = [];
    const told = gate();
    worker.define('test-give-up', {
      maxAttempts: 2,
      async run() {
        throw new Error('still refused');
      },
      async onGiveUp(_payload, error) {
        gaveUp.push(error);
        told.open();
      },
    });
    worker.define('test-after-give-up', {
      maxAttempts: 1,
      async run() {
        return {};
      },
    });
    await worker.start();
    const job = await worker.enqueue('test-give-up', {});
    await until(job.id, (row) => row.attempts === 1 && row.status === 'queued', 'failed once');
    app.clock.advance(1_000);
    const failed = await worker.waitFor(job.id, 20_000);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, lastError: 'still refused' });
    // The owner is told after the row says failed (whoever waits may see the row first).
    await told.promise;
    // And told only once: a later job through the same runner has run, and still one report.
    const later = await worker.enqueue('test-after-give-up', {});
    expect(await worker.waitFor(later.id, 20_000)).toMatchObject({ status: 'completed' });
    expect(gaveUp).toEqual(['still refused']);
  });

  it('lets another runner finish the job of a runner killed mid-job, once the lease runs out', async () => {
    const killed = runner();
    const survivor = runner();
    const started = gate();
    const never = gate();
    killed.define('test-takeover', {
      maxAttempts: 3,
      async run() {
        started.open();
        await never.promise;
        return { by: 'killed' };
      },
    });
    survivor.define('test-takeover', {
      maxAttempts: 3,
      async run() {
        return { by: 'survivor' };
      },
    });
    await killed.start();
    const job = await killed.enqueue('test-takeover', {});
    await started.promise;
    killed.halt(); // as a SIGKILL: no heartbeat, no hand-back, the row stays running under its lease
    await survivor.start();
    const held = await jobRow(job.id);
    expect(held).toMatchObject({ status: 'running', lockedBy: killed.workerId });

    app.clock.advance(30_001);
    survivor.wake();
    const done = await survivor.waitFor(job.id, 20_000);
    expect(done).toMatchObject({ status: 'completed', attempts: 2, result: { by: 'survivor' } });
    never.open();
  });

  it('resumes queued work after a restart, and work a stopped process left running on a database of its own', async () => {
    const before = runner();
    before.define('test-resume', { maxAttempts: 1, run: async () => ({ resumed: true }) });
    const queued = await before.enqueue('test-resume', {}); // never started: the process stops first
    await before.close();

    const interrupted = runner();
    const started = gate();
    interrupted.define('test-resume-running', {
      maxAttempts: 1,
      async run() {
        started.open();
        await new Promise(() => {});
        return {};
      },
    });
    await interrupted.start();
    const running = await interrupted.enqueue('test-resume-running', {});
    await started.promise;
    interrupted.halt();

    const restarted = createJobRunner<TestPayloads>({
      db: app.ctx.db,
      clock: app.clock,
      log: app.ctx.log,
      timings: fast,
      isExclusiveDatabase: true,
    });
    extraRunners.push(restarted);
    restarted.define('test-resume', { maxAttempts: 1, run: async () => ({ resumed: true }) });
    restarted.define('test-resume-running', { maxAttempts: 1, run: async () => ({ resumed: true }) });
    await restarted.start();
    expect(await restarted.waitFor(queued.id, 20_000)).toMatchObject({
      status: 'completed',
      result: { resumed: true },
    });
    expect(await restarted.waitFor(running.id, 20_000)).toMatchObject({
      status: 'completed',
      result: { resumed: true },
    });
  });

  it('hands a job still running at a graceful stop back to the queue, for the next process at once', async () => {
    const stopping = runner({ ...fast, shutdownWaitMs: 0 });
    const started = gate();
    stopping.define('test-hand-back', {
      maxAttempts: 1,
      async run(_payload, run) {
        started.open();
        await new Promise((resolve) => run.signal.addEventListener('abort', resolve));
        return {};
      },
    });
    await stopping.start();
    const job = await stopping.enqueue('test-hand-back', {});
    await started.promise;
    await stopping.close();
    expect(await jobRow(job.id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });

    const next = runner();
    next.define('test-hand-back', { maxAttempts: 1, run: async () => ({ finished: true }) });
    await next.start();
    expect(await next.waitFor(job.id, 20_000)).toMatchObject({ status: 'completed', attempts: 1 });
  });
});

describe('a wait for a job', () => {
  it('is refused when its runner stops, not left to its bound', async () => {
    const stopping = runner();
    await stopping.start();
    // A kind no runner defines: nothing ends it.
    const job = await stopping.enqueue('test-never-run', {});
    try {
      const waited = stopping.waitFor(job.id, 600_000);
      await stopping.close();
      await expect(waited).rejects.toThrow('this process has stopped watching for its end');
      // A wait asked afterwards gets the job once it has ended, and the same refusal before.
      await expect(stopping.waitFor(job.id, 600_000)).rejects.toThrow('stopped watching');
      await app.ctx.db.update(jobs).set({ status: 'completed' }).where(eq(jobs.id, job.id));
      await expect(stopping.waitFor(job.id, 600_000)).resolves.toMatchObject({ status: 'completed' });
    } finally {
      await app.ctx.db.delete(jobs).where(eq(jobs.id, job.id));
    }
  });
});

describe('a queued mail met by a stopping runner', () => {
  it('is left to the next process at once, not waited for', async () => {
    const stopping = runner({ ...fast, shutdownWaitMs: 60_000 });
    const started = gate();
    const release = gate();
    stopping.define('test-held-at-stop', {
      maxAttempts: 1,
      async run() {
        started.open();
        await release.promise;
        return {};
      },
    });
    await stopping.start();
    await stopping.enqueue('test-held-at-stop', {});
    await started.promise;
    // The runner is closing: it waits for the job it runs and claims nothing more.
    const closing = stopping.close();
    app.ctx.jobs.pause();
    const reference = 'test:queued-at-stop';
    try {
      const mail = await app.ctx.jobs.enqueue(MAIL_JOB, { sealed: 'not read: nobody runs it' }, { reference });
      const { runner: recording, waitedFor } = recordingWaits(stopping);
      await sendQueuedMail(app.ctx.db, recording, reference);
      expect(waitedFor).toEqual([]);
      expect(await jobRow(mail.id)).toMatchObject({ status: 'queued', attempts: 0 });
    } finally {
      release.open();
      await closing;
      await app.ctx.db.delete(jobs).where(eq(jobs.reference, reference));
      app.ctx.jobs.resume();
    }
  });
});

// Two apps on one database need PostgreSQL: one PGlite database belongs to one app, and the runner-level tests
// above cover the race and the restart there. Registered only where they can run, never passed without running.
const describeOnSharedDatabase: (name: string, body: () => void) => void =
  testDatabaseKind() === 'postgres' ? describe : () => {};

describeOnSharedDatabase('a package sync as a job', () => {
  it('is finished by a restarted app when the app that queued it stopped before running it', async () => {
    const seller = await signInSeller(app, { slug: 'restarter' });
    const repos = path.join(app.dataDir, 'repos');
    await createPackageRepository(path.join(repos, 'acme', 'restart.git'), {
      name: 'acme/restart',
      tags: ['v1.0.0'],
      bare: true,
    });
    const [pkg] = await app.ctx.db
      .insert(packages)
      .values({
        ownerId: seller.user.id,
        codeHost: 'local',
        repositoryId: 'acme/restart.git',
        repositoryFullName: 'acme/restart.git',
        name: 'acme/restart',
        isActive: true,
      })
      .returning();
    app.ctx.jobs.pause();
    const { syncPackage } = await import('../features/packages/package-sync.js');
    const watcher = process.env.TEST_REDIS_URL ? await watchTasks(app, seller) : undefined;
    const handle = await syncPackage(app.ctx, pkg!.id, { userId: seller.user.id });

    // A second process on the same database, with the same data folder for the code host's repositories.
    const second = await buildApp({
      config: { ...app.ctx.config },
      clock: app.clock,
      database: app.databaseTarget!,
      logger: false,
      jobTimings: fast,
    });
    try {
      const done = await second.ctx.jobs.waitFor(handle.jobId, 60_000);
      expect(done.status).toBe('completed');
      expect(done.result).toMatchObject({ status: 'ready', versionCount: 2 }); // v1.0.0 and the default branch
      expect(done.lockedBy).toBeNull();
      const [synced] = await app.ctx.db.select().from(packages).where(eq(packages.id, pkg!.id));
      expect(synced!.syncStatus).toBe('ready');
      // The owner's socket on the first app hears the progress the second app made.
      await watcher?.next((event) => event.taskId === handle.taskId && event.status === 'completed', 20_000);
    } finally {
      watcher?.close();
      app.ctx.jobs.resume();
      await second.close();
    }
  });
});

describeOnSharedDatabase('a queued mail whose first attempt another runner has just claimed', () => {
  it('is waited for, not left to the runner after the request answers', async () => {
    app.ctx.jobs.pause();
    const reference = 'test:claimed-elsewhere';
    try {
      const job = await app.ctx.jobs.enqueue(MAIL_JOB, { sealed: 'not read: nobody runs it here' }, { reference });
      const { runner: recording, waitedFor } = recordingWaits(app.ctx.jobs);
      // Another runner's claim, made and not yet committed: its row lock is what runNow's claim skips.
      const notCommitted = new Error('rolled back on purpose');
      await app.ctx.db
        .transaction(async (tx) => {
          await tx
            .update(jobs)
            .set({ status: 'running', lockedBy: 'another process', attempts: 1 })
            .where(eq(jobs.id, job.id));
          await sendQueuedMail(app.ctx.db, recording, reference);
          throw notCommitted;
        })
        .catch((error: unknown) => {
          if (error !== notCommitted) throw error;
        });
      expect(waitedFor).toEqual([job.id]);
    } finally {
      await app.ctx.db.delete(jobs).where(eq(jobs.reference, reference));
      app.ctx.jobs.resume();
    }
  });
});

describeOnSharedDatabase('two apps on one PostgreSQL database', () => {
  let second: BuiltApp | undefined;

  afterAll(async () => {
    await second?.close();
  });

  it('claims a job in one of them only', async () => {
    second = await buildApp({
      config: { ...app.ctx.config },
      clock: app.clock,
      database: app.databaseTarget!,
      logger: false,
      jobTimings: fast,
    });
    const ranBy: string[] = [];
    for (const each of [app.ctx.jobs, second.ctx.jobs]) {
      each.define('test-two-apps', {
        maxAttempts: 1,
        async run() {
          ranBy.push(each.workerId);
          return {};
        },
      });
    }
    const queued: JobRow[] = [];
    // The app's runner, asked for a kind the test defined outside the registry.
    const appJobs = app.ctx.jobs as unknown as JobRunner<TestPayloads>;
    for (let n = 0; n < 10; n++) queued.push(await appJobs.enqueue('test-two-apps', { n }));
    second.ctx.jobs.wake();
    for (const job of queued) expect((await app.ctx.jobs.waitFor(job.id, 20_000)).status).toBe('completed');
    expect(ranBy).toHaveLength(10);
  });
});

describe('license e-mail the SMTP server refuses', () => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let mailApp: TestApp;
  let seller: SignedIn;
  let packageId: string;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    mailApp = await startTestApp({ env: { SMTP_URL: smtp.url }, jobTimings: fast });
    seller = await signInSeller(mailApp, { slug: 'mailer' });
    const trial = await seller.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(trial.status).toBe(200);
    const [row] = await mailApp.ctx.db
      .insert(packages)
      .values({
        ownerId: seller.user.id,
        codeHost: 'local',
        repositoryId: 'acme/mailed',
        repositoryFullName: 'acme/mailed',
        name: 'acme/mailed',
        isActive: true,
      })
      .returning();
    packageId = row!.id;
  });
  afterAll(async () => {
    await mailApp.close();
    await smtp.close();
  });

  async function licenses(): Promise<TemporaryLicense[]> {
    const response = await seller.client.get(`/api/repositories/${packageId}/temporary-licenses`);
    expect(response.status).toBe(200);
    return (await response.json()) as TemporaryLicense[];
  }

  async function mailJobOf(licenseId: string): Promise<JobRow> {
    const [row] = await mailApp.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.reference, `grant:${licenseId}`));
    if (!row) throw new Error(`no mail job for license ${licenseId}`);
    return row;
  }

  async function untilMail(id: string, isDone: (job: JobRow) => boolean, what: string): Promise<JobRow> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [job] = await mailApp.ctx.db.select().from(jobs).where(eq(jobs.id, id));
      if (job && isDone(job)) return job;
      if (Date.now() > deadline) throw new Error(`mail job ${id} never ${what}: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('retries a refused license e-mail and delivers it once the server accepts', async () => {
    smtp.refusing = true;
    const created = await seller.client.post(`/api/repositories/${packageId}/temporary-licenses`, {
      email: 'later@example.com',
      durationDays: 7,
    });
    expect(created.status).toBe(201);
    const license = (await created.json()) as TemporaryLicense;
    expect(smtp.refusedCount).toBe(1);
    const job = await mailJobOf(license.id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(JSON.stringify(job.payload)).not.toContain('pgc_'); // the token in the mail is sealed at rest
    expect((await licenses()).find((item) => item.id === license.id)?.emailDelivery).toBe('pending');

    smtp.refusing = false;
    mailApp.clock.advance(1_000);
    const delivered = await untilMail(job.id, (row) => row.status === 'completed', 'delivered');
    expect(delivered.payload).toEqual({});
    expect(smtp.messages.some((message) => message.to.some((to) => to.includes('later@example.com')))).toBe(true);
    expect((await licenses()).find((item) => item.id === license.id)?.emailDelivery).toBe('delivered');
  });

  it('shows "not delivered" on the license once every attempt was refused', async () => {
    smtp.refusing = true;
    const created = await seller.client.post(`/api/repositories/${packageId}/temporary-licenses`, {
      email: 'never@example.com',
      durationDays: 7,
    });
    expect(created.status).toBe(201);
    const license = (await created.json()) as TemporaryLicense;
    const job = await mailJobOf(license.id);
    for (let attempt = 1; attempt < MAIL_MAX_ATTEMPTS; attempt++) {
      await untilMail(job.id, (row) => row.attempts === attempt && row.status === 'queued', `failed ${attempt} times`);
      mailApp.clock.advance(4_000);
    }
    const failed = await untilMail(job.id, (row) => row.status === 'failed', 'failed for good');
    expect(failed.attempts).toBe(MAIL_MAX_ATTEMPTS);
    expect(failed.payload).toEqual({});
    expect((await licenses()).find((item) => item.id === license.id)?.emailDelivery).toBe('failed');
    const customers = (await (await seller.client.get('/api/customers')).json()) as {
      grants: { id: string; emailDelivery?: string | null }[];
    }[];
    const grant = customers.flatMap((customer) => customer.grants).find((item) => item.id === license.id);
    expect(grant?.emailDelivery).toBe('failed');
    smtp.refusing = false;
  });
});
