import type { ComponentProps, ReactNode } from 'react';
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form';
import { cn } from '../lib/cn';
import { Input } from './ui/input';
import { Label } from './ui/label';
import { NativeSelect, SelectOptions } from './ui/native-select';

/** What a field's control needs so that a screen reader reads its label, hint and error with it. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
};

/**
 * One labelled form row: the label, the control, and under it the field's error (the zod rule's or the server's
 * message) in place of its hint, joined to the control by aria-describedby and marked with aria-invalid. The
 * control comes from a render function so that it can be any input (Input, Textarea, NativeSelect, PriceInput)
 * registered with react-hook-form: `{(control) => <Input {...control} {...form.register('email')} />}`.
 */
export function FormField({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  /** Shown under the control while the field has no error. */
  hint?: ReactNode;
  /** The message that replaces the hint; the control is marked invalid while it is set. */
  error?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const messageId = `${id}-${error ? 'error' : 'hint'}`;
  return (
    <div className={cn('space-y-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': Boolean(error),
        'aria-describedby': error || hint ? messageId : undefined,
      })}
      <FieldMessage id={messageId} hint={hint} error={error} />
    </div>
  );
}

/**
 * A FormField whose control is an Input registered with the form under `name`, showing that field's error. The
 * other props go to the Input; `fieldClassName` is the row's.
 */
export function FormInput<Values extends FieldValues, Context, Output>({
  form,
  name,
  registerOptions,
  id,
  label,
  hint,
  fieldClassName,
  ...input
}: {
  form: UseFormReturn<Values, Context, Output>;
  name: Path<Values>;
  registerOptions?: RegisterOptions<Values, Path<Values>>;
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  fieldClassName?: string;
} & Omit<ComponentProps<typeof Input>, keyof FieldControlProps | 'name' | 'form'>) {
  const { error } = form.getFieldState(name, form.formState);
  return (
    <FormField id={id} label={label} hint={hint} error={error?.message} className={fieldClassName}>
      {(control) => <Input {...control} {...input} {...form.register(name, registerOptions)} />}
    </FormField>
  );
}

/** A field's error, or its hint while it has none; for rows whose label is not a plain <label> (fieldsets). */
export function FieldMessage({ id, hint, error }: { id?: string; hint?: ReactNode; error?: string }) {
  if (error) {
    return (
      <p id={id} className="text-sm text-destructive">
        {error}
      </p>
    );
  }
  if (!hint) return null;
  return (
    <p id={id} className="text-xs text-muted-foreground">
      {hint}
    </p>
  );
}

/**
 * A FormField whose control is a NativeSelect of `values` (each reading as `optionLabel` says), registered with the
 * form under `name` and showing that field's error.
 */
export function FormSelect<Values extends FieldValues, Context, Output, Value extends string | number>({
  form,
  name,
  registerOptions,
  id,
  label,
  values,
  optionLabel,
}: {
  form: UseFormReturn<Values, Context, Output>;
  name: Path<Values>;
  registerOptions?: RegisterOptions<Values, Path<Values>>;
  id: string;
  label: ReactNode;
  values: readonly Value[];
  optionLabel?: (value: Value) => ReactNode;
}) {
  const { error } = form.getFieldState(name, form.formState);
  return (
    <FormField id={id} label={label} error={error?.message}>
      {(control) => (
        <NativeSelect {...control} {...form.register(name, registerOptions)}>
          <SelectOptions values={values} label={optionLabel} />
        </NativeSelect>
      )}
    </FormField>
  );
}

/** The form's own refusal (usually the server's message for the whole form), announced when it appears. */
export function FormAlert({ message, className }: { message: string | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={cn(
        'rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive',
        className,
      )}
    >
      {message}
    </p>
  );
}
