import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { COPY_CONFIRMATION_MS } from '../lib/constants';
import { Button, type ButtonProps } from './ui/button';
import { toast } from './ui/use-toast';

/** Copies `value` and reads Copied! for 2 s; a refused clipboard shows `failureTitle`/`failureMessage` as a toast. */
export function CopyButton({
  value,
  label = 'Copy',
  failureMessage = 'Failed to copy to clipboard',
  failureTitle = 'Error',
  onCopied,
  variant = 'outline',
  size = 'sm',
  ...props
}: Omit<ButtonProps, 'value' | 'onClick'> & {
  value: string;
  label?: string;
  failureMessage?: string;
  failureTitle?: string;
  onCopied?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      onCopied?.();
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    } catch {
      toast({ title: failureTitle, description: failureMessage, variant: 'destructive' });
    }
  };

  return (
    <Button variant={variant} size={size} onClick={copy} aria-label={copied ? 'Copied!' : label} {...props}>
      {copied ? <Check /> : <Copy />}
      {size !== 'icon' && <span>{copied ? 'Copied!' : label}</span>}
    </Button>
  );
}
