import { describe, expect, it } from 'vitest';
import { sendRaw } from '../../../test/support/raw-http.js';
import { signInSeller } from '../../../test/support/sessions.js';
import { testAppAroundTests } from '../../../test/support/test-app.js';
import { apiErrorSchema } from '../../contract/errors.js';

// Every refusal, also those Fastify and Node's HTTP parser produce before a route runs, answers the error shape
// {error, message, suggestion?, status, code}, with a status that says what went wrong.

const started = testAppAroundTests();

function expectErrorShape(status: number, text: string, code: string): void {
  const body = apiErrorSchema.strict().parse(JSON.parse(text));
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(text).not.toMatch(/\bat .+:\d+:\d+/); // no stack frame
}

describe('framework errors', () => {
  it.each([
    ['an undecodable URL', 'GET /api/%zz HTTP/1.1\r\nHost: localhost', '', 400, 'BAD_REQUEST'],
    [
      'an unsupported content type',
      'POST /api/auth/magic-link HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/weird',
      'x',
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'malformed JSON',
      'POST /api/auth/magic-link HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json',
      '{x',
      400,
      'BAD_REQUEST',
    ],
    [
      'a header with a control character',
      'GET /api/tiers HTTP/1.1\r\nHost: localhost\r\nX-Odd: a\x01b',
      '',
      400,
      'BAD_REQUEST',
    ],
    ['an unknown API path', 'GET /api/no-such-thing HTTP/1.1\r\nHost: localhost', '', 404, 'NOT_FOUND'],
    [
      'an overlong path parameter',
      `GET /api/repositories/${'a'.repeat(300)} HTTP/1.1\r\nHost: localhost`,
      '',
      414,
      'URI_TOO_LONG',
    ],
  ])('answers %s in the error shape', async (_name, head, body, status, code) => {
    const answer = await sendRaw(started.app.port, head, body);
    expect(answer.status).toBe(status);
    expectErrorShape(status, answer.body, code);
  });

  it('answers a body over the limit with 413 in the error shape', async () => {
    const body = JSON.stringify({ email: 'a'.repeat(1_100_000) });
    const answer = await sendRaw(
      started.app.port,
      'POST /api/auth/magic-link HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json',
      body,
    );
    expect(answer.status).toBe(413);
    expectErrorShape(413, answer.body, 'PAYLOAD_TOO_LARGE');
  });

  it('answers headers over the size limit with 431 in the error shape', async () => {
    const answer = await sendRaw(
      started.app.port,
      `GET /api/tiers HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}`,
    );
    expect(answer.status).toBe(431);
    expectErrorShape(431, answer.body, 'HEADERS_TOO_LARGE');
  });
});

describe('control characters', () => {
  it('refuses a NUL byte in a JSON body with 400 before any handler runs', async () => {
    const { client } = await signInSeller(started.app);
    const response = await client.post('/api/customers/regenerate-token', { email: 'holder\u0000@example.com' });
    expect(response.status).toBe(400);
    expectErrorShape(400, await response.text(), 'BAD_REQUEST');
  });

  it('refuses a NUL byte in a path parameter and in a query string', async () => {
    const { client } = await signInSeller(started.app);
    for (const path of ['/api/repositories?filter=%00', '/api/repositories?x=%01']) {
      const response = await client.get(path);
      expect(response.status, path).toBe(400);
      expectErrorShape(400, await response.text(), 'BAD_REQUEST');
    }
    // A name in the path (a version) is refused; an id holding one is malformed, and names nothing: 404, as unknown.
    const inName = await client.delete('/api/repositories/00000000-0000-4000-8000-000000000000/versions/1.0%00/yank');
    expect(inName.status).toBe(400);
    expectErrorShape(400, await inName.text(), 'BAD_REQUEST');
    const inId = await client.get('/api/repositories/%00');
    expect(inId.status).toBe(404);
    expectErrorShape(404, await inId.text(), 'NOT_FOUND');
  });

  it('refuses a lone surrogate in a JSON body', async () => {
    const { client } = await signInSeller(started.app);
    const response = await client.put('/api/user/default-branding', { brandName: 'Acme \ud800' });
    expect(response.status).toBe(400);
    expectErrorShape(400, await response.text(), 'BAD_REQUEST');
  });
});
