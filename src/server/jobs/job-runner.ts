import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { type ChangeFeed, startPostgresChangeFeed } from '../adapters/change-feed/postgres-change-feed.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import {
  claimJob,
  findJob,
  findJobs,
  findQueuedJob,
  findUnfinishedJobs,
  findUnfinishedSingletonJob,
  finishAttempt,
  hasRunningJob,
  insertJob,
  insertSingletonJob,
  type JobRow,
  type Queryable,
  renewLease,
  requeueAllRunning,
} from './jobs.repository.js';

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

export type JobTimings = {
  /** How long a claim holds without renewal; a dead process's job is taken over after this. */
  leaseMs: number;
  /** How often the lease is renewed while a job runs (well below leaseMs). */
  heartbeatMs: number;
  /** How often an idle runner looks for due jobs (new local jobs wake it at once). */
  pollMs: number;
  /** The first retry's delay; each further retry doubles it, up to maxBackoffMs. */
  backoffBaseMs: number;
  maxBackoffMs: number;
  /** Jobs run at the same time in one process. */
  concurrency: number;
  /** On a graceful stop, how long running jobs may take before they are handed back to the queue. */
  shutdownWaitMs: number;
};

export const defaultJobTimings: JobTimings = {
  leaseMs: 60_000,
  heartbeatMs: 15_000,
  pollMs: 1_000,
  backoffBaseMs: 5_000,
  maxBackoffMs: 10 * 60_000,
  concurrency: 4,
  shutdownWaitMs: 15_000,
};

/** What a handler receives besides its payload. */
export type JobRun = {
  readonly job: JobRow;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly isLastAttempt: boolean;
  /** Aborted when this runner lost the job (lease taken over) or stops without waiting. */
  readonly signal: AbortSignal;
};

export type JobDefinition<Payload extends Record<string, unknown>> = {
  /** Attempts before the job fails for good; a handler that throws is retried with backoff until then. */
  maxAttempts: number;
  run(payload: Payload, run: JobRun): Promise<Record<string, unknown> | undefined>;
  /** Clears the payload once the job is over (it may hold a secret, as a mail's text does). */
  forgetPayloadWhenDone?: boolean;
  /** Called once when the job fails for good (attempts spent), e.g. to tell its owner. */
  onGiveUp?(payload: Payload, error: string, job: JobRow): Promise<void>;
  /** The delay after a failed attempt (1 for the first), when the kind keeps its own schedule instead of the backoff. */
  retryDelayMs?(failedAttempt: number): number;
  /**
   * What to keep of the error that failed the job for good, as its result: for whoever waits for the job in another
   * process and answers that error (the error message alone is kept otherwise).
   */
  describeFailure?(error: unknown): Record<string, unknown> | undefined;
};

export type EnqueueOptions = {
  concurrencyKey?: string;
  reference?: string;
  /** Delay before the first attempt. */
  delayMs?: number;
  /** Write the job in this transaction, so that it exists exactly when what it is about does. */
  db?: Queryable;
};

export type EnqueueOnceOptions = {
  /** The work's identity across processes: while a job of this key is queued or running, asking again joins it. */
  singletonKey: string;
  reference?: string;
};

/** What happened to work tried once outside the runner, so that the runner retries it (or only remembers it). */
export type AttemptedOutcome = { status: 'completed' } | { status: 'retry'; error: string };

export type JobRunner = {
  readonly workerId: string;
  define<Payload extends Record<string, unknown>>(kind: string, definition: JobDefinition<Payload>): void;
  enqueue(kind: string, payload: Record<string, unknown>, options?: EnqueueOptions): Promise<JobRow>;
  /**
   * Records work whose first attempt the caller made itself: completed (kept for its reference), or queued for
   * the next attempt after the first backoff.
   */
  recordAttempted(
    kind: string,
    payload: Record<string, unknown>,
    outcome: AttemptedOutcome,
    options?: EnqueueOptions,
  ): Promise<JobRow>;
  /** Queues the work unless a job of its singleton key is queued or running in any process; answers that job then. */
  enqueueOnce(kind: string, payload: Record<string, unknown>, options: EnqueueOnceOptions): Promise<JobRow>;
  /** The queued job of the same kind and key, if one waits: new requests of the same work may join it. */
  findQueued(kind: string, concurrencyKey: string): Promise<JobRow | undefined>;
  hasRunning(concurrencyKey: string): Promise<boolean>;
  /** The queued and running jobs of a key. */
  findUnfinished(concurrencyKey: string): Promise<JobRow[]>;
  /**
   * Runs the job here and now if no runner holds it and it is due (a caller that wants the first attempt inline,
   * as mail does); answers the job as it stands afterwards.
   */
  runNow(jobId: string): Promise<JobRow | undefined>;
  /** Resolves with the job once it is completed or failed, whichever process ran it; rejects at the bound. */
  waitFor(jobId: string, timeoutMs: number): Promise<JobRow>;
  /** Begins claiming (after the definitions are in). */
  start(): Promise<void>;
  /** Looks for due jobs now instead of at the next poll. */
  wake(): void;
  /** Stops claiming new jobs until resume() (running ones go on); tests use it to line work up. */
  pause(): void;
  resume(): void;
  /** Stops claiming, lets running jobs finish within shutdownWaitMs, hands the rest back to the queue. */
  close(): Promise<void>;
  /**
   * Stops at once as a killed process would: no more claims or heartbeats, running jobs keep their rows until
   * the lease runs out. For tests of the takeover.
   */
  halt(): void;
};

type Running = { job: JobRow; abort: AbortController; done: Promise<void> };

