import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';
import { Input } from './ui/input';

type PriceInputProps = Omit<ComponentProps<'input'>, 'type' | 'inputMode' | 'value' | 'onChange'> & {
  /** The price as typed ("49.00"): kept as text so that a half-typed price is not lost. */
  value: string;
  onValueChange: (text: string) => void;
};

/**
 * A money amount as a person types it, for the admin's tier dialog and the seller's Pricing dialog alike: a
 * decimal keypad on phones, figures that line up, no browser spinner (a number field also takes "1e3" and
 * steps by arrows). The caller reads the text with its own rules (cents, bounds).
 */
export function PriceInput({ value, onValueChange, className, placeholder = '0.00', ...props }: PriceInputProps) {
  return (
    <Input
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
      placeholder={placeholder}
      className={cn('tabular-nums', className)}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      {...props}
    />
  );
}
