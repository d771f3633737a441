import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { type ChangeFeed, startPostgresChangeFeed } from '../adapters/change-feed/postgres-change-feed.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { JobPayloads } from './job-definition.js';
import { bindDefinition, checkedPayload, invalidPayload, readPayload } from './job-payloads.js';
import {
  defaultJobTimings,
  type JobRunner,
  type JobTimings,
  type PayloadsByKind,
  type RunnableJob,
} from './job-runner-types.js';
import { createJobWaiters } from './job-waiters.js';
import {
  claimJob,
  findJob,
  findQueuedJob,
  findUnfinishedJobs,
  findUnfinishedSingletonJob,
  finishAttempt,
  hasRunningJob,
  insertJob,
  insertSingletonJob,
  type JobRow,
  renewLease,
  requeueAllRunning,
} from './jobs.repository.js';

/** The runner's settings and interface live in job-runner-types.ts; importers of the runner find them here too. */
export type { JobRunner, JobTimings } from './job-runner-types.js';

// The runner of durable jobs, one per app (built by the composition root). Each process polls the jobs table,
// claims one due job at a time per free slot, renews its lease while the handler works, and records the end:
// completed, back in the queue after an exponential backoff, or failed once its attempts are spent. A process
// that dies leaves its lease to run out; another runner then claims the job again. On a graceful stop the
// running jobs get a deadline to finish and the rest go back to the queue for the next process at once.
//
// Times come from the app's clock (tests move it to pass a backoff or a lease); the waits between polls and
// heartbeats are real timers.
//
// A process waiting for a job another process runs learns of its end from the database: on PostgreSQL at once, through
// the notification a trigger sends on JOB_END_CHANNEL as the end commits (migration 0025), else at the next poll.

/** Where the jobs table announces each job's end (completed or failed), with the job's id. */
export const JOB_END_CHANNEL = 'packgate_jobs';

type Running = { job: JobRow; abort: AbortController; done: Promise<void> };

