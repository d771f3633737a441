import { useQueryClient } from '@tanstack/react-query';
import { Database, HardDrive, Loader2, Package, RefreshCw, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { TaskProgressList } from '../../components/task-progress';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { SectionCard } from '../../components/ui/card';
import { toast } from '../../components/ui/use-toast';
import {
  ADMIN_TASK_BANNER_MAX_TASKS,
  CACHE_PACKAGE_REFETCH_DELAY_MS,
  CACHE_TASK_END_REFETCH_DELAY_MS,
} from '../../lib/constants';
import { formatDateTime } from '../../lib/format-date';
import { hasNothingLoaded } from '../../lib/query-state';
import { isTaskRunning, useTaskProgress } from '../../lib/task-progress';
import {
  type CachedPackage,
  cachedPackagesQuery,
  cacheStatsQuery,
  cacheTaskEndToast,
  cacheTaskTypes,
  newlyEndedCacheTasks,
  refreshAllLabel,
  runningTask,
  useCachedPackages,
  useCacheStats,
  useClearCache,
  useRefreshAllCache,
  useRefreshPackageCache,
} from './admin-cache';

const formatTime = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : 'Never');

/** The Cache tab (spec admin §2, §4): task banner, statistics, the two cache tasks and each package's state. */
export function CacheTab() {
  const queryClient = useQueryClient();
  const { tasks } = useTaskProgress();
  const stats = useCacheStats();
  const packages = useCachedPackages();
  const refreshAll = useRefreshAllCache();
  const clear = useClearCache();
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const cacheTasks = tasks.filter((task) => cacheTaskTypes.includes(task.type as (typeof cacheTaskTypes)[number]));
  const runningRefresh = runningTask(tasks, 'cache-refresh');
  const runningClear = runningTask(tasks, 'cache-clear');

  // Tasks that had ended before this tab opened were announced already.
  const handled = useRef<Set<string> | null>(null);
  if (handled.current === null)
    handled.current = new Set(cacheTasks.filter((task) => !isTaskRunning(task)).map((task) => task.taskId));

  useEffect(() => {
    const seen = handled.current;
    if (!seen) return;
    const ended = newlyEndedCacheTasks(tasks, seen);
    if (ended.length === 0) return;
    for (const task of ended) {
      seen.add(task.taskId);
      toast(cacheTaskEndToast(task));
    }
    const timer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: cacheStatsQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: cachedPackagesQuery().queryKey });
    }, CACHE_TASK_END_REFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [tasks, queryClient]);

  const isRefreshing = refreshAll.isPending || Boolean(runningRefresh);
  const isClearing = clear.isPending || Boolean(runningClear);

  return (
    <section className="space-y-6">
      {cacheTasks.length > 0 && <TaskProgressList limit={ADMIN_TASK_BANNER_MAX_TASKS} types={cacheTaskTypes} />}

      <SectionCard
        icon={Database}
        title="Cache Statistics"
        description="Cached copies of packages kept in object storage."
      >
        {hasNothingLoaded(stats) ? (
          <LoadError error={stats.error} fallback="Failed to load cache statistics" />
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="cache-stats">
            <StatTile label="Total Packages" value={stats.data?.totalPackages ?? (stats.isLoading ? '...' : 0)} />
            <StatTile label="Cached Packages" value={stats.data?.cachedPackages ?? (stats.isLoading ? '...' : 0)} />
            <StatTile label="Cache Size" value={stats.data?.cacheSize ?? (stats.isLoading ? '...' : '0 B')} />
            <StatTile
              label="Last Updated"
              value={stats.isLoading ? '...' : formatTime(stats.data?.lastUpdated)}
              small
            />
          </div>
        )}
      </SectionCard>

      <SectionCard
        icon={HardDrive}
        title="Cache Management"
        description="Rebuild or remove the cached package archives."
        contentClassName="space-y-4"
      >
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => refreshAll.mutate()} disabled={isRefreshing || isClearing}>
            {isRefreshing ? <Loader2 className="animate-spin" /> : <RefreshCw />}
            {refreshAllLabel(refreshAll.isPending, runningRefresh)}
          </Button>
          <Button variant="destructive" onClick={() => setConfirmOpen(true)} disabled={isRefreshing || isClearing}>
            {isClearing ? <Loader2 className="animate-spin" /> : <Trash2 />}
            {isClearing ? 'Clearing...' : 'Clear All Cache'}
          </Button>
        </div>
        <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
          <li>Refresh All Cache syncs every package from its code host and builds the archives that are missing.</li>
          <li>Clear All Cache deletes every cached archive from object storage.</li>
          <li>Installs keep working after a clear: a missing archive is built again when Composer asks for it.</li>
          <li>Progress appears above while a task runs; the figures update when it ends.</li>
        </ul>
      </SectionCard>

      <SectionCard
        icon={Package}
        title="Package Cache Status"
        description="Whether each package has its archives cached."
      >
        {packages.isLoading ? (
          <LoadingLine className="text-sm">Loading packages...</LoadingLine>
        ) : hasNothingLoaded(packages) ? (
          <LoadError error={packages.error} fallback="Failed to load packages" />
        ) : (packages.data ?? []).length === 0 ? (
          <div className="py-6 text-center">
            <p className="font-medium">No packages found</p>
            <p className="text-sm text-muted-foreground">No active packages to cache at this time.</p>
          </div>
        ) : (
          <div className="divide-y rounded-md border" data-testid="cache-packages">
            {(packages.data ?? []).map((item) => (
              <CachedPackageRow key={item.id} item={item} disabled={isClearing} />
            ))}
          </div>
        )}
      </SectionCard>

      <ConfirmDialog
        open={isConfirmOpen}
        onOpenChange={setConfirmOpen}
        title="Clear All Package Cache"
        description="This deletes every cached package archive from object storage. Archives are built again when they are next needed."
        confirmText="Clear All Cache"
        variant="destructive"
        onConfirm={() => {
          setConfirmOpen(false);
          clear.mutate();
        }}
      />
    </section>
  );
}

