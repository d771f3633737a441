import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@contract/webhooks';
import { ChevronDown, ChevronRight, KeyRound, Loader2, Pencil, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Switch } from '../../components/ui/switch';
import { formatDateTime } from '../../lib/format-date';
import { DeliveriesList } from './deliveries-list';
import { useRotateWebhookSecret, useSendToEndpoint, useUpdateWebhookEndpoint } from './webhook-hooks';

/** One endpoint on /webhooks: its events and state, its actions, and its deliveries when opened. */
export function EndpointCard({
  endpoint,
  onEdit,
  onDelete,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  onEdit: () => void;
  onDelete: () => void;
  onSecret: (endpoint: WebhookEndpointWithSecret) => void;
}) {
  const update = useUpdateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const { test } = useSendToEndpoint(endpoint.id);
  const [isOpen, setIsOpen] = useState(false);
  const [isRotating, setIsRotating] = useState(false);
  const titleId = `webhook-${endpoint.id}`;

  return (
    <li>
      <Card aria-labelledby={titleId}>
        <CardHeader className="gap-3">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0 space-y-1">
              <CardTitle id={titleId} className="break-all font-mono text-base">
                {endpoint.url}
              </CardTitle>
              {endpoint.description && <CardDescription>{endpoint.description}</CardDescription>}
            </div>
            <div className="flex shrink-0 items-center gap-2">
              <EndpointState endpoint={endpoint} />
              <Switch
                checked={endpoint.isEnabled}
                disabled={update.isPending}
                aria-label={endpoint.isEnabled ? 'Disable endpoint' : 'Enable endpoint'}
                onCheckedChange={(isEnabled) => update.mutate({ id: endpoint.id, input: { isEnabled } })}
              />
            </div>
          </div>
          <ul className="flex flex-wrap gap-1.5" aria-label="Events">
            {endpoint.events.map((event) => (
              <li key={event}>
                <Badge variant="secondary" className="font-mono text-xs">
                  {event}
                </Badge>
              </li>
            ))}
          </ul>
          {endpoint.disabledReason === 'failing' && (
            <p className="text-sm text-destructive">
              Deliveries failed for three days, so this endpoint was disabled
              {endpoint.disabledAt ? ` on ${formatDateTime(endpoint.disabledAt)}` : ''}. Fix it, then enable it again.
            </p>
          )}
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant="outline"
              onClick={() => test.mutate()}
              disabled={!endpoint.isEnabled || test.isPending}
            >
              {test.isPending ? <Loader2 className="animate-spin" /> : <Send />} Send Test Event
            </Button>
            <Button size="sm" variant="outline" onClick={onEdit}>
              <Pencil /> Edit
            </Button>
            <Button size="sm" variant="outline" onClick={() => setIsRotating(true)}>
              <KeyRound /> Rotate Secret
            </Button>
            <Button size="sm" variant="outline" className="text-destructive" onClick={onDelete}>
              <Trash2 /> Delete
            </Button>
          </div>
          <div>
            <Button
              size="sm"
              variant="ghost"
              className="-ml-2"
              aria-expanded={isOpen}
              onClick={() => setIsOpen((open) => !open)}
            >
              {isOpen ? <ChevronDown /> : <ChevronRight />} Deliveries
            </Button>
            {isOpen && <DeliveriesList endpoint={endpoint} />}
          </div>
        </CardContent>
      </Card>
      <ConfirmDialog
        open={isRotating}
        onOpenChange={setIsRotating}
        title="Rotate Signing Secret"
        description="A new secret is made now and shown once. Deliveries from now on are signed with it; your system must use the new one."
        confirmText="Rotate"
        variant="warning"
        isPending={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(endpoint.id, {
            onSuccess: (rotated) => {
              setIsRotating(false);
              onSecret(rotated);
            },
          })
        }
      />
    </li>
  );
}

function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.isEnabled) return <Badge>Enabled</Badge>;
  return <Badge variant={endpoint.disabledReason === 'failing' ? 'destructive' : 'outline'}>Disabled</Badge>;
}
