import { asc, eq, notInArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import { plans } from '../../db/schema/index.js';

// The queries of the platform's plans (the `plans` table, which this domain alone writes).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'delete'>;

export type PlanRow = typeof plans.$inferSelect;
export type NewPlanRow = typeof plans.$inferInsert;

export async function hasAnyPlan(db: Queryable): Promise<boolean> {
  return hasAnyRow(db.select({ id: plans.id }).from(plans).limit(1));
}

/** Inserts plans, leaving a plan another process inserted first as it is. */
export async function insertPlansIfAbsent(db: Queryable, rows: NewPlanRow[]): Promise<void> {
  await db.insert(plans).values(rows).onConflictDoNothing({ target: plans.id });
}

export function selectPlansInOrder(db: Queryable): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.sortOrder), asc(plans.id));
}

export async function findPlanRow(db: Queryable, planId: string): Promise<PlanRow | undefined> {
  return firstRow(db.select().from(plans).where(eq(plans.id, planId)).limit(1));
}

/** Deletes every plan whose id is not in `keptIds`; answers the deleted plans' ids and names. */
export function deletePlansNotIn(db: Queryable, keptIds: string[]): Promise<{ id: string; name: string }[]> {
  return db.delete(plans).where(notInArray(plans.id, keptIds)).returning({ id: plans.id, name: plans.name });
}

/** Writes a plan: inserted with `createdAt`, or its fields replaced when its id exists. */
export async function upsertPlan(db: Queryable, values: Omit<NewPlanRow, 'createdAt'>, now: Date): Promise<void> {
  await db
    .insert(plans)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({ target: plans.id, set: values });
}
