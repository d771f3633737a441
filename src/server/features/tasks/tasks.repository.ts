import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, writtenRow } from '../../db/result-rows.js';
import { tasks } from '../../db/schema/index.js';

// The queries of tasks a user watches (the `tasks` table, which this domain alone writes).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;

export type TaskRow = typeof tasks.$inferSelect;
export type NewTaskRow = typeof tasks.$inferInsert;
/** The fields a report changes. */
export type TaskState = Pick<TaskRow, 'status' | 'progress' | 'message' | 'data' | 'updatedAt'>;

export async function insertTask(db: Queryable, values: NewTaskRow): Promise<TaskRow> {
  return writtenRow(db.insert(tasks).values(values).returning(), 'The new task');
}

export async function findTaskRow(db: Queryable, taskId: string): Promise<TaskRow | undefined> {
  return firstRow(db.select().from(tasks).where(eq(tasks.id, taskId)).limit(1));
}

/** The task, its row locked until the transaction `tx` ends (parts of a batch ending at once count one by one). */
export async function lockTaskRow(tx: Queryable, taskId: string): Promise<TaskRow | undefined> {
  return firstRow(tx.select().from(tasks).where(eq(tasks.id, taskId)).for('update'));
}

export async function updateTaskState(db: Queryable, taskId: string, state: TaskState): Promise<void> {
  await db.update(tasks).set(state).where(eq(tasks.id, taskId));
}

/** The user's latest tasks, newest first. */
export function selectRecentTasks(db: Queryable, userId: string, limit: number): Promise<TaskRow[]> {
  return db
    .select()
    .from(tasks)
    .where(eq(tasks.userId, userId))
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(limit);
}
