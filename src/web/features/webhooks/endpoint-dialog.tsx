import {
  type CreateWebhookEndpointInput,
  createWebhookEndpointInput,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '@contract/webhooks';
import { ChoiceCard, ChoiceSet } from '../../components/choice-card';
import { CopyButton } from '../../components/copy-button';
import { DialogFormButtons, DialogHeading, TitledDialog } from '../../components/form-dialog';
import { FormInput } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { useSchemaForm } from '../../lib/schema-form';
import { useCreateWebhookEndpoint, useUpdateWebhookEndpoint } from './webhook-hooks';

/** Adds an endpoint, or edits one: its URL, description and events. */
export function EndpointDialog({
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
  // react-hook-form over the contract's schema (issue 29 item 7): the rules the server applies, checked first.
  const form = useSchemaForm(createWebhookEndpointInput, {
    url: endpoint?.url ?? '',
    description: endpoint?.description ?? '',
    events: endpoint?.events ?? [],
  });
  const { errors } = form.formState;
  const [url, events] = form.watch(['url', 'events']);
  const isPending = create.isPending || update.isPending;
  const canSave = url.trim() !== '' && events.length > 0 && !isPending;

  // The events keep the order of WEBHOOK_EVENT_TYPES whatever order they are ticked in.
  const toggle = (event: WebhookEventType) =>
    form.setValue(
      'events',
      events.includes(event)
        ? events.filter((each) => each !== event)
        : WEBHOOK_EVENT_TYPES.filter((each) => each === event || events.includes(each)),
      { shouldValidate: form.formState.isSubmitted },
    );

  const submit = form.handleSubmit((values) => {
    if (!canSave) return;
    const input: CreateWebhookEndpointInput = { ...values, description: values.description || null };
    if (endpoint) update.mutate({ id: endpoint.id, input }, { onSuccess: onSaved });
    else create.mutate(input, { onSuccess: onCreated });
  });

  return (
    <form onSubmit={submit} className="space-y-5" noValidate>
      <DialogHeading
        title={endpoint ? 'Edit Endpoint' : 'Add Endpoint'}
        description="Packgate sends a signed POST to this URL for each event you pick. Only public http(s) addresses are allowed."
      />
      <FormInput
        form={form}
        name="url"
        id="webhook-url"
        label="Endpoint URL"
        type="url"
        inputMode="url"
        placeholder="https://shop.example.com/packgate/webhooks"
        maxLength={WEBHOOK_LIMITS.urlMaxLength}
        autoComplete="off"
      />
      <FormInput
        form={form}
        name="description"
        id="webhook-description"
        label="Description (optional)"
        placeholder="e.g. Shop fulfilment"
        maxLength={WEBHOOK_LIMITS.descriptionMaxLength}
        autoComplete="off"
      />
      <ChoiceSet legend="Events" error={errors.events?.message}>
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <ChoiceCard
            key={event}
            input={{ type: 'checkbox', checked: events.includes(event), onChange: () => toggle(event) }}
            label={event}
            labelClassName="font-mono text-xs font-semibold"
            description={WEBHOOK_EVENT_DESCRIPTIONS[event]}
          />
        ))}
      </ChoiceSet>
      <DialogFormButtons
        className="gap-2"
        submitLabel={endpoint ? 'Save' : 'Add Endpoint'}
        isPending={isPending}
        canSubmit={canSave}
        onCancel={onCancel}
        canCancelWhilePending
      />
    </form>
  );
}

/** Shows a new or rotated signing secret once. */
export function SecretDialog({ endpoint, onDone }: { endpoint?: WebhookEndpointWithSecret; onDone: () => void }) {
  return (
    <TitledDialog
      open={endpoint !== undefined}
      onClose={onDone}
      className="max-w-2xl"
      title="Signing Secret"
      description={
        <>
          Copy this secret into your system now: it is shown once. Use it to verify the webhook-signature header of each
          request to {endpoint?.url}.
        </>
      }
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code className="min-w-0 flex-1 break-all rounded-md border bg-muted px-3 py-2 font-mono text-sm">
          {endpoint?.secret}
        </code>
        <CopyButton value={endpoint?.secret ?? ''} label="Copy" />
      </div>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </TitledDialog>
  );
}
