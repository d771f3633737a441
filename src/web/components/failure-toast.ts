import { errorMessage } from '../lib/api-error';
import { toast } from './ui/use-toast';

/** Tells of a failed request in a destructive toast: `title`, then the server's message, or `fallback` without one. */
export function failureToast(title: string, error: unknown, fallback = 'Please try again in a moment.') {
  toast({ variant: 'destructive', title, description: errorMessage(error, fallback) });
}
