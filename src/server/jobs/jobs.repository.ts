import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { firstRow, hasAnyRow, writtenRow } from '../db/result-rows.js';
import { jobs } from '../db/schema/index.js';

// The queries of the jobs table. Claiming is one statement (`UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP
// LOCKED LIMIT 1)`), so it needs no transaction and two runners never take the same row.

export type JobRow = typeof jobs.$inferSelect;
export type JobStatus = JobRow['status'];

/** The database, or a transaction of it (a job recorded together with what it is about). */
export type Queryable = Pick<Database, 'insert'>;

export type NewJob = {
  kind: string;
  payload: Record<string, unknown>;
  maxAttempts: number;
  concurrencyKey?: string | null;
  /** At most one queued or running job of this key (jobs_singleton_key_idx). */
  singletonKey?: string | null;
  reference?: string | null;
  runAt: Date;
  /** A job whose first attempt already happened outside the runner (mail tries at once). */
  attempts?: number;
  lastError?: string | null;
  status?: 'queued' | 'completed';
};

export async function insertJob(db: Queryable, job: NewJob, now: Date): Promise<JobRow> {
  const status = job.status ?? 'queued';
  return writtenRow(
    db
      .insert(jobs)
      .values({
        kind: job.kind,
        payload: job.payload,
        status,
        maxAttempts: job.maxAttempts,
        concurrencyKey: job.concurrencyKey ?? null,
        singletonKey: job.singletonKey ?? null,
        reference: job.reference ?? null,
        runAt: job.runAt,
        attempts: job.attempts ?? 0,
        lastError: job.lastError ?? null,
        createdAt: now,
        updatedAt: now,
        finishedAt: status === 'completed' ? now : null,
      })
      .returning(),
    'The new job',
  );
}

/**
 * Inserts the job unless one of its singleton key is queued or running (in any process); answers undefined then.
 * One statement against the partial unique index, so two processes inserting at the same instant insert one row.
 */
export async function insertSingletonJob(
  db: Database,
  job: NewJob & { singletonKey: string },
  now: Date,
): Promise<JobRow | undefined> {
  return firstRow(
    db
      .insert(jobs)
      .values({
        kind: job.kind,
        payload: job.payload,
        status: 'queued',
        maxAttempts: job.maxAttempts,
        concurrencyKey: job.concurrencyKey ?? null,
        singletonKey: job.singletonKey,
        reference: job.reference ?? null,
        runAt: job.runAt,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({
        target: jobs.singletonKey,
        where: sql`${jobs.status} in ('queued', 'running') and ${jobs.singletonKey} is not null`,
      })
      .returning(),
  );
}

/** The queued or running job of a singleton key, if there is one. */
export async function findUnfinishedSingletonJob(db: Database, singletonKey: string): Promise<JobRow | undefined> {
  return firstRow(
    db
      .select()
      .from(jobs)
      .where(and(eq(jobs.singletonKey, singletonKey), inArray(jobs.status, ['queued', 'running'])))
      .limit(1),
  );
}

export async function findJob(db: Database, id: string): Promise<JobRow | undefined> {
  return firstRow(db.select().from(jobs).where(eq(jobs.id, id)).limit(1));
}

export async function findJobs(db: Database, ids: string[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(jobs).where(inArray(jobs.id, ids));
}

/** The oldest queued job of a key, which a new request of the same work may join instead of queueing another. */
export async function findQueuedJob(db: Database, kind: string, concurrencyKey: string): Promise<JobRow | undefined> {
  return firstRow(
    db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, kind), eq(jobs.concurrencyKey, concurrencyKey), eq(jobs.status, 'queued')))
      .orderBy(asc(jobs.createdAt))
      .limit(1),
  );
}

export async function findUnfinishedJobs(db: Database, concurrencyKey: string): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.concurrencyKey, concurrencyKey), inArray(jobs.status, ['queued', 'running'])));
}

export async function hasRunningJob(db: Database, concurrencyKey: string): Promise<boolean> {
  return hasAnyRow(
    db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.concurrencyKey, concurrencyKey), eq(jobs.status, 'running')))
      .limit(1),
  );
}

