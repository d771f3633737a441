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

  it('connects to the address it checked, never to a second answer for the name (DNS rebinding)', async () => {
    const before = seen.length;
    const port = new URL(base).port;
    const answers = [['127.0.0.1'], ['10.255.255.1']];
    let lookups = 0;
    const rebinding = createWebhookSender({
      resolver: { resolve: async () => answers[Math.min(lookups++, answers.length - 1)]! },
      allowList: ['127.0.0.1'],
      timeoutMs: 5_000,
      userAgent: 'test-agent',
    });
    const result = await rebinding.post({ url: `http://hooks.rebind.test:${port}/pinned`, headers: {}, body: '{}' });
    expect(result).toMatchObject({ kind: 'answered', status: 204 });
    expect(lookups).toBe(1);
    expect(seen.slice(before)).toMatchObject([{ url: '/pinned', headers: { host: `hooks.rebind.test:${port}` } }]);
  });

  it('sends nothing to a name that resolves to a private address written in an IPv6 form', async () => {
    for (const address of ['::7f00:1', '::127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1']) {
      const result = await createWebhookSender({
        resolver: { resolve: async () => [address] },
        allowList: [],
        timeoutMs: 5_000,
        userAgent: 'test-agent',
      }).post({ url: 'http://hooks.private.test/', headers: {}, body: '{}' });
      expect({ address, result }).toMatchObject({
        address,
        result: { kind: 'failed', error: 'The webhook URL must point to a public internet address' },
      });
    }
  });
});
