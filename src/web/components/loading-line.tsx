import { Loader2 } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

/**
 * A muted line with a spinning loader before its text (`Loading users...`): what a list or a card shows while its
 * query loads. `large` draws the bigger spinner of a page's own loading line.
 */
export function LoadingLine({
  large = false,
  className,
  children,
  ...props
}: ComponentProps<'p'> & { large?: boolean }) {
  return (
    <p className={cn('flex items-center gap-2 text-muted-foreground', className)} {...props}>
      <Loader2 className={cn(large ? 'size-5' : 'size-4', 'animate-spin')} /> {children}
    </p>
  );
}
