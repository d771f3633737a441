import { createHmac, randomBytes } from 'node:crypto';

// The Standard Webhooks signature scheme (https://www.standardwebhooks.com/): the secret is `whsec_` + base64 of
// random bytes; each request carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`,
// `v1,` + base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}` keyed with the secret's decoded bytes.

const SECRET_PREFIX = 'whsec_';
/** 32 bytes: the specification asks for 24 to 64. */
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** A message id, unique per event and endpoint, the same across retries so that receivers can drop repeats. */
export function generateMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const digest = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/** The three headers of one attempt. */
export function webhookHeaders(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, messageId, timestampSeconds, body),
  };
}
