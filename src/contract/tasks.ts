import { z } from 'zod';
import { type TaskProgressEvent, taskProgressEventSchema } from './realtime.js';

// Background tasks (package sync, pre-cache, cache work) as the task-progress widget shows them. Live
// updates come over the realtime channel; GET /api/tasks lets a page opened later catch up.

/** How many recent tasks GET /api/tasks returns (the widget's store keeps 50, spec seller-app §4). */
export const RECENT_TASKS_LIMIT = 50;

/** GET /api/tasks: the user's most recent tasks, newest first, each as its latest task-progress event. */
export const recentTasksResponse = z.array(taskProgressEventSchema);
export type RecentTasks = z.infer<typeof recentTasksResponse>;

const taskTypeLabels: Record<TaskProgressEvent['type'], string> = {
  'cache-refresh': 'Cache Refresh',
  'cache-clear': 'Cache Clear',
  'package-pre-cache': 'Package Pre-cache',
  'github-sync': 'GitHub Sync',
  'database-operation': 'Database Operation',
};

/**
 * The words a screen shows for a task. A package sync keeps the type `github-sync` on the wire, but is named after
 * the code host that ran it (`data.codeHost`): the embedded one is the local repository folder, not GitHub.
 */
export function taskLabel(task: Pick<TaskProgressEvent, 'type' | 'data'>): string {
  if (task.type === 'github-sync') {
    const codeHost = task.data?.codeHost;
    if (codeHost === 'github') return 'GitHub Sync';
    return codeHost === 'local' ? 'Local Repository Sync' : 'Repository Sync';
  }
  return taskTypeLabels[task.type] ?? task.type;
}
