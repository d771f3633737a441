import {
  type CreateWebhookEndpointInput,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '@contract/webhooks';
import {
  ChevronDown,
  ChevronRight,
  KeyRound,
  Loader2,
  Pencil,
  Plus,
  RefreshCw,
  Send,
  Trash2,
  Webhook,
} from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Switch } from '../../components/ui/switch';
import { errorMessage } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format-date';
import { hasNothingLoaded } from '../../lib/query-state';
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useSendToEndpoint,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from './webhook-hooks';

/** /webhooks (issue 14): endpoints that receive signed events, their deliveries, test events and redeliveries. */
export function WebhooksPage() {
  const endpoints = useWebhookEndpoints();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new'>();
  const [deleting, setDeleting] = useState<WebhookEndpoint>();
  const [secret, setSecret] = useState<WebhookEndpointWithSecret>();
  const remove = useDeleteWebhookEndpoint();
  const list = endpoints.data ?? [];
  const isFull = list.length >= WEBHOOK_LIMITS.maxEndpoints;

  return (
    <div className="container mx-auto space-y-8 px-4 py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Webhooks</h1>
          <p className="text-muted-foreground">
            Let your shop, CRM or scripts hear about licenses, purchases, new versions and download limits as they
            happen.
          </p>
        </div>
        <Button
          onClick={() => setEditing('new')}
          disabled={isFull}
          title={isFull ? 'Endpoint limit reached' : undefined}
        >
          <Plus /> Add Endpoint
        </Button>
      </div>

      <section aria-labelledby="webhook-list-title" className="space-y-4">
        <h2 id="webhook-list-title" className="text-xl font-semibold">
          Endpoints{endpoints.data ? ` (${list.length} of ${WEBHOOK_LIMITS.maxEndpoints})` : ''}
        </h2>
        {endpoints.isLoading ? (
          <p className="flex items-center gap-2 py-10 text-muted-foreground">
            <Loader2 className="size-5 animate-spin" /> Loading endpoints...
          </p>
        ) : hasNothingLoaded(endpoints) ? (
          <Card>
            <CardContent className="p-6 text-sm text-destructive">
              {errorMessage(endpoints.error, 'Failed to load webhook endpoints')}
            </CardContent>
          </Card>
        ) : list.length === 0 ? (
          <Card className="border-dashed">
            <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
              <Webhook className="size-10 text-muted-foreground" aria-hidden="true" />
              <p className="text-lg font-semibold">No webhook endpoints yet</p>
              <p className="max-w-md text-sm text-muted-foreground">
                Add the URL of your system and pick the events it should receive. Each request is signed so you can
                check it came from Packgate.
              </p>
              <Button onClick={() => setEditing('new')}>
                <Plus /> Add Endpoint
              </Button>
            </CardContent>
          </Card>
        ) : (
          <ul className="space-y-4">
            {list.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                endpoint={endpoint}
                onEdit={() => setEditing(endpoint)}
                onDelete={() => setDeleting(endpoint)}
                onSecret={setSecret}
              />
            ))}
          </ul>
        )}
      </section>

      <VerifyingCard />

      <EndpointDialog
        endpoint={editing === 'new' ? undefined : editing}
        open={editing !== undefined}
        onOpenChange={(open) => !open && setEditing(undefined)}
        onCreated={(created) => {
          setEditing(undefined);
          setSecret(created);
        }}
      />
      <SecretDialog endpoint={secret} onDone={() => setSecret(undefined)} />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title="Delete Endpoint"
        description={`${deleting?.url ?? ''} will receive no more events, and its delivery history is deleted.`}
        confirmText="Delete"
        variant="destructive"
        isPending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(undefined) })}
      />
    </div>
  );
}

