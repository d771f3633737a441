import { describe, expect, it } from 'vitest';
import { addNotification, addTaskEvent, isTaskRunning, type TaskProgressEvent } from './task-progress';

const event = (taskId: string, status: TaskProgressEvent['status'] = 'progress', progress = 10): TaskProgressEvent => ({
  taskId,
  type: 'cache-refresh',
  status,
  message: `${taskId} ${status}`,
  progress,
  timestamp: '2025-01-01T00:00:00.000Z',
});

describe('task progress store', () => {
  it('replaces the earlier event of the same task', () => {
    const tasks = addTaskEvent([event('a', 'started', 0), event('b')], event('a', 'completed', 100));
    expect(tasks.map((task) => [task.taskId, task.status])).toEqual([
      ['b', 'progress'],
      ['a', 'completed'],
    ]);
  });

  it('keeps the last 50 tasks', () => {
    let tasks: TaskProgressEvent[] = [];
    for (let index = 0; index < 60; index += 1) tasks = addTaskEvent(tasks, event(`t${index}`));
    expect(tasks).toHaveLength(50);
    expect(tasks[0]?.taskId).toBe('t10');
    expect(tasks.at(-1)?.taskId).toBe('t59');
  });

  it('keeps the last 20 system notifications', () => {
    let notifications: Parameters<typeof addNotification>[0] = [];
    for (let index = 0; index < 25; index += 1) {
      notifications = addNotification(notifications, {
        title: `n${index}`,
        message: '',
        level: 'info',
        timestamp: '2025-01-01T00:00:00.000Z',
      });
    }
    expect(notifications).toHaveLength(20);
    expect(notifications[0]?.title).toBe('n5');
  });

  it('counts started and progress as running, completed and failed as final', () => {
    expect(isTaskRunning(event('a', 'started'))).toBe(true);
    expect(isTaskRunning(event('a', 'progress'))).toBe(true);
    expect(isTaskRunning(event('a', 'completed'))).toBe(false);
    expect(isTaskRunning(event('a', 'failed'))).toBe(false);
  });
});
