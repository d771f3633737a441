import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A native checkbox with its text beside it, inside one label so that the text toggles it too. */
export function LabelledCheckbox({
  label,
  labelClassName,
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & { label: ReactNode; labelClassName?: string }) {
  return (
    <label className={cn('flex items-center gap-2 text-sm', labelClassName)}>
      <input type="checkbox" className={cn('size-4 accent-primary', className)} {...props} />
      {label}
    </label>
  );
}
