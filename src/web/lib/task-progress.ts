import type { SystemNotification, TaskProgressEvent } from '@contract/realtime';
import { useSyncExternalStore } from 'react';
import { SYSTEM_NOTIFICATIONS_KEEP, TASK_PROGRESS_KEEP } from './constants';

export type { SystemNotification, TaskProgressEvent };

/** started and progress are running; completed and failed are final (spec seller-app §4). */
export const isTaskRunning = (task: Pick<TaskProgressEvent, 'status'>) =>
  task.status === 'started' || task.status === 'progress';

/** Newest last; an event replaces the earlier one of its task; at most `keep` entries. */
export function addTaskEvent(
  tasks: readonly TaskProgressEvent[],
  event: TaskProgressEvent,
  keep: number = TASK_PROGRESS_KEEP,
): TaskProgressEvent[] {
  return [...tasks.filter((task) => task.taskId !== event.taskId), event].slice(-keep);
}

/** Newest last; at most `keep` entries. */
export function addNotification(
  notifications: readonly SystemNotification[],
  notification: SystemNotification,
  keep: number = SYSTEM_NOTIFICATIONS_KEEP,
): SystemNotification[] {
  return [...notifications, notification].slice(-keep);
}

type RealtimeState = { tasks: TaskProgressEvent[]; notifications: SystemNotification[] };

let state: RealtimeState = { tasks: [], notifications: [] };
const listeners = new Set<() => void>();

function set(next: RealtimeState) {
  state = next;
  for (const listener of listeners) listener();
}

export const taskProgressStore = {
  addTask: (event: TaskProgressEvent) => set({ ...state, tasks: addTaskEvent(state.tasks, event) }),
  removeTask: (taskId: string) => set({ ...state, tasks: state.tasks.filter((task) => task.taskId !== taskId) }),
  addNotification: (notification: SystemNotification) =>
    set({ ...state, notifications: addNotification(state.notifications, notification) }),
  clear: () => set({ tasks: [], notifications: [] }),
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  getState: () => state,
};

export function useTaskProgress(): RealtimeState {
  return useSyncExternalStore(taskProgressStore.subscribe, taskProgressStore.getState, taskProgressStore.getState);
}
