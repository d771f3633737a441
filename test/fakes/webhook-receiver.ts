import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { readBody } from './read-body.js';

// A seller's system receiving Packgate's webhooks, on loopback. It checks each request with the Standard Webhooks
// reference library (`standardwebhooks`), an implementation independent of ours: the signature it computes must be
// among the request's, and the timestamp within five minutes of the receiver's clock (the test's clock: the app's
// times are the test's). It answers the statuses it is told to (200 once the list is used up) and applies each
// verified webhook-id's effect once, as a receiver following the specification does.

export type ReceivedWebhook = {
  id: string;
  timestamp: number;
  signatures: string[];
  body: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
  isVerified: boolean;
  answeredStatus: number;
};

export type WebhookReceiver = {
  url: string;
  received: ReceivedWebhook[];
  /** How many times each webhook-id's effect was applied (once per id, however often it arrives). */
  effects: Map<string, number>;
  /** Statuses for the next requests, in order; 200 after. */
  answers: number[];
  /** The secret to verify with (set after registering the endpoint, again after a rotation). */
  secret: string;
  /** Resolves once `count` requests have arrived in total; throws at the bound. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
};

const TOLERANCE_SECONDS = 5 * 60;

export async function startWebhookReceiver(options: { now: () => Date }): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    effects: new Map(),
    answers: [],
    secret: '',
    async waitForRequests(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `the receiver got ${receiver.received.length} requests, not ${count}, within ${timeoutMs} ms`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return receiver.received;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const id = String(request.headers['webhook-id'] ?? '');
    const timestamp = Number(request.headers['webhook-timestamp'] ?? Number.NaN);
    const signatures = String(request.headers['webhook-signature'] ?? '')
      .split(' ')
      .filter(Boolean);
    const expected = new Webhook(receiver.secret).sign(id, new Date(timestamp * 1000), body);
    const nowSeconds = Math.floor(options.now().getTime() / 1000);
    const isVerified =
      request.method === 'POST' &&
      request.headers['content-type'] === 'application/json' &&
      signatures.includes(expected) &&
      Math.abs(nowSeconds - timestamp) <= TOLERANCE_SECONDS;
    const status = isVerified ? (receiver.answers.shift() ?? 200) : 401;
    if (isVerified && status >= 200 && status < 300 && !receiver.effects.has(id)) receiver.effects.set(id, 1);
    receiver.received.push({
      id,
      timestamp,
      signatures,
      body,
      event: JSON.parse(body),
      isVerified,
      answeredStatus: status,
    });
    response.statusCode = status;
    response.end(status < 300 ? 'ok' : 'no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
