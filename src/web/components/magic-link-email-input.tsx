import type { UseFormReturn } from 'react-hook-form';
import { FormInput } from './form-field';

/**
 * The e-mail address a magic link is sent to, trimmed as it is read (a pasted address often carries spaces), focused
 * on open; the seller's sign-in dialog and the admin sign-in page ask for it the same way.
 */
export function MagicLinkEmailInput<Context, Output>({
  form,
  id,
  label,
  placeholder,
}: {
  form: UseFormReturn<{ email: string }, Context, Output>;
  id: string;
  label: string;
  placeholder: string;
}) {
  return (
    <FormInput
      form={form}
      name="email"
      registerOptions={{ setValueAs: (value: string) => value.trim() }}
      id={id}
      label={label}
      fieldClassName="grid gap-2 space-y-0"
      type="email"
      autoComplete="email"
      placeholder={placeholder}
      required
      autoFocus
    />
  );
}
