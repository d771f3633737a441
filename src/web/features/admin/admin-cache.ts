import type { CachedPackage, CacheRefreshAllResponse, CacheStats, CacheTaskResponse } from '@contract/admin';
import type { TaskProgressEvent } from '@contract/realtime';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { failureToast } from '../../components/failure-toast';
import { apiRequest, getJson } from '../../lib/api-client';
import { ADMIN_POLL_INTERVAL_MS } from '../../lib/constants';
import { isTaskRunning } from '../../lib/task-progress';

export type { CachedPackage, CacheStats };

export const cacheStatsQuery = () =>
  queryOptions({ queryKey: ['/api/admin/cache/stats'], queryFn: getJson<CacheStats> });
export const cachedPackagesQuery = () =>
  queryOptions({ queryKey: ['/api/admin/cache/packages'], queryFn: getJson<CachedPackage[]> });

/** Both read again every 30 seconds (spec admin §7). */
export const useCacheStats = () => useQuery({ ...cacheStatsQuery(), refetchInterval: ADMIN_POLL_INTERVAL_MS });
export const useCachedPackages = () => useQuery({ ...cachedPackagesQuery(), refetchInterval: ADMIN_POLL_INTERVAL_MS });

const errorToast = (fallback: string) => (error: unknown) => failureToast('Error', error, fallback);

export const useRefreshAllCache = () =>
  useMutation({
    mutationFn: () => apiRequest<CacheRefreshAllResponse>('POST', '/api/admin/cache/refresh-all'),
    onError: errorToast('Failed to refresh cache'),
  });

export const useRefreshPackageCache = () =>
  useMutation({
    mutationFn: (packageId: string) =>
      apiRequest<CacheTaskResponse>('POST', `/api/admin/cache/refresh/${encodeURIComponent(packageId)}`),
    onError: errorToast('Failed to refresh package cache'),
  });

export const useClearCache = () =>
  useMutation({
    mutationFn: () => apiRequest<CacheTaskResponse>('POST', '/api/admin/cache/clear'),
    onError: errorToast('Failed to clear cache'),
  });

export type CacheTaskType = Extract<TaskProgressEvent['type'], 'cache-refresh' | 'cache-clear'>;
export const cacheTaskTypes: readonly CacheTaskType[] = ['cache-refresh', 'cache-clear'];

/** The newest task of a type, when it is still running. */
export const runningTask = (tasks: readonly TaskProgressEvent[], type: CacheTaskType) =>
  tasks.filter((task) => task.type === type && isTaskRunning(task)).at(-1);

/** Refresh All Cache's label: 'Starting...' while the request runs, then 'Refreshing... N%' while the task runs. */
export function refreshAllLabel(isStarting: boolean, running: TaskProgressEvent | undefined): string {
  if (isStarting) return 'Starting...';
  if (running) return `Refreshing... ${Math.round(running.progress)}%`;
  return 'Refresh All Cache';
}

/** The toast for a cache task that has ended (spec admin §4). */
export function cacheTaskEndToast(task: TaskProgressEvent) {
  if (task.type === 'cache-refresh')
    return task.status === 'completed'
      ? { title: 'Cache Refresh Complete', description: task.message || 'Cache refresh operation completed' }
      : { variant: 'destructive' as const, title: 'Cache Refresh Failed', description: task.message || undefined };
  return task.status === 'completed'
    ? { title: 'Cache Clear Complete', description: 'All cached packages have been cleared' }
    : { variant: 'destructive' as const, title: 'Cache Clear Failed', description: task.message || undefined };
}

/** Cache tasks that have ended and were not handled yet. */
export const newlyEndedCacheTasks = (tasks: readonly TaskProgressEvent[], handled: ReadonlySet<string>) =>
  tasks.filter(
    (task) => cacheTaskTypes.includes(task.type as CacheTaskType) && !isTaskRunning(task) && !handled.has(task.taskId),
  );
