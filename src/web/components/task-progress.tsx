import { taskLabel } from '@contract/tasks';
import { CheckCircle2, Loader2, X, XCircle } from 'lucide-react';
import { cn } from '../lib/cn';
import { TASK_PROGRESS_LIST_SHOWN } from '../lib/constants';
import { isTaskRunning, type TaskProgressEvent, taskProgressStore, useTaskProgress } from '../lib/task-progress';
import { Button } from './ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './ui/card';

function StatusIcon({ task }: { task: TaskProgressEvent }) {
  if (task.status === 'completed') return <CheckCircle2 className="size-4 shrink-0 text-green-600" />;
  if (task.status === 'failed') return <XCircle className="size-4 shrink-0 text-destructive" />;
  return <Loader2 className="size-4 shrink-0 animate-spin text-primary" />;
}

function TaskRow({ task, onDismiss }: { task: TaskProgressEvent; onDismiss?: () => void }) {
  const running = isTaskRunning(task);
  const percent = Math.round(Math.min(100, Math.max(0, task.progress)));
  return (
    <div className="space-y-1.5" data-testid="task-progress-item">
      <div className="flex items-start gap-2">
        <StatusIcon task={task} />
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium">{taskLabel(task)}</p>
          <p className="truncate text-xs text-muted-foreground" title={task.message}>
            {task.message}
          </p>
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
      <div
        className="h-1.5 overflow-hidden rounded-full bg-muted"
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
    </div>
  );
}

/** Floats at the bottom left while background tasks run; finished ones stay until dismissed. */
export function TaskProgressWidget() {
  const { tasks } = useTaskProgress();
  const visible = tasks.slice(-3).reverse();
  if (visible.length === 0) return null;
  const running = tasks.filter(isTaskRunning).length;
  return (
    <div className="fixed bottom-4 left-4 z-40 w-[min(22rem,calc(100%-2rem))]" aria-live="polite">
      <Card className="shadow-lg">
        <div className="flex items-center justify-between border-b px-4 py-2">
          <p className="text-sm font-semibold">
            {running > 0 ? `${running} task${running === 1 ? '' : 's'} running` : 'Tasks finished'}
          </p>
          {running === 0 && (
            <Button variant="ghost" size="sm" className="h-7 px-2 text-xs" onClick={taskProgressStore.clear}>
              Dismiss all
            </Button>
          )}
        </div>
        <div className="space-y-3 p-4">
          {visible.map((task) => (
            <TaskRow key={task.taskId} task={task} onDismiss={() => taskProgressStore.removeTask(task.taskId)} />
          ))}
        </div>
      </Card>
    </div>
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
  const shown = tasks
    .filter((task) => !types || types.includes(task.type))
    .slice(-limit)
    .reverse();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Recent Tasks</CardTitle>
        <CardDescription>Background work and its progress, as it happens.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {shown.length === 0 ? (
          <p className="text-sm text-muted-foreground">No recent tasks.</p>
        ) : (
          shown.map((task) => <TaskRow key={task.taskId} task={task} />)
        )}
      </CardContent>
    </Card>
  );
}
