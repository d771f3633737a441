import type { EmailDelivery } from '@contract/licenses';
import { MailWarning } from 'lucide-react';

/** Under a license: says when its e-mail has not reached the holder (still retried, or failed for good). */
export function EmailDeliveryNote({ delivery }: { delivery?: EmailDelivery }) {
  if (delivery === 'failed') {
    return (
      <p className="flex items-center gap-1 text-xs font-medium text-destructive" data-testid="email-not-delivered">
        <MailWarning className="size-3.5" aria-hidden /> The e-mail was not delivered.
      </p>
    );
  }
  if (delivery === 'pending') {
    return <p className="text-xs text-muted-foreground">The e-mail has not been delivered yet; sending again.</p>;
  }
  return null;
}
