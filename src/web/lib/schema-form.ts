import { zodResolver } from '@hookform/resolvers/zod';
import { type DefaultValues, type FieldValues, type UseFormProps, useForm } from 'react-hook-form';
import type { z } from 'zod';

/**
 * react-hook-form checked by a zod schema (issue 29 item 7): the form holds what the schema takes in (the inputs'
 * text) and handleSubmit hands over what it gives out, so a form over a contract's schema sends the contract's input.
 */
export function useSchemaForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  defaultValues: NoInfer<DefaultValues<Input>>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver' | 'defaultValues'> = {},
) {
  return useForm<Input, unknown, Output>({ ...options, resolver: zodResolver(schema), defaultValues });
}
