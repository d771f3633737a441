import type { TaskType } from '@contract/realtime';
import { taskLabel } from '@contract/tasks';
import { CheckCircle2, Loader2, X, XCircle } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { cn } from '../lib/cn';
import { TASK_PROGRESS_LIST_SHOWN } from '../lib/constants';
import { isTaskRunning, type TaskProgressEvent, taskProgressStore, useTaskProgress } from '../lib/task-progress';
import { Button } from './ui/button';
import { SectionCard } from './ui/card';

// Which task types a page lists itself right now (a TaskProgressList is mounted), so the docked strip
// does not show them a second time. 'all' stands for a list without a type filter.
const listedByPage = new Map<symbol, readonly TaskType[] | 'all'>();
const listedListeners = new Set<() => void>();
let listedVersion = 0;

function setListed(key: symbol, types: readonly TaskType[] | 'all' | undefined) {
  if (types) listedByPage.set(key, types);
  else listedByPage.delete(key);
  listedVersion++;
  for (const listener of listedListeners) listener();
}

function subscribeListed(listener: () => void) {
  listedListeners.add(listener);
  return () => {
    listedListeners.delete(listener);
  };
}

function useTaskTypesListedByPage(): (type: TaskType) => boolean {
  const version = useSyncExternalStore(
    subscribeListed,
    () => listedVersion,
    () => listedVersion,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the version stands for the registry's content
  return useMemo(() => {
    const lists = [...listedByPage.values()];
    return (type: TaskType) => lists.some((types) => types === 'all' || types.includes(type));
  }, [version]);
}

function useListsTaskTypes(types: readonly TaskType[] | undefined) {
  const key = useRef(Symbol('task-list')).current;
  const typesKey = types ? types.join(',') : 'all';
  // biome-ignore lint/correctness/useExhaustiveDependencies: typesKey stands for the types
  useEffect(() => {
    setListed(key, types ?? 'all');
    return () => setListed(key, undefined);
  }, [key, typesKey]);
}

const percentOf = (task: TaskProgressEvent) => Math.round(Math.min(100, Math.max(0, task.progress)));

function StatusIcon({ task }: { task: TaskProgressEvent }) {
  if (task.status === 'completed') return <CheckCircle2 className="size-4 shrink-0 text-green-600" />;
  if (task.status === 'failed') return <XCircle className="size-4 shrink-0 text-destructive" />;
  return <Loader2 className="size-4 shrink-0 animate-spin text-primary" />;
}

function TaskRow({ task, onDismiss }: { task: TaskProgressEvent; onDismiss?: () => void }) {
  const running = isTaskRunning(task);
  const percent = percentOf(task);
  return (
    <div className="space-y-1.5" data-testid="task-progress-item">
      <div className="flex items-start gap-2">
        <StatusIcon task={task} />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium">{taskLabel(task)}</p>
          <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">{task.message}</p>
        </div>
        <span className="text-xs tabular-nums text-muted-foreground">{percent}%</span>
        {onDismiss && !running && (
          <button
            className="rounded-sm text-muted-foreground hover:text-foreground"
            onClick={onDismiss}
            aria-label="Dismiss"
          >
            <X className="size-3.5" />
          </button>
        )}
      </div>
      <ProgressBar task={task} />
    </div>
  );
}

/** A percent bar for a task, as wide as its parent gives it. */
function ProgressBar({ task, className }: { task: TaskProgressEvent; className?: string }) {
  const percent = percentOf(task);
  return (
    <div
      className={cn('h-1.5 overflow-hidden rounded-full bg-muted', className)}
      role="progressbar"
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-label={`${taskLabel(task)} progress`}
    >
      <div
        className={cn(
          'h-full rounded-full transition-all',
          task.status === 'failed' ? 'bg-destructive' : task.status === 'completed' ? 'bg-green-600' : 'bg-primary',
        )}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Background tasks in a strip docked under the header (the header places it), never floating over a page's
 * controls (issue 12): one line while tasks run, with the newest one's progress; a summary line once they have
 * finished; Details lists the recent ones. Tasks a page already lists itself (the admin Cache tab's Recent
 * Tasks) are left to that page.
 */
export function TaskProgressWidget() {
  const { tasks } = useTaskProgress();
  const isListedByPage = useTaskTypesListedByPage();
  const [isExpanded, setIsExpanded] = useState(false);
  const ours = tasks.filter((task) => !isListedByPage(task.type));
  const running = ours.filter(isTaskRunning);
  const failed = ours.filter((task) => task.status === 'failed').length;
  const isRunning = running.length > 0;

  // Collapses when the last task ends: what remains is the one summary line.
  useEffect(() => {
    if (!isRunning) setIsExpanded(false);
  }, [isRunning]);

  const newest = running.at(-1) ?? ours.at(-1);
  if (!newest) return null;
  const summary = isRunning
    ? `${plural(running.length, 'task')} running`
    : failed > 0
      ? `${plural(failed, 'task')} failed`
      : 'Tasks finished';
  const dismissFinished = () => {
    for (const task of ours) if (!isTaskRunning(task)) taskProgressStore.removeTask(task.taskId);
  };

  return (
    <section className="border-t bg-muted/40" aria-label="Background tasks" data-testid="task-progress-widget">
      <div className="container mx-auto px-4 py-1.5">
        <div className="flex min-h-8 items-center gap-3" aria-live="polite">
          {isRunning ? (
            <Loader2 className="size-4 shrink-0 animate-spin text-primary" />
          ) : failed > 0 ? (
            <XCircle className="size-4 shrink-0 text-destructive" />
          ) : (
            <CheckCircle2 className="size-4 shrink-0 text-green-600" />
          )}
          <p className="shrink-0 text-sm font-medium">{summary}</p>
          {isRunning && !isExpanded && (
            <div className="flex min-w-0 flex-1 items-center gap-2" data-testid="task-progress-current">
              <p className="hidden min-w-0 truncate text-xs text-muted-foreground sm:block">
                {taskLabel(newest)}: {newest.message}
              </p>
              <ProgressBar task={newest} className="w-16 shrink-0 sm:w-32" />
              <span className="text-xs tabular-nums text-muted-foreground">{percentOf(newest)}%</span>
            </div>
          )}
          <div className="ml-auto flex shrink-0 items-center gap-1">
            <Button
              variant="ghost"
              size="sm"
              className="h-7 px-2 text-xs"
              aria-expanded={isExpanded}
              aria-controls="task-progress-details"
              onClick={() => setIsExpanded((open) => !open)}
            >
              {isExpanded ? 'Hide' : 'Details'}
            </Button>
            {!isRunning && (
              <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" onClick={dismissFinished}>
                Dismiss
              </Button>
            )}
          </div>
        </div>
        {isExpanded && (
          <div id="task-progress-details" className="max-w-xl space-y-3 pb-2 pt-1">
            {ours
              .slice(-3)
              .reverse()
              .map((task) => (
                <TaskRow key={task.taskId} task={task} onDismiss={() => taskProgressStore.removeTask(task.taskId)} />
              ))}
          </div>
        )}
      </div>
    </section>
  );
}

/** The recent tasks, newest first (the last 10 unless told otherwise). */
export function TaskProgressList({
  limit = TASK_PROGRESS_LIST_SHOWN,
  types,
}: {
  limit?: number;
  types?: readonly TaskProgressEvent['type'][];
}) {
  const { tasks } = useTaskProgress();
  useListsTaskTypes(types);
  const shown = tasks
    .filter((task) => !types || types.includes(task.type))
    .slice(-limit)
    .reverse();
  return (
    <SectionCard
      title="Recent Tasks"
      description="Background work and its progress, as it happens."
      contentClassName="space-y-4"
    >
      {shown.length === 0 ? (
        <p className="text-sm text-muted-foreground">No recent tasks.</p>
      ) : (
        shown.map((task) => <TaskRow key={task.taskId} task={task} />)
      )}
    </SectionCard>
  );
}
