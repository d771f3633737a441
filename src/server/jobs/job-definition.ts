import type { z } from 'zod';
import type { JobRow } from './jobs.repository.js';

// What a kind of durable job is (issue 29 item 5). Each domain defines its kinds beside itself (`*.job.ts`, e.g.
// features/packages/sync-package.job.ts) with defineJob; src/server/job-registry.ts collects them and the composition
// root hands that registry to the runner. A kind's zod schema is checked when the job is queued and again before
// its handler runs, so a handler only ever sees the payload its kind declares.

/**
 * The payload of each kind, by kind name. Empty here: each `*.job.ts` adds its kind by module augmentation
 * (`declare module '…/jobs/job-definition.js' { interface JobPayloads { 'package-sync': SyncPayload } }`), so
 * that queueing a kind type-checks its payload without the frame importing any domain.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation in each kind's file.
export interface JobPayloads {}

export type JobKind = keyof JobPayloads & string;

/** What a job's handler answers: kept as the job's result (for whoever waits for it). */
export type JobResult = Record<string, unknown> | undefined;

/** What a handler receives besides its payload. */
export type JobRun = {
  readonly job: JobRow;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly isLastAttempt: boolean;
  /** Aborted when this runner lost the job (lease taken over) or stops without waiting. */
  readonly signal: AbortSignal;
};

/** One kind of job: its name, its payload's schema, its attempts and its handler, which receives the app's context. */
export type JobDefinition<Deps, Kind extends string = string, Payload = Record<string, unknown>> = {
  kind: Kind;
  /** Checked when the job is queued and before each attempt; a payload that fails it fails the job at once. */
  payload: z.ZodType<Payload>;
  /** Attempts before the job fails for good; a handler that throws is retried with backoff until then. */
  maxAttempts: number;
  /** The work's identity across processes (enqueueOnce joins an unfinished job of the same key). */
  singletonKey?(payload: Payload): string;
  /** Clears the payload once the job is over (it may hold a secret, as a mail's text does). */
  forgetPayloadWhenDone?: boolean;
  /** The delay after a failed attempt (1 for the first), when the kind keeps its own schedule instead of the backoff. */
  retryDelayMs?(failedAttempt: number): number;
  /**
   * What to keep of the error that failed the job for good, as its result: for whoever waits for the job in another
   * process and answers that error (the error message alone is kept otherwise).
   */
  describeFailure?(error: unknown): Record<string, unknown> | undefined;
  handler(deps: Deps, payload: Payload, run: JobRun): Promise<JobResult>;
  /** Called once when the job fails for good (attempts spent), e.g. to tell its owner. */
  onGiveUp?(deps: Deps, payload: Payload, error: string, job: JobRow): Promise<void>;
};

/** A definition of any kind, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds kinds of different payloads; each is checked by its schema.
export type AnyJobDefinition<Deps> = JobDefinition<Deps, string, any>;

/** Defines a kind of job; the kind's name picks the payload type (JobPayloads) its schema must produce. */
export function defineJob<Deps, Kind extends JobKind>(
  definition: JobDefinition<Deps, Kind, JobPayloads[Kind]>,
): JobDefinition<Deps, Kind, JobPayloads[Kind]> {
  return definition;
}

/**
 * A kind whose handler needs its own dependencies rather than the app's context (mail needs the raw transport,
 * which the context only offers wrapped in the durable mailer): bound to them here, it joins the registry.
 */
export function withOwnDeps<Deps, Own, Kind extends string, Payload>(
  definition: JobDefinition<Own, Kind, Payload>,
  own: Own,
): JobDefinition<Deps, Kind, Payload> {
  const { handler, onGiveUp, ...settings } = definition;
  return {
    ...settings,
    handler: (_deps, payload, run) => handler(own, payload, run),
    onGiveUp: onGiveUp && ((_deps, payload, error, job) => onGiveUp(own, payload, error, job)),
  };
}
