import { describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { testAppAroundTests } from '../../../../test/support/test-app.js';

describe('platform basics', () => {
  const started = testAppAroundTests();

  it('answers an unknown API path with a 404 in the error shape', async () => {
    const response = await new TestClient(started.app.baseUrl).get('/api/no-such-thing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: 'Not Found',
      message: 'No API endpoint at GET /api/no-such-thing',
      status: 404,
      code: 'NOT_FOUND',
      requestId: response.headers.get('x-request-id'),
    });
  });

  it('hands out a CSRF token and sends security headers', async () => {
    const response = await new TestClient(started.app.baseUrl).get('/api/csrf-token');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { csrfToken: string };
    expect(body.csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('reports whether GitHub sign-in is configured', async () => {
    const response = await new TestClient(started.app.baseUrl).get('/api/public-config');
    expect(await response.json()).toMatchObject({ githubSignIn: false, composerDomain: 'composer.localhost' });
  });
});
