import type { TaskProgressEvent } from '@contract/realtime';
import { describe, expect, it } from 'vitest';
import { cacheTaskEndToast, newlyEndedCacheTasks, refreshAllLabel, runningTask } from './admin-cache';

const task = (overrides: Partial<TaskProgressEvent>): TaskProgressEvent => ({
  taskId: 't1',
  type: 'cache-refresh',
  status: 'progress',
  message: '',
  progress: 0,
  timestamp: '2026-01-01T00:00:00Z',
  ...overrides,
});

describe('the cache panel', () => {
  it('labels Refresh All Cache by the request and the running task', () => {
    expect(refreshAllLabel(true, undefined)).toBe('Starting...');
    expect(refreshAllLabel(false, task({ progress: 42.4 }))).toBe('Refreshing... 42%');
    expect(refreshAllLabel(false, undefined)).toBe('Refresh All Cache');
  });

  it('finds the running task of a type', () => {
    const tasks = [task({ taskId: 'a', status: 'completed' }), task({ taskId: 'b', type: 'cache-clear' })];
    expect(runningTask(tasks, 'cache-refresh')).toBeUndefined();
    expect(runningTask(tasks, 'cache-clear')?.taskId).toBe('b');
  });

  it('toasts the end of a refresh with its message, or the default', () => {
    expect(cacheTaskEndToast(task({ status: 'completed', message: 'Refreshed 3 packages' }))).toEqual({
      title: 'Cache Refresh Complete',
      description: 'Refreshed 3 packages',
    });
    expect(cacheTaskEndToast(task({ status: 'completed' }))).toMatchObject({
      description: 'Cache refresh operation completed',
    });
    expect(cacheTaskEndToast(task({ status: 'failed' }))).toMatchObject({
      variant: 'destructive',
      title: 'Cache Refresh Failed',
    });
  });

  it('toasts the end of a clear', () => {
    expect(cacheTaskEndToast(task({ type: 'cache-clear', status: 'completed' }))).toEqual({
      title: 'Cache Clear Complete',
      description: 'All cached packages have been cleared',
    });
    expect(cacheTaskEndToast(task({ type: 'cache-clear', status: 'failed' }))).toMatchObject({
      title: 'Cache Clear Failed',
    });
  });

  it('reports each ended cache task once', () => {
    const tasks = [
      task({ taskId: 'a', status: 'completed' }),
      task({ taskId: 'b', status: 'progress' }),
      task({ taskId: 'c', type: 'github-sync', status: 'completed' }),
      task({ taskId: 'd', type: 'cache-clear', status: 'failed' }),
    ];
    expect(newlyEndedCacheTasks(tasks, new Set(['d'])).map((t) => t.taskId)).toEqual(['a']);
  });
});
