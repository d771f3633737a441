import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Card, CardContent } from './ui/card';

/** What stands where a page's list would while it has nothing yet: an icon, a headline, a line of help and an action. */
export function EmptyStateCard({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <Card className="border-dashed">
      <CardContent className={cn('flex flex-col items-center gap-3 py-12 text-center', className)}>
        <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="text-lg font-semibold">{title}</p>
        <p className="max-w-md text-sm text-muted-foreground">{children}</p>
        {action}
      </CardContent>
    </Card>
  );
}
