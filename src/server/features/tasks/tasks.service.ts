import type { TaskProgressEvent, TaskStatus, TaskType } from '../../../contract/realtime.js';
import type { AppContext } from '../../context.js';
import {
  findTaskRow,
  insertTask,
  lockTaskRow,
  selectRecentTasks,
  type TaskRow,
  updateTaskState,
} from './tasks.repository.js';

// Background work a user watches: each task is a row (so that a page opened later can catch up) and a
// stream of task-progress events to the user's sockets, started → progress … → completed or failed,
// all with the same taskId (spec seller-app §3, §4).

export type { TaskRow } from './tasks.repository.js';

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
  const task = await insertTask(ctx.db, {
    userId: input.userId,
    type: input.type,
    status: 'started',
    progress: 0,
    message: input.message,
    data: input.data ?? {},
    createdAt: now,
    updatedAt: now,
  });
  ctx.realtime.sendToUser(input.userId, 'task-progress', presentTask(task));
  return reportingTask(ctx, task);
}

/**
 * The task again, for the process that runs its job (which may not be the one that started it, or may run it
 * again after a restart). Undefined when the task is gone (its user was deleted).
 */
export async function resumeTask(ctx: AppContext, taskId: string): Promise<RunningTask | undefined> {
  const row = await findTaskRow(ctx.db, taskId);
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
      await updateTaskState(ctx.db, task.id, { status, progress: lastPercent, message, data, updatedAt });
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
  const rows = await selectRecentTasks(ctx.db, userId, limit);
  return rows.map(presentTask);
}

/** One finished part of a batch task (a cache refresh's sync of one package), keyed so a repeated report counts once. */
export type BatchItem = { key: string; name: string; isFailed: boolean };

/** What a batch task says after `done` of its `total` parts are over, and at its end (`failed` names the failed parts). */
export type BatchReport = (
  done: number,
  total: number,
  failed: string[],
) => { progressMessage: string; endMessage?: string };

/**
 * Records one finished part of a batch task whose parts run as jobs of their own (`data.total` is set when it
 * starts): a progress event, and once every part is over its end, completed or (when a part failed) failed. The row
 * is locked while it is read and written, so parts ending at once in several processes all count, and once.
 */
export async function recordBatchItem(
  ctx: AppContext,
  taskId: string,
  item: BatchItem,
  describe: BatchReport,
): Promise<void> {
  const events = await ctx.db.transaction(async (tx) => {
    const row = await lockTaskRow(tx, taskId);
    if (!row || row.status === 'completed' || row.status === 'failed') return [];
    const items = Array.isArray(row.data.items) ? (row.data.items as BatchItem[]) : [];
    if (items.some((each) => each.key === item.key)) return [];
    const all = [...items, item];
    const total = typeof row.data.total === 'number' ? row.data.total : all.length;
    const failed = all.filter((each) => each.isFailed).map((each) => each.name);
    const { progressMessage, endMessage } = describe(all.length, total, failed);
    const progress = Math.max(row.progress, Math.min(100, Math.round((all.length / Math.max(1, total)) * 100)));
    const data = { ...row.data, items: all };
    const updatedAt = ctx.clock.now();
    const progressed: TaskRow = { ...row, status: 'progress', progress, message: progressMessage, data, updatedAt };
    const ended: TaskRow | undefined =
      endMessage === undefined
        ? undefined
        : { ...progressed, status: failed.length > 0 ? 'failed' : 'completed', message: endMessage };
    const last = ended ?? progressed;
    await updateTaskState(tx, taskId, { status: last.status, progress, message: last.message, data, updatedAt });
    return ended ? [progressed, ended] : [progressed];
  });
  for (const row of events) ctx.realtime.sendToUser(row.userId, 'task-progress', presentTask(row));
}
