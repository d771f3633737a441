import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { ApiRequestError } from './api-error';
import { createCsrfTokenCache } from './csrf-token-cache';

type Call = { url: string; init: RequestInit };

function fakeServer(handler: (call: Call, index: number) => Response) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const call = { url, init };
    calls.push(call);
    return handler(call, calls.length - 1);
  });
  return { fetch, calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const header = (call: Call | undefined, name: string) => ((call?.init.headers ?? {}) as Record<string, string>)[name];

describe('api client', () => {
  it('sends credentials and no CSRF token on a GET, and parses JSON', async () => {
    const server = fakeServer(() => json({ ok: true }));
    const client = createApiClient({ fetch: server.fetch });
    await expect(client.request('GET', '/api/thing')).resolves.toEqual({ ok: true });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.init.credentials).toBe('include');
    expect(header(server.calls[0], 'X-CSRF-Token')).toBeUndefined();
  });

  it('sends the CSRF token and a JSON content type on a POST with a JSON body', async () => {
    const server = fakeServer((call) => (call.url === '/api/csrf-token' ? json({ csrfToken: 'abc' }) : json({})));
    const client = createApiClient({ fetch: server.fetch });
    await client.request('POST', '/api/thing', { a: 1 });
    const post = server.calls.find((call) => call.url === '/api/thing');
    expect(header(post, 'X-CSRF-Token')).toBe('abc');
    expect(header(post, 'Content-Type')).toBe('application/json');
    expect(post?.init.body).toBe('{"a":1}');
    expect(server.calls.find((call) => call.url === '/api/csrf-token')?.init.credentials).toBe('include');
  });

  it('sends form data as it is, without a content type', async () => {
    const server = fakeServer((call) => (call.url === '/api/csrf-token' ? json({ csrfToken: 'abc' }) : json({})));
    const client = createApiClient({ fetch: server.fetch });
    const form = new FormData();
    form.set('logo', 'x');
    await client.request('POST', '/api/upload', form);
    const upload = server.calls.find((call) => call.url === '/api/upload');
    expect(upload?.init.body).toBe(form);
    expect(header(upload, 'Content-Type')).toBeUndefined();
    expect(header(upload, 'X-CSRF-Token')).toBe('abc');
  });

  it('sends the request without a token when the token cannot be fetched', async () => {
    const server = fakeServer((call) =>
      call.url === '/api/csrf-token' ? new Response('down', { status: 500 }) : json({}),
    );
    const csrf = createCsrfTokenCache({
      fetchToken: async () => {
        throw new Error('down');
      },
      log: vi.fn(),
    });
    const client = createApiClient({ fetch: server.fetch, csrf });
    await client.request('DELETE', '/api/thing');
    expect(header(server.calls.at(-1), 'X-CSRF-Token')).toBeUndefined();
  });

  it('retries once with a fresh token after a 403 with the code CSRF_INVALID', async () => {
    let tokens = 0;
    const server = fakeServer((call) => {
      if (call.url === '/api/csrf-token') return json({ csrfToken: `t${++tokens}` });
      return header(call, 'X-CSRF-Token') === 't2'
        ? json({ done: true })
        : json({ error: 'CSRF Token Invalid', message: 'CSRF token invalid', status: 403, code: 'CSRF_INVALID' }, 403);
    });
    const client = createApiClient({ fetch: server.fetch });
    await expect(client.request('POST', '/api/thing')).resolves.toEqual({ done: true });
    expect(server.calls.filter((call) => call.url === '/api/thing')).toHaveLength(2);
  });

  it('does not retry a 403 with another code, even one whose text mentions CSRF, nor a second CSRF refusal', async () => {
    const forbidden = fakeServer((call) =>
      call.url === '/api/csrf-token'
        ? json({ csrfToken: 't' })
        : json({ error: 'Access Denied', message: 'No CSRF here', status: 403, code: 'FORBIDDEN' }, 403),
    );
    await expect(createApiClient({ fetch: forbidden.fetch }).request('POST', '/api/x')).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'No CSRF here',
    });
    expect(forbidden.calls.filter((call) => call.url === '/api/x')).toHaveLength(1);

    const csrfAlways = fakeServer((call) =>
      call.url === '/api/csrf-token'
        ? json({ csrfToken: 't' })
        : json({ error: 'CSRF Token Invalid', message: 'CSRF token missing', status: 403, code: 'CSRF_INVALID' }, 403),
    );
    await expect(createApiClient({ fetch: csrfAlways.fetch }).request('PUT', '/api/x')).rejects.toBeInstanceOf(
      ApiRequestError,
    );
    expect(csrfAlways.calls.filter((call) => call.url === '/api/x')).toHaveLength(2);
  });

  it('turns a non-OK answer into an ApiRequestError with the Retry-After delay', async () => {
    const server = fakeServer(() => new Response('', { status: 429, headers: { 'Retry-After': '7' } }));
    const error = await createApiClient({ fetch: server.fetch })
      .request('GET', '/api/slow')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 429, error: 'Too Many Requests', retryAfterMs: 7000 });
  });

  it('turns a network failure into an ApiRequestError with status 0', async () => {
    const client = createApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(client.request('GET', '/api/x')).rejects.toMatchObject({ status: 0, error: 'Network Error' });
  });

  it('uses the first query key element as the GET path', async () => {
    const server = fakeServer(() => json([1, 2]));
    const client = createApiClient({ fetch: server.fetch });
    await expect(client.getJson({ queryKey: ['/api/repositories', 'extra'] })).resolves.toEqual([1, 2]);
    expect(server.calls[0]?.url).toBe('/api/repositories');
    expect(server.calls[0]?.init.method).toBe('GET');
  });

  it('answers undefined for an empty body', async () => {
    const server = fakeServer((call) =>
      call.url === '/api/csrf-token' ? json({ csrfToken: 't' }) : new Response(null, { status: 204 }),
    );
    await expect(createApiClient({ fetch: server.fetch }).request('POST', '/api/auth/logout')).resolves.toBeUndefined();
  });
});
