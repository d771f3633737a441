import { desc, eq } from 'drizzle-orm';
import type { TaskProgressEvent, TaskStatus, TaskType } from '../../../contract/realtime.js';
import type { AppContext } from '../../context.js';
import { tasks } from '../../db/schema/index.js';

// Background work a user watches: each task is a row (so that a page opened later can catch up) and a
// stream of task-progress events to the user's sockets, started → progress … → completed or failed,
// all with the same taskId (spec seller-app §3, §4).

export type TaskRow = typeof tasks.$inferSelect;

export type StartTaskInput = {
  /** Who watches the task: the events go to this user's sockets. */
  userId: string;
  type: TaskType;
  message: string;
  data?: Record<string, unknown>;
};

/** A task being worked on. Reporting never throws: a lost progress event must not fail the work itself. */
export type RunningTask = {
  readonly id: string;
  readonly type: TaskType;
  readonly userId: string;
  /** `percent` is clamped to 0..100 and never goes backwards. */
  progress(percent: number, message: string, data?: Record<string, unknown>): Promise<void>;
  complete(message: string, data?: Record<string, unknown>): Promise<void>;
  fail(message: string, data?: Record<string, unknown>): Promise<void>;
};

export function presentTask(row: TaskRow): TaskProgressEvent {
  return {
    taskId: row.id,
    type: row.type,
    status: row.status,
    message: row.message,
    progress: row.progress,
    timestamp: row.updatedAt.toISOString(),
    data: row.data,
  };
}

/** Records the task and sends its `started` event. */
export async function startTask(ctx: AppContext, input: StartTaskInput): Promise<RunningTask> {
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(tasks)
    .values({
      userId: input.userId,
      type: input.type,
      status: 'started',
      progress: 0,
      message: input.message,
      data: input.data ?? {},
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const task = row!;
  ctx.realtime.sendToUser(input.userId, 'task-progress', presentTask(task));
  return reportingTask(ctx, task);
}

/**
 * The task again, for the process that runs its job (which may not be the one that started it, or may run it
 * again after a restart). Undefined when the task is gone (its user was deleted).
 */
export async function resumeTask(ctx: AppContext, taskId: string): Promise<RunningTask | undefined> {
  const [row] = await ctx.db.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return row ? reportingTask(ctx, row) : undefined;
}

function reportingTask(ctx: AppContext, task: TaskRow): RunningTask {
  let lastPercent = task.progress;
  let data: Record<string, unknown> = task.data;
  let isFinal = task.status === 'completed' || task.status === 'failed';

  const report = async (status: TaskStatus, percent: number, message: string, extra?: Record<string, unknown>) => {
    if (isFinal) return;
    if (status === 'completed' || status === 'failed') isFinal = true;
    lastPercent = Math.max(lastPercent, Math.min(100, Math.max(0, Math.round(percent))));
    if (extra) data = { ...data, ...extra };
    const updatedAt = ctx.clock.now();
    const event: TaskProgressEvent = {
      taskId: task.id,
      type: task.type,
      status,
      message,
      progress: lastPercent,
      timestamp: updatedAt.toISOString(),
      data,
    };
    try {
      await ctx.db
        .update(tasks)
        .set({ status, progress: lastPercent, message, data, updatedAt })
        .where(eq(tasks.id, task.id));
    } catch (error) {
      ctx.log.warn({ err: error, taskId: task.id }, 'could not record task progress');
    }
    ctx.realtime.sendToUser(task.userId, 'task-progress', event);
  };

  return {
    id: task.id,
    type: task.type,
    userId: task.userId,
    progress: (percent, message, extra) => report('progress', percent, message, extra),
    complete: (message, extra) => report('completed', 100, message, extra),
    fail: (message, extra) => report('failed', lastPercent, message, extra),
  };
}

/** The user's latest tasks, newest first, each as its latest event. */
export async function listRecentTasks(ctx: AppContext, userId: string, limit: number): Promise<TaskProgressEvent[]> {
  const rows = await ctx.db
    .select()
    .from(tasks)
    .where(eq(tasks.userId, userId))
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(limit);
  return rows.map(presentTask);
}
