import { z } from 'zod';
import { taskProgressEventSchema } from './realtime.js';

// Background tasks (package sync, pre-cache, cache work) as the task-progress widget shows them. Live
// updates come over the realtime channel; GET /api/tasks lets a page opened later catch up.

/** How many recent tasks GET /api/tasks returns (the widget's store keeps 50, spec seller-app §4). */
export const RECENT_TASKS_LIMIT = 50;

/** GET /api/tasks: the user's most recent tasks, newest first, each as its latest task-progress event. */
export const recentTasksResponse = z.array(taskProgressEventSchema);
export type RecentTasks = z.infer<typeof recentTasksResponse>;
