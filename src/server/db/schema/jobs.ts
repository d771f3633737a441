import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz, uuidPrimaryKey } from './columns.js';

/**
 * Background work that must survive a restart and run once across processes (src/server/jobs): package syncs,
 * dist builds, cache tasks, outgoing e-mail. A runner claims a due row with `FOR UPDATE SKIP LOCKED`, holds it
 * by a lease it renews while working, and on failure puts it back with exponential backoff until its attempts
 * run out. A job whose lease ran out (its process died) is claimed again by another runner.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuidPrimaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed'] }).notNull(),
    /** Jobs sharing a key run one at a time (a package's syncs). */
    concurrencyKey: text('concurrency_key'),
    /** At most one queued or running job per key, across processes: a new request of the same work joins it (a dist zip). */
    singletonKey: text('singleton_key'),
    /** What the job is about, for readers outside the jobs module (e.g. `grant:{id}` for a license e-mail). */
    reference: text('reference'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAt: timestamptz('run_at').notNull(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamptz('locked_until'),
    lastError: text('last_error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    finishedAt: timestamptz('finished_at'),
  },
  (table) => [
    index('jobs_due_idx').on(table.status, table.runAt),
    index('jobs_reference_idx').on(table.reference, table.createdAt),
    // Never two running jobs of one key, even when two runners claim two queued ones at the same instant.
    uniqueIndex('jobs_running_key_idx')
      .on(table.concurrencyKey)
      .where(sql`${table.status} = 'running' and ${table.concurrencyKey} is not null`),
    // What lets two processes asking for the same work at once queue it once (`insert … on conflict do nothing`).
    uniqueIndex('jobs_singleton_key_idx')
      .on(table.singletonKey)
      .where(sql`${table.status} in ('queued', 'running') and ${table.singletonKey} is not null`),
  ],
);
