import type { z } from 'zod';
import type { AnyJobDefinition, JobPayloads, JobResult, JobRun } from './job-definition.js';
import type { JobRow, Queryable } from './jobs.repository.js';

// The job runner's settings and interface (job-runner.ts builds it). Kept apart so that the runner's file holds
// only its machinery (issue 29: no file over 400 lines).

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

/**
 * A kind as the runner runs it: a registry definition bound to the app's context (register), or one a test writes
 * directly (define). Without a schema the payload is passed as stored.
 */
export type RunnableJob<Payload = Record<string, unknown>> = {
  /** The payload's schema, checked when the job is queued and before each attempt. */
  payload?: z.ZodType<Payload>;
  maxAttempts: number;
  run(payload: Payload, run: JobRun): Promise<JobResult>;
  singletonKey?(payload: Payload): string;
  forgetPayloadWhenDone?: boolean;
  onGiveUp?(payload: Payload, error: string, job: JobRow): Promise<void>;
  retryDelayMs?(failedAttempt: number): number;
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
  /**
   * The work's identity across processes: while a job of this key is queued or running, asking again joins it.
   * Defaults to the kind's own singletonKey of the payload.
   */
  singletonKey?: string;
  reference?: string;
};

/** What happened to work tried once outside the runner, so that the runner retries it (or only remembers it). */
export type AttemptedOutcome = { status: 'completed' } | { status: 'retry'; error: string };

/** Payloads by kind: the app's kinds (JobPayloads) unless a test runs kinds of its own. */
export type PayloadsByKind = object;

export type JobRunner<Payloads extends PayloadsByKind = JobPayloads> = {
  readonly workerId: string;
  /** Runs the kinds of the registry, their handlers given `deps` (the app's context). Before start(). */
  register<Deps>(definitions: readonly AnyJobDefinition<Deps>[], deps: Deps): void;
  /** Runs one kind as written (tests of the runner itself). */
  define<Payload = Record<string, unknown>>(kind: string, definition: RunnableJob<Payload>): void;
  /** Queues a job; its payload is checked against its kind's schema (an invalid one throws, nothing is queued). */
  enqueue<Kind extends keyof Payloads & string>(
    kind: Kind,
    payload: Payloads[Kind],
    options?: EnqueueOptions,
  ): Promise<JobRow>;
  /**
   * Records work whose first attempt the caller made itself: completed (kept for its reference, the payload may be
   * empty then), or queued for the next attempt after the first backoff.
   */
  recordAttempted<Kind extends keyof Payloads & string>(
    kind: Kind,
    payload: Payloads[Kind] | Record<string, never>,
    outcome: AttemptedOutcome,
    options?: EnqueueOptions,
  ): Promise<JobRow>;
  /** Queues the work unless a job of its singleton key is queued or running in any process; answers that job then. */
  enqueueOnce<Kind extends keyof Payloads & string>(
    kind: Kind,
    payload: Payloads[Kind],
    options?: EnqueueOnceOptions,
  ): Promise<JobRow>;
  /** The queued job of the same kind and key, if one waits: new requests of the same work may join it. */
  findQueued(kind: keyof Payloads & string, concurrencyKey: string): Promise<JobRow | undefined>;
  hasRunning(concurrencyKey: string): Promise<boolean>;
  /** The queued and running jobs of a key. */
  findUnfinished(concurrencyKey: string): Promise<JobRow[]>;
  /**
   * Runs the job here and now if no runner holds it and it is due (a caller that wants the first attempt inline,
   * as mail does); answers the job as it stands afterwards. Once the runner is stopping it claims nothing and
   * answers the job unchanged.
   */
  runNow(jobId: string): Promise<JobRow | undefined>;
  /** Whether close() or halt() has begun: runNow no longer claims, a queued job is left to the next process. */
  isStopping(): boolean;
  /**
   * Resolves with the job once it is completed or failed, whichever process ran it; rejects at the bound, and once
   * this runner has stopped (nothing here watches for the end any more: a shutdown must not wait out the bound).
   */
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