/** The newest job about `reference` (e.g. the last e-mail of a license), per reference. */
export async function findLatestJobsByReference(
  db: Database,
  references: string[],
  kind: string,
): Promise<Map<string, JobRow>> {
  if (references.length === 0) return new Map();
  const rows = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), inArray(jobs.reference, references)))
    .orderBy(desc(jobs.createdAt), desc(jobs.id));
  const latest = new Map<string, JobRow>();
  for (const row of rows) if (row.reference && !latest.has(row.reference)) latest.set(row.reference, row);
  return latest;
}

type ClaimOptions = {
  kinds: string[];
  workerId: string;
  now: Date;
  leaseMs: number;
  /** Claim this job only (a caller that runs its own job at once). */
  jobId?: string;
};

/**
 * Takes one due job: a queued one whose time has come and whose key has no running job, or a running one whose
 * lease ran out (its process stopped). Answers undefined when there is none, or when another runner took the
 * key's turn in the same instant (the unique index on running keys refuses the second).
 */
export async function claimJob(db: Database, options: ClaimOptions): Promise<JobRow | undefined> {
  if (options.kinds.length === 0) return undefined;
  const now = options.now.toISOString();
  const lockedUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const kinds = sql.join(
    options.kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );
  const onlyJob = options.jobId ? sql`and j.id = ${options.jobId}` : sql``;
  try {
    const result = await db.execute(sql`
      update jobs set
        status = 'running', locked_by = ${options.workerId}, locked_until = ${lockedUntil},
        attempts = attempts + 1, updated_at = ${now}
      where id = (
        select j.id from jobs j
        where j.kind in (${kinds}) ${onlyJob}
          and (
            (j.status = 'queued' and j.run_at <= ${now}
              and (j.concurrency_key is null or not exists (
                select 1 from jobs r where r.concurrency_key = j.concurrency_key and r.status = 'running')))
            or (j.status = 'running' and j.locked_until < ${now})
          )
        order by j.run_at, j.created_at
        limit 1
        for update skip locked
      )
      returning id`);
    const id = (result as unknown as { rows: { id: string }[] }).rows[0]?.id;
    return id ? findJob(db, id) : undefined;
  } catch (error) {
    if (isUniqueViolation(error, 'jobs_running_key_idx')) return undefined;
    throw error;
  }
}

/** Renews the lease; false when the job is no longer this runner's (another runner took it over). */
export async function renewLease(db: Database, id: string, workerId: string, lockedUntil: Date, now: Date) {
  return hasAnyRow(
    db
      .update(jobs)
      .set({ lockedUntil, updatedAt: now })
      .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
      .returning({ id: jobs.id }),
  );
}

/** Records the end of an attempt, if the job is still this runner's. */
export async function finishAttempt(
  db: Database,
  id: string,
  workerId: string,
  outcome:
    | { status: 'completed'; result: Record<string, unknown>; now: Date; forgetPayload?: boolean }
    | { status: 'failed'; error: string; result?: Record<string, unknown>; now: Date; forgetPayload?: boolean }
    | { status: 'queued'; error: string | null; runAt: Date; now: Date; refundAttempt?: boolean },
): Promise<JobRow | undefined> {
  const common = {
    lockedBy: null,
    lockedUntil: null,
    updatedAt: outcome.now,
    ...(outcome.status !== 'queued' && outcome.forgetPayload ? { payload: {} } : {}),
  };
  const values =
    outcome.status === 'completed'
      ? { ...common, status: 'completed' as const, result: outcome.result, finishedAt: outcome.now, lastError: null }
      : outcome.status === 'failed'
        ? {
            ...common,
            status: 'failed' as const,
            lastError: outcome.error,
            finishedAt: outcome.now,
            ...(outcome.result ? { result: outcome.result } : {}),
          }
        : {
            ...common,
            status: 'queued' as const,
            runAt: outcome.runAt,
            ...(outcome.error !== null ? { lastError: outcome.error } : {}),
            ...(outcome.refundAttempt ? { attempts: sql`greatest(${jobs.attempts} - 1, 0)` } : {}),
          };
  return firstRow(
    db
      .update(jobs)
      .set(values)
      .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
      .returning(),
  );
}

/**
 * Puts every running job back in the queue. Only for a database no other process can reach (PGlite holds a
 * lock on its folder): what a stopped process left running is then certainly orphaned.
 */
export async function requeueAllRunning(db: Database, now: Date): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: 'queued', lockedBy: null, lockedUntil: null, runAt: now, updatedAt: now })
    .where(eq(jobs.status, 'running'))
    .returning({ id: jobs.id });
  return rows.length;
}
