import type { LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('rounded-lg border bg-card text-card-foreground shadow-sm', className)} {...props} />;
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col space-y-1.5 p-6', className)} {...props} />;
}

export function CardTitle({ className, ...props }: ComponentProps<'h3'>) {
  return <h3 className={cn('text-2xl font-semibold leading-none tracking-tight', className)} {...props} />;
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('p-6 pt-0', className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex items-center p-6 pt-0', className)} {...props} />;
}

/** A card's title led by its icon, as the settings and admin cards show it. */
export function CardIconTitle({
  icon: Icon,
  className,
  children,
  ...props
}: ComponentProps<'h3'> & { icon: LucideIcon }) {
  return (
    <CardTitle className={cn('flex items-center gap-2', className)} {...props}>
      <Icon className="size-5" aria-hidden="true" />
      {children}
    </CardTitle>
  );
}

/** A card headed by its title (led by `icon` when given) and description, its body below: the admin and status cards. */
export function SectionCard({
  title,
  icon,
  description,
  contentClassName,
  children,
  ...props
}: Omit<ComponentProps<'div'>, 'title'> & {
  title: ReactNode;
  icon?: LucideIcon;
  description?: ReactNode;
  contentClassName?: string;
}) {
  return (
    <Card {...props}>
      <CardHeader>
        {icon ? (
          <CardIconTitle icon={icon} className="text-lg">
            {title}
          </CardIconTitle>
        ) : (
          <CardTitle className="text-lg">{title}</CardTitle>
        )}
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
