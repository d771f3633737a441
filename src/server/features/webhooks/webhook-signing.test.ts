import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, webhookHeaders } from './webhook-signing.js';

describe('Standard Webhooks signing', () => {
  it('signs so that the reference library verifies the request', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'license.created', timestamp: new Date().toISOString(), data: { id: 'x' } });
    const headers = webhookHeaders(secret, 'msg_abc', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'license.created' });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('matches the specification’s example signature', () => {
    // The example of the Standard Webhooks specification and its reference libraries' tests.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    const headers = webhookHeaders(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);
    expect(headers['webhook-signature']).toBe(
      new Webhook(secret).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330_000), body),
    );
  });
});
