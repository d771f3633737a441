import { describe, expect, it } from 'vitest';
import { type HostApiAnswer, hostApiError, withoutTrailingSlashes } from './host-api.js';

// How GitLab's and Bitbucket's answers become code-host errors: what the seller is told, and never a token.

function answer(status: number, body: unknown = {}, headers: Record<string, string> = {}): HostApiAnswer {
  return { status, headers: new Headers(headers), text: JSON.stringify(body) };
}

describe('hostApiError', () => {
  it('calls a 401 a refused credential', () => {
    expect(hostApiError('GitLab', answer(401, { message: '401 Unauthorized' }))).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'GitLab refused the stored credential.',
    });
  });

  it("quotes the host's reason for a 403 (GitLab's error_description, Bitbucket's error.message)", () => {
    const gitlab = hostApiError('GitLab', answer(403, { error: 'insufficient_scope', error_description: 'needs api' }));
    expect(gitlab).toMatchObject({ code: 'UNAUTHORIZED', message: 'GitLab refused access: needs api' });
    const bitbucket = hostApiError('Bitbucket', answer(403, { type: 'error', error: { message: 'lacks scopes' } }));
    expect(bitbucket.message).toBe('Bitbucket refused access: lacks scopes');
  });

  it('reads when a rate limit lifts from Retry-After or RateLimit-Reset', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(hostApiError('GitLab', answer(429, {}, { 'retry-after': '30' }), now).options.retryAt).toEqual(
      new Date(now + 30_000),
    );
    expect(hostApiError('GitLab', answer(429, {}, { 'ratelimit-reset': '1772366460' }), now).options.retryAt).toEqual(
      new Date(1_772_366_460_000),
    );
  });

  it('calls 404 not found and 5xx unavailable', () => {
    expect(hostApiError('Bitbucket', answer(404)).code).toBe('NOT_FOUND');
    expect(hostApiError('Bitbucket', answer(502))).toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Bitbucket is not answering properly (HTTP 502).',
    });
  });
});

describe('withoutTrailingSlashes', () => {
  it('drops every trailing slash and keeps the rest, in linear time', () => {
    expect(withoutTrailingSlashes('https://gitlab.example.com/gitlab///')).toBe('https://gitlab.example.com/gitlab');
    expect(withoutTrailingSlashes('https://gitlab.com')).toBe('https://gitlab.com');
    expect(withoutTrailingSlashes(`x${'/'.repeat(100_000)}`)).toBe('x');
  });
});
