import { WEBHOOK_LIMITS, type WebhookEndpoint, type WebhookEndpointWithSecret } from '@contract/webhooks';
import { Plus, Webhook } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyStateCard } from '../../components/empty-state-card';
import { LoadErrorCard } from '../../components/load-error';
import { LoadingLine } from '../../components/loading-line';
import { PageHeading } from '../../components/page-heading';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { hasNothingLoaded } from '../../lib/query-state';
import { EndpointCard } from './endpoint-card';
import { EndpointDialog, SecretDialog } from './endpoint-dialog';
import { useDeleteWebhookEndpoint, useWebhookEndpoints } from './webhook-hooks';

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
        <PageHeading title="Webhooks" className="space-y-1">
          Let your shop, CRM or scripts hear about licenses, purchases, new versions and download limits as they happen.
        </PageHeading>
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
          <LoadingLine large className="py-10">
            Loading endpoints...
          </LoadingLine>
        ) : hasNothingLoaded(endpoints) ? (
          <LoadErrorCard error={endpoints.error} fallback="Failed to load webhook endpoints" />
        ) : list.length === 0 ? (
          <EmptyStateCard
            icon={Webhook}
            title="No webhook endpoints yet"
            action={
              <Button onClick={() => setEditing('new')}>
                <Plus /> Add Endpoint
              </Button>
            }
          >
            Add the URL of your system and pick the events it should receive. Each request is signed so you can check it
            came from Packgate.
          </EmptyStateCard>
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