export function createJobRunner(options: {
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
}): JobRunner {
  const { db, clock, log } = options;
  const timings: JobTimings = { ...defaultJobTimings, ...options.timings };
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const definitions = new Map<string, JobDefinition<Record<string, unknown>>>();
  const running = new Map<string, Running>();
  const waiters = new Map<string, Set<(job: JobRow) => void>>();
  let state: 'idle' | 'started' | 'closing' | 'stopped' = 'idle';
  let pollTimer: NodeJS.Timeout | undefined;
  let waitTimer: NodeJS.Timeout | undefined;
  let isPumping = false;
  let isPaused = false;
  let pumpAgain = false;
  let jobEndFeed: ChangeFeed | undefined;

  const backoffFor = (attempt: number) =>
    Math.min(timings.maxBackoffMs, timings.backoffBaseMs * 2 ** Math.max(0, attempt - 1));

  const settle = (job: JobRow) => {
    if (job.status !== 'completed' && job.status !== 'failed') return;
    const listeners = waiters.get(job.id);
    if (!listeners) return;
    waiters.delete(job.id);
    for (const listener of listeners) listener(job);
  };

  async function execute(job: JobRow, abort: AbortController): Promise<void> {
    const definition = definitions.get(job.kind);
    if (!definition) return;
    const heartbeat = setInterval(() => {
      if (state === 'stopped' || abort.signal.aborted) {
        clearInterval(heartbeat);
        return;
      }
      const now = clock.now();
      renewLease(db, job.id, workerId, new Date(now.getTime() + timings.leaseMs), now)
        .then((isOurs) => {
          if (!isOurs) abort.abort(new Error('the job was taken over by another runner'));
        })
        .catch((error: unknown) => log.warn({ err: error, jobId: job.id }, 'could not renew a job lease'));
    }, timings.heartbeatMs);
    heartbeat.unref();
    const isLastAttempt = job.attempts >= job.maxAttempts;
    let finished: JobRow | undefined;
    const startedAt = performance.now();
    const ended = (outcome: 'completed' | 'retry' | 'failed') =>
      options.onAttemptEnd?.(job.kind, outcome, (performance.now() - startedAt) / 1000);
    try {
      const result = await definition.run(job.payload, {
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
          await definition.onGiveUp(job.payload, message, finished).catch((giveUpError: unknown) => {
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

  /** Polls the rows of awaited jobs that other processes run. */
  async function checkWaiters(): Promise<void> {
    if (waiters.size === 0) return;
    for (const job of await findJobs(db, [...waiters.keys()])) settle(job);
  }

  /** Another process announced the end of a job: settles whoever here waits for it. */
  function handleJobEnd(jobId: string): void {
    if (!waiters.has(jobId)) return;
    findJob(db, jobId)
      .then((job) => job && settle(job))
      .catch(() => undefined);
  }

  function schedulePoll(): void {
    pollTimer = setTimeout(() => {
      pump();
      checkWaiters()
        .catch(() => undefined)
        .finally(() => {
          if (state === 'started') schedulePoll();
        });
    }, timings.pollMs);
    pollTimer.unref();
  }

  return {
    workerId,
    define(kind, definition) {
      definitions.set(kind, definition as unknown as JobDefinition<Record<string, unknown>>);
    },
    async enqueue(kind, payload, enqueueOptions = {}) {
      const definition = definitions.get(kind);
      const now = clock.now();
      const job = await insertJob(
        enqueueOptions.db ?? db,
        {
          kind,
          payload,
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
          payload: isCompleted && definitions.get(kind)?.forgetPayloadWhenDone ? {} : payload,
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
    async enqueueOnce(kind, payload, enqueueOptions) {
      const newJob = {
        kind,
        payload,
        maxAttempts: definitions.get(kind)?.maxAttempts ?? 1,
        singletonKey: enqueueOptions.singletonKey,
        reference: enqueueOptions.reference,
      };
      // The insert yields to the job of the key; that job may end before it is read, and a new one is queued then.
      for (let tries = 0; ; tries++) {
        const now = clock.now();
        const inserted = await insertSingletonJob(db, { ...newJob, runAt: now }, now);
        if (inserted) return inserted;
        const joined = await findUnfinishedSingletonJob(db, enqueueOptions.singletonKey);
        if (joined) return joined;
        if (tries >= 3) throw new Error(`could not queue or join the job ${enqueueOptions.singletonKey}`);
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
    waitFor(jobId, timeoutMs) {
      return new Promise<JobRow>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.get(jobId)?.delete(listener);
          reject(new Error(`job ${jobId} did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (job: JobRow) => {
          clearTimeout(timer);
          resolve(job);
        };
        let listeners = waiters.get(jobId);
        if (!listeners) {
          listeners = new Set();
          waiters.set(jobId, listeners);
        }
        listeners.add(listener);
        findJob(db, jobId)
          .then((job) => job && settle(job))
          .catch(() => undefined);
        // Nobody polls a runner that is not started (a closed app): check on our own meanwhile.
        if (state !== 'started' && !waitTimer) {
          const poll = () => {
            waitTimer = setTimeout(() => {
              checkWaiters()
                .catch(() => undefined)
                .finally(() => {
                  waitTimer = undefined;
                  if (waiters.size > 0 && state !== 'started' && state !== 'stopped') poll();
                });
            }, timings.pollMs);
            waitTimer.unref();
          };
          poll();
        }
      });
    },
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
            onNotification: handleJobEnd,
            onLost: () => {},
            // Ends announced while the feed was down are unknown: look at every awaited job once.
            onLive: () => void checkWaiters().catch(() => undefined),
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
      clearTimeout(waitTimer);
      await jobEndFeed?.close();
    },
    halt() {
      state = 'stopped';
      clearTimeout(pollTimer);
      clearTimeout(waitTimer);
      void jobEndFeed?.close();
      for (const entry of running.values()) entry.abort.abort(new Error('the process was stopped'));
    },
  };
}
