import { z } from 'zod';
import { entityId } from './ids.js';

// Webhooks to the seller's systems (issue 14): what the Webhooks page, `/api/webhooks` and `/api/v1/webhooks`
// exchange. Deliveries follow the Standard Webhooks specification (https://www.standardwebhooks.com/).

export const WEBHOOK_EVENT_TYPES = [
  'license.created',
  'license.updated',
  'license.revoked',
  'license.expired',
  'purchase.completed',
  'package.version_published',
  'download.limit_reached',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event means, shown beside its checkbox and in the API reference. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'license.created': 'A license was issued (by hand, through the API, as a trial or by a purchase)',
  'license.updated': "A license's terms changed, it was renewed or restored",
  'license.revoked': 'A license was revoked',
  'license.expired': "A license's expiry date passed",
  'purchase.completed': 'A buyer paid for a package (or a test purchase completed)',
  'package.version_published': 'A new version of a package became installable',
  'download.limit_reached': 'A license used the last download its limit allows',
};

/** The event sent by "Send test event"; endpoints receive it whatever they listen to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_LIMITS = {
  /** Endpoints per seller. */
  maxEndpoints: 10,
  urlMaxLength: 2000,
  descriptionMaxLength: 200,
  /** Deliveries listed per endpoint, newest first. */
  deliveriesListed: 50,
} as const;

export const webhookMessages = {
  tooManyEndpoints: `You can register up to ${WEBHOOK_LIMITS.maxEndpoints} webhook endpoints.`,
  endpointNotFound: 'Webhook endpoint not found',
  deliveryNotFound: 'Webhook delivery not found',
  urlNotHttp: 'The webhook URL must start with https:// or http://',
  urlHasCredentials: 'The webhook URL must not contain a user name or password',
  urlNotPublic: 'The webhook URL must point to a public internet address',
  urlNotResolved: 'The webhook URL’s host name could not be resolved',
  endpointDisabled: 'This webhook endpoint is disabled: enable it first',
  nothingToUpdate: 'Nothing to update: send url, events, description or isEnabled',
} as const;

const webhookUrl = z
  .string()
  .trim()
  .min(1, 'Webhook URL is required')
  .max(WEBHOOK_LIMITS.urlMaxLength)
  .describe('A public https:// (or http://) URL; private, loopback and link-local addresses are refused.');
const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .describe('The event types this endpoint receives.');
const webhookDescription = z.string().trim().max(WEBHOOK_LIMITS.descriptionMaxLength).nullish();

export const createWebhookEndpointInput = z.object({
  url: webhookUrl,
  events: webhookEvents,
  description: webhookDescription,
});
export type CreateWebhookEndpointInput = z.infer<typeof createWebhookEndpointInput>;

export const updateWebhookEndpointInput = createWebhookEndpointInput.partial().extend({
  isEnabled: z.boolean().optional().describe('Disable to stop deliveries; enabling again resumes them.'),
});
export type UpdateWebhookEndpointInput = z.infer<typeof updateWebhookEndpointInput>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  isEnabled: z.boolean(),
  /** `failing`: disabled after deliveries kept failing for three days; `seller`: turned off by hand. */
  disabledReason: z.enum(['seller', 'failing']).nullable(),
  disabledAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** Creating an endpoint or rotating its secret answers the `whsec_...` secret once; it is never shown again. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('The signing secret (`whsec_` + base64), shown only in this answer.'),
});
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const webhookAttemptSchema = z.object({
  attemptedAt: z.string(),
  durationMs: z.number().int(),
  responseStatus: z.number().int().nullable(),
  isSuccess: z.boolean(),
  error: z.string().nullable(),
  trigger: z.enum(['scheduled', 'redelivery']),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string().describe('The `webhook-id` header of every attempt of this message.'),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  createdAt: z.string(),
  /** When the next attempt is due, while one is scheduled. */
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookEndpointParams = z.object({ id: entityId });
/** deliveryId is the message's `webhook-id` (text, not a uuid). */
export const webhookDeliveryParams = webhookEndpointParams.extend({ deliveryId: z.string().max(100) });
