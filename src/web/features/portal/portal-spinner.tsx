import { cn } from '@web/lib/cn';
import { Loader2 } from 'lucide-react';

/** The portal's wait: a spinner centred in its space, named for screen readers. */
export function PortalSpinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <div className={cn('flex items-center justify-center', className)} aria-busy="true">
      <Loader2 className="size-6 animate-spin text-muted-foreground" aria-label={label} />
    </div>
  );
}
