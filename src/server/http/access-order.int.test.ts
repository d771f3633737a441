import { describe, expect, it } from 'vitest';
import { sendRaw } from '../../../test/support/raw-http.js';
import { signInAdmin, signInSeller } from '../../../test/support/sessions.js';
import { testAppAroundTests } from '../../../test/support/test-app.js';
import type { ApiError } from '../../contract/errors.js';

// Who the caller is, then whether they may (role, CSRF), then whether the input is valid: a caller who may not
// use a route learns nothing of its schema, and a forged request is refused however its target is written.

const started = testAppAroundTests();

const invalidImpersonation = { userId: 42, extra: ['x'] };

describe('guards before validation', () => {
  it('answers an anonymous caller 401, not the admin schema, on an invalid body', async () => {
    const response = await fetch(`${started.app.baseUrl}/api/admin/impersonate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(invalidImpersonation),
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as ApiError;
    expect(body.code).toBe('UNAUTHENTICATED');
    expect(body.message).not.toContain('userId');
  });

  it('answers a seller 403 on an admin route whatever the body', async () => {
    const { client } = await signInSeller(started.app);
    const response = await client.post('/api/admin/impersonate', invalidImpersonation);
    expect(response.status).toBe(403);
    expect(((await response.json()) as ApiError).code).toBe('FORBIDDEN');
  });

  it('checks the CSRF token before the body', async () => {
    const { client } = await signInAdmin(started.app);
    const response = await client.post('/api/admin/impersonate', invalidImpersonation, { csrf: false });
    expect(response.status).toBe(403);
    expect(((await response.json()) as ApiError).code).toBe('CSRF_INVALID');
  });

  it('validates the body once the caller may use the route', async () => {
    const { client } = await signInAdmin(started.app);
    const response = await client.post('/api/admin/impersonate', invalidImpersonation);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ApiError).code).toBe('VALIDATION_FAILED');
  });
});

describe('CSRF on the parsed path', () => {
  it('refuses a forged call whose request target is in absolute form', async () => {
    const { client, cookie, cookieName } = await signInSeller(started.app);
    const answer = await sendRaw(
      started.app.port,
      `POST http://localhost:${started.app.port}/api/auth/logout HTTP/1.1\r\nHost: localhost:${started.app.port}\r\nCookie: ${cookieName}=${cookie}`,
    );
    expect(answer.status).toBe(403);
    expect((JSON.parse(answer.body) as ApiError).code).toBe('CSRF_INVALID');
    expect((await client.get('/api/auth/user')).status).toBe(200); // still signed in
  });
});