export function createJobRunner<Payloads extends PayloadsByKind = JobPayloads>(options: {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  timings?: Partial<JobTimings>;
  /** The database is this process's alone (PGlite): jobs left running by a stopped process are resumed at once. */
  isExclusiveDatabase?: boolean;
  /** A PostgreSQL database shared with other processes: listen there for the ends of the jobs they run. */
  jobEndFeedUrl?: string;
  /** Told of every attempt's end, with its duration (the metrics at /metrics). */
  onAttemptEnd?: (kind: string, outcome: 'completed' | 'retry' | 'failed', seconds: number) => void;
}): JobRunner<Payloads> {
  const { db, clock, log } = options;
  const timings: JobTimings = { ...defaultJobTimings, ...options.timings };
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const definitions = new Map<string, RunnableJob>();
  const running = new Map<string, Running>();
  let state: 'idle' | 'started' | 'closing' | 'stopped' = 'idle';
  let pollTimer: NodeJS.Timeout | undefined;
  let isPumping = false;
  let isPaused = false;
  let pumpAgain = false;
  let jobEndFeed: ChangeFeed | undefined;

  const backoffFor = (attempt: number) =>
    Math.min(timings.maxBackoffMs, timings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));

  const waiters = createJobWaiters({
    db,
    pollMs: timings.pollMs,
    isRunnerPolling: () => state === 'started',
  });
  const settle = waiters.settle;

  async function execute(job: JobRow, abort: AbortController): Promise<void> {
    const definition = definitions.get(job.kind);
    if (!definition) return;
    const checked = readPayload(definition, job.payload);
    if (!checked.success) {
      // Never handed to the handler, and never retried: the same payload would fail the same way.
      const message = invalidPayload(job.kind, checked.error).message;
      log.error({ jobId: job.id, kind: job.kind, error: message }, 'job failed for good: invalid payload');
      options.onAttemptEnd?.(job.kind, 'failed', 0);
      const failed = await finishAttempt(db, job.id, workerId, {
        status: 'failed',
        error: message,
        now: clock.now(),
        forgetPayload: definition.forgetPayloadWhenDone,
      }).catch(() => undefined);
      if (failed) settle(failed);
      return;
    }
    const payload = checked.data;
    const heartbeat = setInterval(() => {
      if (state === 'stopped' || abort.signal.aborted) return clearInterval(heartbeat);
      const now = clock.now();
      renewLease(db, job.id, workerId, new Date(now.getTime() + timings.leaseMs), now)
        .then((isOurs) => isOurs || abort.abort(new Error('the job was taken over by another runner')))
        .catch((error: unknown) => log.warn({ err: error, jobId: job.id }, 'could not renew a job lease'));
    }, timings.heartbeatMs);
    heartbeat.unref();
    const isLastAttempt = job.attempts >= job.maxAttempts;
    let finished: JobRow | undefined;
    const startedAt = performance.now();
    const ended = (outcome: 'completed' | 'retry' | 'failed') =>
      options.onAttemptEnd?.(job.kind, outcome, (performance.now() - startedAt) / 1000);
    try {
      const result = await definition.run(payload, {
        job,
        attempt: job.attempts,
        isLastAttempt,
        signal: abort.signal,
      });
      if (state === 'stopped' || abort.signal.aborted) return;
      ended('completed');
      finished = await finishAttempt(db, job.id, workerId, {
        status: 'completed',
        result: result ?? {},
        now: clock.now(),
        forgetPayload: definition.forgetPayloadWhenDone,
      });
    } catch (error) {
      if (state === 'stopped' || abort.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      const now = clock.now();
      ended(isLastAttempt ? 'failed' : 'retry');
      if (isLastAttempt) {
        log.error({ err: error, jobId: job.id, kind: job.kind, attempt: job.attempts }, 'job failed for good');
        finished = await finishAttempt(db, job.id, workerId, {
          status: 'failed',
          error: message,
          result: definition.describeFailure?.(error),
          now,
          forgetPayload: definition.forgetPayloadWhenDone,
        }).catch(() => undefined);
        if (finished && definition.onGiveUp) {
          await definition.onGiveUp(payload, message, finished).catch((giveUpError: unknown) => {
            log.warn({ err: giveUpError, jobId: job.id }, 'a failed job could not report its failure');
          });
        }
      } else {
        const runAt = new Date(now.getTime() + (definition.retryDelayMs?.(job.attempts) ?? backoffFor(job.attempts)));
        log.warn({ err: error, jobId: job.id, kind: job.kind, attempt: job.attempts, runAt }, 'job failed; will retry');
        finished = await finishAttempt(db, job.id, workerId, { status: 'queued', error: message, runAt, now }).catch(
          () => undefined,
        );
      }
    } finally {
      clearInterval(heartbeat);
    }
    if (finished) settle(finished);
  }

  function launch(job: JobRow): void {
    const abort = new AbortController();
    const done = execute(job, abort)
      .catch((error: unknown) => log.error({ err: error, jobId: job.id }, 'job runner error'))
      .finally(() => {
        running.delete(job.id);
        if (state === 'started') pump();
      });
    running.set(job.id, { job, abort, done });
  }

  /** Claims due jobs while slots are free. One pump at a time; a wake during one runs another after it. */
  function pump(): void {
    if (state !== 'started' || isPaused) return;
    if (isPumping) {
      pumpAgain = true;
      return;
    }
    isPumping = true;
    void (async () => {
      try {
        do {
          pumpAgain = false;
          while (state === 'started' && !isPaused && running.size < timings.concurrency) {
            const job = await claimJob(db, {
              kinds: [...definitions.keys()],
              workerId,
              now: clock.now(),
              leaseMs: timings.leaseMs,
            });
            if (!job) break;
            if (state !== 'started') {
              await finishAttempt(db, job.id, workerId, {
                status: 'queued',
                error: null,
                runAt: clock.now(),
                now: clock.now(),
                refundAttempt: true,
              });
              break;
            }
            launch(job);
          }
        } while (pumpAgain && state === 'started');
      } catch (error) {
        if (state === 'started') log.warn({ err: error }, 'could not claim jobs');
      } finally {
        isPumping = false;
      }
    })();
  }

  function schedulePoll(): void {
    pollTimer = setTimeout(() => {
      pump();
      waiters
        .check()
        .catch(() => undefined)
        .finally(() => {
          if (state === 'started') schedulePoll();
        });
    }, timings.pollMs);
    pollTimer.unref();
  }

  return {
    workerId,
    register(registry, deps) {
      for (const definition of registry) {
        if (definitions.has(definition.kind)) throw new Error(`The job kind ${definition.kind} is defined twice`);
        definitions.set(definition.kind, bindDefinition(definition, deps));
      }
    },
    define(kind, definition) {
      definitions.set(kind, definition as unknown as RunnableJob);
    },
    async enqueue(kind, payload, enqueueOptions = {}) {
      const definition = definitions.get(kind);
      const now = clock.now();
      const job = await insertJob(
        enqueueOptions.db ?? db,
        {
          kind,
          payload: checkedPayload(definitions.get(kind), kind, payload),
          maxAttempts: definition?.maxAttempts ?? 1,
          concurrencyKey: enqueueOptions.concurrencyKey,
          reference: enqueueOptions.reference,
          runAt: new Date(now.getTime() + (enqueueOptions.delayMs ?? 0)),
        },
        now,
      );
      pump();
      return job;
    },
    async recordAttempted(kind, payload, outcome, enqueueOptions = {}) {
      const now = clock.now();
      const isCompleted = outcome.status === 'completed';
      return insertJob(
        enqueueOptions.db ?? db,
        {
          kind,
          // Only a payload that will run is checked: a completed one is kept for its reference (often empty).
          payload: isCompleted
            ? definitions.get(kind)?.forgetPayloadWhenDone
              ? {}
              : (payload as Record<string, unknown>)
            : checkedPayload(definitions.get(kind), kind, payload),
          maxAttempts: definitions.get(kind)?.maxAttempts ?? 1,
          concurrencyKey: enqueueOptions.concurrencyKey,
          reference: enqueueOptions.reference,
          attempts: 1,
          status: isCompleted ? 'completed' : 'queued',
          lastError: isCompleted ? null : outcome.error,
          runAt: isCompleted ? now : new Date(now.getTime() + backoffFor(1)),
        },
        now,
      );
    },
    async enqueueOnce(kind, payload, enqueueOptions = {}) {
      const definition = definitions.get(kind);
      const checked = checkedPayload(definitions.get(kind), kind, payload);
      const singletonKey = enqueueOptions.singletonKey ?? definition?.singletonKey?.(checked);
      if (!singletonKey) throw new Error(`The ${kind} job has no singleton key`);
      const newJob = {
        kind,
        payload: checked,
        maxAttempts: definition?.maxAttempts ?? 1,
        singletonKey,
        reference: enqueueOptions.reference,
      };
      // The insert yields to the job of the key; that job may end before it is read, and a new one is queued then.
      for (let tries = 0; ; tries++) {
        const now = clock.now();
        const inserted = await insertSingletonJob(db, { ...newJob, runAt: now }, now);
        if (inserted) return inserted;
        const joined = await findUnfinishedSingletonJob(db, singletonKey);
        if (joined) return joined;
        if (tries >= 3) throw new Error(`could not queue or join the job ${singletonKey}`);
      }
    },
    findQueued: (kind, concurrencyKey) => findQueuedJob(db, kind, concurrencyKey),
    hasRunning: (concurrencyKey) => hasRunningJob(db, concurrencyKey),
    findUnfinished: (concurrencyKey) => findUnfinishedJobs(db, concurrencyKey),
    async runNow(jobId) {
      if (state === 'closing' || state === 'stopped') return findJob(db, jobId);
      const job = await claimJob(db, {
        kinds: [...definitions.keys()],
        workerId,
        now: clock.now(),
        leaseMs: timings.leaseMs,
        jobId,
      });
      if (!job) return findJob(db, jobId);
      const abort = new AbortController();
      const done = execute(job, abort).finally(() => running.delete(job.id));
      running.set(job.id, { job, abort, done });
      await done;
      return findJob(db, jobId);
    },
    isStopping: () => state === 'closing' || state === 'stopped',
    waitFor: (jobId, timeoutMs) => waiters.waitFor(jobId, timeoutMs),
    async start() {
      if (state !== 'idle') return;
      if (options.isExclusiveDatabase) {
        const resumed = await requeueAllRunning(db, clock.now());
        if (resumed > 0) log.info({ jobs: resumed }, 'resuming jobs a stopped process left running');
      }
      state = 'started';
      if (options.jobEndFeedUrl) {
        jobEndFeed = startPostgresChangeFeed({
          url: options.jobEndFeedUrl,
          channel: JOB_END_CHANNEL,
          log,
          events: {
            onNotification: (jobId) => waiters.handleJobEnd(jobId),
            onLost: () => {},
            // Ends announced while the feed was down are unknown: look at every awaited job once.
            onLive: () => void waiters.check().catch(() => undefined),
          },
        });
      }
      schedulePoll();
      pump();
    },
    wake: () => pump(),
    pause() {
      isPaused = true;
    },
    resume() {
      isPaused = false;
      pump();
    },
    async close() {
      if (state === 'stopped' || state === 'closing') return;
      const wasStarted = state === 'started';
      state = 'closing';
      clearTimeout(pollTimer);
      if (!wasStarted && running.size === 0) {
        state = 'stopped';
        waiters.close();
        return;
      }
      const everything = Promise.allSettled([...running.values()].map((entry) => entry.done));
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise((resolve) => {
        timer = setTimeout(resolve, timings.shutdownWaitMs);
      });
      await Promise.race([everything, deadline]);
      clearTimeout(timer);
      const now = clock.now();
      state = 'stopped';
      for (const entry of running.values()) {
        entry.abort.abort(new Error('the process is stopping'));
        // Handed back without counting the attempt: the next process resumes it at once.
        await finishAttempt(db, entry.job.id, workerId, {
          status: 'queued',
          error: null,
          runAt: now,
          now,
          refundAttempt: true,
        }).catch((error: unknown) => log.warn({ err: error, jobId: entry.job.id }, 'could not hand a job back'));
      }
      waiters.close();
      await jobEndFeed?.close();
    },
    halt() {
      state = 'stopped';
      clearTimeout(pollTimer);
      waiters.close();
      void jobEndFeed?.close();
      for (const entry of running.values()) entry.abort.abort(new Error('the process was stopped'));
    },
  };
}
