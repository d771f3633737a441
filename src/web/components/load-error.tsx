import { errorMessage } from '../lib/api-error';
import { cn } from '../lib/cn';
import { Card, CardContent } from './ui/card';

/** What stands in place of what failed to load: the server's message, or `fallback` without one. */
export function LoadError({ error, fallback, className }: { error: unknown; fallback: string; className?: string }) {
  return <p className={cn('text-sm text-destructive', className)}>{errorMessage(error, fallback)}</p>;
}

/** A query's or action's failure announced as an alert line: the server's message, or `fallback`; nothing without one. */
export function FailureAlert({ error, fallback, className }: { error: unknown; fallback: string; className?: string }) {
  if (error == null) return null;
  return (
    <p className={cn('text-sm text-destructive', className)} role="alert">
      {errorMessage(error, fallback)}
    </p>
  );
}

/** The same in a card of its own, where a page's list would stand. */
export function LoadErrorCard({ error, fallback }: { error: unknown; fallback: string }) {
  return (
    <Card>
      <CardContent className="p-6 text-sm text-destructive">{errorMessage(error, fallback)}</CardContent>
    </Card>
  );
}