function StatTile({ label, value, small = false }: { label: string; value: ReactNode; small?: boolean }) {
  return (
    <div className="rounded-md border p-4">
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className={small ? 'text-sm font-semibold' : 'text-2xl font-bold tabular-nums'}>{value}</p>
    </div>
  );
}

function CachedPackageRow({ item, disabled }: { item: CachedPackage; disabled: boolean }) {
  const queryClient = useQueryClient();
  const refresh = useRefreshPackageCache();
  const refreshPackage = () =>
    refresh.mutate(item.id, {
      onSuccess: () => {
        setTimeout(() => {
          void queryClient.invalidateQueries({ queryKey: cacheStatsQuery().queryKey });
          void queryClient.invalidateQueries({ queryKey: cachedPackagesQuery().queryKey });
        }, CACHE_PACKAGE_REFETCH_DELAY_MS);
      },
    });
  return (
    <div className="flex flex-wrap items-center gap-3 p-3" data-testid="cache-package-row">
      <div className="min-w-0 flex-1">
        <p className="font-mono text-sm font-medium [overflow-wrap:anywhere]">{item.packageName}</p>
        <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <Badge variant={item.isCached ? 'default' : 'secondary'}>{item.isCached ? 'Cached' : 'Not cached'}</Badge>
          {!item.isActive && <Badge variant="outline">Inactive</Badge>}
          <span>{item.cacheSize}</span>
          <span>Last cached: {formatTime(item.lastCached)}</span>
        </p>
        {item.accessProblem && (
          <p className="mt-1 text-xs text-destructive" data-testid="cache-package-access-problem">
            {item.accessProblem}
          </p>
        )}
      </div>
      <Button size="sm" variant="outline" onClick={refreshPackage} disabled={disabled || refresh.isPending}>
        {refresh.isPending ? <Loader2 className="animate-spin" /> : <RefreshCw />}
        Refresh
      </Button>
    </div>
  );
}
