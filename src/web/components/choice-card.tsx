import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../lib/cn';
import { FieldMessage } from './form-field';

/**
 * One choice of a set (a role, a permission, an event) as a card: the checkbox or radio, its name and what it means;
 * the whole card is the label, and a chosen card is marked. The input's props come as they are, so that
 * react-hook-form's register (or a controlled checked/onChange) drives it.
 */
export function ChoiceCard({
  input,
  label,
  description,
  labelClassName = 'font-medium',
}: {
  input: ComponentProps<'input'> & { type: 'checkbox' | 'radio' };
  label: ReactNode;
  description: ReactNode;
  labelClassName?: string;
}) {
  return (
    <label className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm hover:bg-accent has-[:checked]:border-primary has-[:checked]:bg-primary/5">
      <input className="mt-0.5 size-4 shrink-0 accent-primary" {...input} />
      <span className="min-w-0">
        <span className={cn('block', labelClassName)}>{label}</span>
        <span className="block text-xs text-muted-foreground">{description}</span>
      </span>
    </label>
  );
}

/** A set of choice cards under its legend, and under them the set's error (nothing chosen, or a choice refused). */
export function ChoiceSet({
  legend,
  error,
  gridClassName = 'grid gap-2 sm:grid-cols-2',
  children,
}: {
  legend: ReactNode;
  error: string | undefined;
  gridClassName?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{legend}</legend>
      <div className={gridClassName}>{children}</div>
      <FieldMessage error={error} />
    </fieldset>
  );
}