function EndpointCard({
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

const deliveryStatusLabels: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

function DeliveriesList({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deliveries = useWebhookDeliveries(endpoint.id);
  const { redeliver } = useSendToEndpoint(endpoint.id);
  const list = deliveries.data ?? [];
  if (deliveries.isLoading) {
    return (
      <p className="flex items-center gap-2 py-4 text-sm text-muted-foreground">
        <Loader2 className="size-4 animate-spin" /> Loading deliveries...
      </p>
    );
  }
  if (hasNothingLoaded(deliveries)) {
    return (
      <p className="py-4 text-sm text-destructive">{errorMessage(deliveries.error, 'Failed to load deliveries')}</p>
    );
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

function EndpointDialog({
  endpoint,
  open,
  onOpenChange,
  onCreated,
}: {
  endpoint?: WebhookEndpoint;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (created: WebhookEndpointWithSecret) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        {/* Keyed so that each opening starts from the endpoint (or empty). */}
        <EndpointForm
          key={`${String(open)}-${endpoint?.id ?? 'new'}`}
          endpoint={endpoint}
          onCancel={() => onOpenChange(false)}
          onCreated={onCreated}
          onSaved={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function EndpointForm({
  endpoint,
  onCancel,
  onCreated,
  onSaved,
}: {
  endpoint?: WebhookEndpoint;
  onCancel: () => void;
  onCreated: (created: WebhookEndpointWithSecret) => void;
  onSaved: () => void;
}) {
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint?.events ?? []);
  const isPending = create.isPending || update.isPending;
  const canSave = url.trim() !== '' && events.length > 0 && !isPending;

  const toggle = (event: WebhookEventType) =>
    setEvents((current) =>
      current.includes(event)
        ? current.filter((each) => each !== event)
        : WEBHOOK_EVENT_TYPES.filter((each) => each === event || current.includes(each)),
    );

  const submit = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    if (!canSave) return;
    const input: CreateWebhookEndpointInput = { url: url.trim(), events, description: description.trim() || null };
    if (endpoint) update.mutate({ id: endpoint.id, input }, { onSuccess: onSaved });
    else create.mutate(input, { onSuccess: onCreated });
  };

  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      <DialogHeader>
        <DialogTitle>{endpoint ? 'Edit Endpoint' : 'Add Endpoint'}</DialogTitle>
        <DialogDescription>
          Packgate sends a signed POST to this URL for each event you pick. Only public http(s) addresses are allowed.
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-2">
        <Label htmlFor="webhook-url">Endpoint URL</Label>
        <Input
          id="webhook-url"
          type="url"
          inputMode="url"
          placeholder="https://shop.example.com/packgate/webhooks"
          value={url}
          maxLength={WEBHOOK_LIMITS.urlMaxLength}
          onChange={(event) => setUrl(event.target.value)}
          autoComplete="off"
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor="webhook-description">Description (optional)</Label>
        <Input
          id="webhook-description"
          placeholder="e.g. Shop fulfilment"
          value={description}
          maxLength={WEBHOOK_LIMITS.descriptionMaxLength}
          onChange={(event) => setDescription(event.target.value)}
          autoComplete="off"
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Events</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((event) => (
            <label
              key={event}
              className="flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm hover:bg-accent has-[:checked]:border-primary has-[:checked]:bg-primary/5"
            >
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-primary"
                checked={events.includes(event)}
                onChange={() => toggle(event)}
              />
              <span className="min-w-0">
                <span className="block font-mono text-xs font-semibold">{event}</span>
                <span className="block text-xs text-muted-foreground">{WEBHOOK_EVENT_DESCRIPTIONS[event]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <DialogFooter className="gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canSave}>
          {isPending && <Loader2 className="animate-spin" />}
          {endpoint ? 'Save' : 'Add Endpoint'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function SecretDialog({ endpoint, onDone }: { endpoint?: WebhookEndpointWithSecret; onDone: () => void }) {
  return (
    <Dialog open={endpoint !== undefined} onOpenChange={(open) => !open && onDone()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Signing Secret</DialogTitle>
          <DialogDescription>
            Copy this secret into your system now: it is shown once. Use it to verify the webhook-signature header of
            each request to {endpoint?.url}.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code className="min-w-0 flex-1 break-all rounded-md border bg-muted px-3 py-2 font-mono text-sm">
            {endpoint?.secret}
          </code>
          <CopyButton value={endpoint?.secret ?? ''} label="Copy" />
        </div>
        <DialogFooter>
          <Button onClick={onDone}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function VerifyingCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Verifying Requests</CardTitle>
        <CardDescription>
          Deliveries follow the Standard Webhooks specification, so its libraries for PHP, JavaScript, Python and more
          verify them.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm text-muted-foreground">
        <p>
          Each request carries <code className="font-mono">webhook-id</code>,{' '}
          <code className="font-mono">webhook-timestamp</code> and <code className="font-mono">webhook-signature</code>:{' '}
          <code className="font-mono">v1,</code> followed by the base64 HMAC-SHA256 of{' '}
          <code className="font-mono">{'{webhook-id}.{webhook-timestamp}.{body}'}</code>, keyed with the base64-decoded
          part of your secret after <code className="font-mono">whsec_</code>.
        </p>
        <p>
          Answer with a 2xx status within 15 seconds. Other answers are retried for three days (after 5 seconds, 5
          minutes, 30 minutes, then hours apart); after that the endpoint is disabled and you get an e-mail. Retries
          keep their webhook-id: handle each id once.
        </p>
      </CardContent>
    </Card>
  );
}
