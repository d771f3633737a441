import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from './webhook-sender.js';

// The sender against a real server on loopback (allowed): what it sends, and that it neither follows redirects nor
// waits past its deadline.

let server: Server;
let base: string;
const seen: { headers: Record<string, unknown>; body: string; url: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ headers: request.headers, body: Buffer.concat(chunks).toString(), url: request.url ?? '' });
      if (request.url === '/redirect') {
        response.writeHead(302, { location: '/elsewhere' }).end();
      } else if (request.url === '/silent') {
        // Never answers: the sender's deadline ends the wait.
      } else {
        response.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const sender = (allowList: string[], timeoutMs = 5_000) =>
  createWebhookSender({ resolver: { resolve: async () => [] }, allowList, timeoutMs, userAgent: 'test-agent' });

describe('the webhook sender', () => {
  it('posts the body as JSON with the given headers and reports the answer', async () => {
    const result = await sender(['127.0.0.1']).post({
      url: `${base}/ok`,
      headers: { 'webhook-id': 'msg_1' },
      body: '{"a":1}',
    });
    expect(result).toMatchObject({ kind: 'answered', status: 204 });
    expect(seen.at(-1)).toMatchObject({
      url: '/ok',
      body: '{"a":1}',
      headers: { 'webhook-id': 'msg_1', 'content-type': 'application/json', 'user-agent': 'test-agent' },
    });
  });

  it('does not follow a redirect', async () => {
    const before = seen.length;
    const result = await sender(['127.0.0.1']).post({ url: `${base}/redirect`, headers: {}, body: '{}' });
    expect(result).toMatchObject({ kind: 'answered', status: 302 });
    expect(seen.slice(before).map((each) => each.url)).toEqual(['/redirect']);
  });

  it('gives up at its deadline', async () => {
    const result = await sender(['127.0.0.1'], 300).post({ url: `${base}/silent`, headers: {}, body: '{}' });
    expect(result).toMatchObject({ kind: 'failed', error: 'No answer within 300 ms' });
  });

  it('sends nothing to a loopback address that is not allowed', async () => {
    const before = seen.length;
    const result = await sender([]).post({ url: `${base}/ok`, headers: {}, body: '{}' });
    expect(result).toMatchObject({ kind: 'failed', error: 'The webhook URL must point to a public internet address' });
    expect(seen.length).toBe(before);
  });
});
