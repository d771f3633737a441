import { describe, expect, it } from 'vitest';
import { ApiRequestError, catalogueEntry, errorMessage, parseRetryAfter, toApiRequestError } from './api-error';

describe('error catalogue', () => {
  it.each([
    [404, 'Not Found', 'The requested resource was not found.'],
    [403, 'Access Denied', 'You do not have permission to access this resource.'],
    [401, 'Authentication Required', 'Please log in to access this resource.'],
    [429, 'Too Many Requests', 'Please wait a moment before trying again.'],
    [500, 'Server Error', 'A server error occurred. Please try again later.'],
    [503, 'Server Error', 'A server error occurred. Please try again later.'],
    [418, 'An unexpected error occurred', ''],
  ])('gives status %i the title %s when the body is not JSON', (status, title, message) => {
    expect(catalogueEntry(status)).toEqual({ title, message });
    const error = toApiRequestError(status, '');
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.error).toBe(title);
    expect(error.message).toBe(message || title);
    expect(error.status).toBe(status);
  });

  it('reads error, message, suggestion and code from a JSON body', () => {
    const body = JSON.stringify({
      error: 'Conflict',
      message: 'Name taken',
      suggestion: 'Pick another',
      status: 409,
      code: 'ALREADY_EXISTS',
    });
    const error = toApiRequestError(409, body);
    expect(error).toMatchObject({
      error: 'Conflict',
      message: 'Name taken',
      suggestion: 'Pick another',
      status: 409,
      code: 'ALREADY_EXISTS',
    });
  });

  it('falls back to the error field, then the catalogue, when the JSON has no message', () => {
    expect(toApiRequestError(400, JSON.stringify({ error: 'Bad tier' })).message).toBe('Bad tier');
    const onlyStatus = toApiRequestError(404, JSON.stringify({ status: 404 }));
    expect(onlyStatus).toMatchObject({ error: 'Not Found', message: 'The requested resource was not found.' });
  });

  it('uses the raw body text as the message when the body is plain text', () => {
    const error = toApiRequestError(502, 'upstream timed out');
    expect(error).toMatchObject({ error: 'Server Error', message: 'upstream timed out' });
  });

  it('keeps the catalogue message instead of an HTML error page', () => {
    const error = toApiRequestError(502, '<html><body>Bad Gateway</body></html>');
    expect(error.message).toBe('A server error occurred. Please try again later.');
  });

  it('keeps the Retry-After delay of a 429', () => {
    expect(toApiRequestError(429, '', '12').retryAfterMs).toBe(12_000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds', () => expect(parseRetryAfter('30')).toBe(30_000));
  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
  });
  it('gives undefined for a missing or unreadable header', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('errorMessage', () => {
  it('prefers the server message and falls back otherwise', () => {
    expect(errorMessage(toApiRequestError(400, JSON.stringify({ message: 'No' })), 'Failed')).toBe('No');
    expect(errorMessage(undefined, 'Failed')).toBe('Failed');
  });
});
