import { describe, expect, it } from 'vitest';
import { toApiRequestError } from '../api-error';
import { shouldRetryStatusQuery, statusQueryRetryDelay } from './status-retry';

const failure = (status: number, retryAfter?: string) => toApiRequestError(status, '', retryAfter);

describe('subscription status retries', () => {
  it('never retries 401, 403 or 404', () => {
    for (const status of [401, 403, 404]) expect(shouldRetryStatusQuery(0, failure(status))).toBe(false);
  });

  it('retries rate limiting up to 3 times', () => {
    expect([0, 1, 2, 3].map((count) => shouldRetryStatusQuery(count, failure(429)))).toEqual([true, true, true, false]);
  });

  it('retries other failures up to 2 times', () => {
    expect([0, 1, 2].map((count) => shouldRetryStatusQuery(count, failure(500)))).toEqual([true, true, false]);
    expect(shouldRetryStatusQuery(0, new TypeError('network'))).toBe(true);
  });

  it('waits as long as Retry-After says after a 429', () => {
    expect(statusQueryRetryDelay(0, failure(429, '5'))).toBe(5000);
  });

  it('waits 30 s after a 429 without Retry-After', () => {
    expect(statusQueryRetryDelay(0, failure(429))).toBe(30_000);
  });

  it('never waits more than 30 s', () => {
    expect(statusQueryRetryDelay(0, failure(429, '120'))).toBe(30_000);
    expect(statusQueryRetryDelay(10, failure(500))).toBe(30_000);
  });
});
