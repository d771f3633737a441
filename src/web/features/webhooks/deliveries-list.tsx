import type { WebhookDelivery, WebhookEndpoint } from '@contract/webhooks';
import { RefreshCw } from 'lucide-react';
import { LoadError } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { formatDateTime } from '../../lib/format-date';
import { hasNothingLoaded } from '../../lib/query-state';
import { useSendToEndpoint, useWebhookDeliveries } from './webhook-hooks';

const deliveryStatusLabels: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** An endpoint's deliveries, newest first, each with its attempts and a Redeliver button. */
export function DeliveriesList({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deliveries = useWebhookDeliveries(endpoint.id);
  const { redeliver } = useSendToEndpoint(endpoint.id);
  const list = deliveries.data ?? [];
  if (deliveries.isLoading) {
    return <LoadingLine className="py-4 text-sm">Loading deliveries...</LoadingLine>;
  }
  if (hasNothingLoaded(deliveries)) {
    return <LoadError error={deliveries.error} fallback="Failed to load deliveries" className="py-4" />;
  }
  if (list.length === 0) {
    return (
      <p className="py-4 text-sm text-muted-foreground">No deliveries yet. Send a test event to try the endpoint.</p>
    );
  }
  return (
    <ul className="mt-2 divide-y rounded-md border" aria-label={`Deliveries to ${endpoint.url}`}>
      {list.map((delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <li key={delivery.id} className="space-y-2 p-3 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <span className="font-mono font-medium">{delivery.eventType}</span>
                <Badge
                  variant={
                    delivery.status === 'delivered'
                      ? 'default'
                      : delivery.status === 'failed'
                        ? 'destructive'
                        : 'secondary'
                  }
                >
                  {deliveryStatusLabels[delivery.status]}
                </Badge>
                <span className="text-muted-foreground">{formatDateTime(delivery.createdAt)}</span>
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={!endpoint.isEnabled || redeliver.isPending}
                onClick={() => redeliver.mutate(delivery.id)}
              >
                <RefreshCw /> Redeliver
              </Button>
            </div>
            <p className="break-all font-mono text-xs text-muted-foreground">webhook-id: {delivery.id}</p>
            {delivery.attempts.length > 0 && (
              <ol className="space-y-1 text-xs" aria-label="Attempts">
                {delivery.attempts.map((attempt, index) => (
                  <li
                    // Attempts never reorder or vanish; their time and place identify them.
                    key={`${attempt.attemptedAt}-${index}`}
                    className="flex flex-wrap gap-x-3 gap-y-0.5"
                  >
                    <span className={attempt.isSuccess ? 'text-emerald-600 dark:text-emerald-400' : 'text-destructive'}>
                      {attempt.responseStatus ?? 'No answer'}
                    </span>
                    <span>{attempt.durationMs} ms</span>
                    <span className="text-muted-foreground">{formatDateTime(attempt.attemptedAt)}</span>
                    {attempt.trigger === 'redelivery' && <span className="text-muted-foreground">redelivery</span>}
                    {attempt.error && <span className="basis-full text-muted-foreground">{attempt.error}</span>}
                  </li>
                ))}
              </ol>
            )}
            {delivery.nextAttemptAt && (
              <p className="text-xs text-muted-foreground">
                Next attempt {formatDateTime(delivery.nextAttemptAt)}
                {last && !last.isSuccess ? ` (attempt ${delivery.attempts.length + 1})` : ''}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
