import type { ComponentProps } from 'react';
import { Input } from './ui/input';

/**
 * A count a person types (months, days, seats, downloads, hours): a numeric keypad on phones and steps of one. The
 * field's schema still reads the text: a number field also takes "1e3", which the rules refuse.
 */
export function WholeNumberInput(props: Omit<ComponentProps<'input'>, 'type' | 'inputMode' | 'step'>) {
  return <Input type="number" inputMode="numeric" step={1} {...props} />;
}
