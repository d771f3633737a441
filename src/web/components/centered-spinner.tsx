import { Loader2 } from 'lucide-react';
import { cn } from '../lib/cn';

/**
 * A wait with nothing to say yet: a spinner centred in its space, named for screen readers. `className` gives the
 * space (`min-h-screen`, `h-24`); `spinnerClassName` a smaller spinner than a page's.
 */
export function CenteredSpinner({
  className,
  spinnerClassName,
  label = 'Loading',
}: {
  className?: string;
  spinnerClassName?: string;
  label?: string;
}) {
  return (
    <div className={cn('flex items-center justify-center', className)} aria-busy="true">
      <Loader2 className={cn('size-6 animate-spin text-muted-foreground', spinnerClassName)} aria-label={label} />
    </div>
  );
}
