import { errorMessage } from '../lib/api-error';
import { cn } from '../lib/cn';
import { Card, CardContent } from './ui/card';

/** What stands in place of what failed to load: the server's message, or `fallback` without one. */
export function LoadError({ error, fallback, className }: { error: unknown; fallback: string; className?: string }) {
  return <p className={cn('text-sm text-destructive', className)}>{errorMessage(error, fallback)}</p>;
}

/** The same in a card of its own, where a page's list would stand. */
export function LoadErrorCard({ error, fallback }: { error: unknown; fallback: string }) {
  return (
    <Card>
      <CardContent className="p-6 text-sm text-destructive">{errorMessage(error, fallback)}</CardContent>
    </Card>
  );
}
