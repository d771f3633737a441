import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@contract/webhooks';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';

const WEBHOOKS_PATH = '/api/webhooks';
const endpointPath = (id: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(id)}`;
/** Deliveries move on their own (retries, answers): the open list is read again every few seconds. */
const DELIVERIES_REFRESH_MS = 5_000;

export const webhookEndpointsQuery = () =>
  queryOptions({ queryKey: [WEBHOOKS_PATH], queryFn: getJson<WebhookEndpoint[]>, refetchOnMount: 'always' });
export const useWebhookEndpoints = () => useQuery(webhookEndpointsQuery());

export const webhookDeliveriesQuery = (endpointId: string) =>
  queryOptions({
    queryKey: [`${endpointPath(endpointId)}/deliveries`],
    queryFn: getJson<WebhookDelivery[]>,
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
export const useWebhookDeliveries = (endpointId: string) => useQuery(webhookDeliveriesQuery(endpointId));

function useInvalidateEndpoints() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookEndpointsQuery().queryKey });
}

/** Registers an endpoint; the answer holds the signing secret, which the dialog shows once. */
export function useCreateWebhookEndpoint() {
  const invalidate = useInvalidateEndpoints();
  return useMutation({
    mutationFn: (input: CreateWebhookEndpointInput) =>
      apiRequest<WebhookEndpointWithSecret>('POST', WEBHOOKS_PATH, input),
    onSuccess: () => {
      toast({ title: 'Endpoint Added', description: 'Copy the signing secret now: it is shown once.' });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to add endpoint', error),
  });
}

export function useUpdateWebhookEndpoint() {
  const invalidate = useInvalidateEndpoints();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateWebhookEndpointInput }) =>
      apiRequest<WebhookEndpoint>('PATCH', endpointPath(id), input),
    onSuccess: (endpoint) => {
      toast({ title: endpoint.isEnabled ? 'Endpoint Saved' : 'Endpoint Disabled', description: endpoint.url });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to save endpoint', error),
  });
}

export function useRotateWebhookSecret() {
  const invalidate = useInvalidateEndpoints();
  return useMutation({
    mutationFn: (id: string) => apiRequest<WebhookEndpointWithSecret>('POST', `${endpointPath(id)}/rotate-secret`),
    onSuccess: () => invalidate(),
    onError: (error) => failureToast('Failed to rotate secret', error),
  });
}

export function useDeleteWebhookEndpoint() {
  const invalidate = useInvalidateEndpoints();
  return useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => apiRequest<unknown>('DELETE', endpointPath(endpoint.id)),
    onSuccess: (_answer, endpoint) => {
      toast({ title: 'Endpoint Deleted', description: `${endpoint.url} receives no more events.` });
      return invalidate();
    },
    onError: (error) => failureToast('Failed to delete endpoint', error),
  });
}

/** Test events and redeliveries: one attempt each, shown in the deliveries list as it lands. */
export function useSendToEndpoint(endpointId: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQuery(endpointId).queryKey });
  const test = useMutation({
    mutationFn: () => apiRequest<WebhookDelivery>('POST', `${endpointPath(endpointId)}/test`),
    onSuccess: () => {
      toast({ title: 'Test Event Sent', description: 'Its delivery appears below.' });
      return refresh();
    },
    onError: (error) => failureToast('Failed to send test event', error),
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      apiRequest<WebhookDelivery>(
        'POST',
        `${endpointPath(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
      ),
    onSuccess: () => {
      toast({ title: 'Redelivery Queued', description: 'It is sent again with the same webhook-id.' });
      return refresh();
    },
    onError: (error) => failureToast('Failed to redeliver', error),
  });
  return { test, redeliver };
}
