import { describe, expect, it } from 'vitest';
import { toApiRequestError } from '../../lib/api-error';
import { magicLinkRequestFailure, tokenVerificationFailure } from './admin-login-messages';

const failure = (status: number, body: Record<string, unknown> = {}) => toApiRequestError(status, JSON.stringify(body));

describe('admin magic-link request failures', () => {
  it('names the address when no admin account exists', () => {
    expect(magicLinkRequestFailure(failure(404, { message: 'x' }), 'ann@example.com')).toEqual({
      title: 'Admin Account Not Found',
      description:
        'No admin account exists for ann@example.com. Please contact the system administrator to create your admin account first.',
    });
  });

  it('says Access Denied with the server message, or the default', () => {
    expect(magicLinkRequestFailure(failure(403, { message: 'Sellers cannot.' }), 'a@b.c')).toEqual({
      title: 'Access Denied',
      description: 'Sellers cannot.',
    });
    expect(magicLinkRequestFailure(toApiRequestError(403, ''), 'a@b.c').description).toBe(
      'You do not have permission to access this resource.',
    );
  });

  it('appends the suggestion to other server messages', () => {
    const error = failure(429, {
      error: 'Too Many Requests',
      message: 'Slow down.',
      suggestion: 'Try again in 60 seconds.',
    });
    expect(magicLinkRequestFailure(error, 'a@b.c')).toEqual({
      title: 'Error',
      description: 'Slow down. Try again in 60 seconds.',
    });
  });

  it('falls back to a generic sentence', () => {
    expect(magicLinkRequestFailure(undefined, 'a@b.c').description).toBe('An unexpected error occurred');
  });
});

describe('admin token verification failures', () => {
  it.each([
    ['This magic link has already been used.', 'Token Already Used'],
    ['This magic link has expired.', 'Token Expired'],
    ['This magic link is not valid.', 'Invalid Token'],
  ])('maps a 400 saying "%s" to %s', (message, title) => {
    expect(tokenVerificationFailure(failure(400, { message })).title).toBe(title);
  });

  it('says the link lasted 30 minutes when it expired', () => {
    expect(tokenVerificationFailure(failure(400, { message: 'expired' })).description).toContain('30 minutes');
  });

  it('asks to wait after too many attempts', () => {
    expect(tokenVerificationFailure(failure(429))).toEqual({
      title: 'Too Many Attempts',
      description: 'Please wait a moment before trying again.',
    });
  });

  it('falls back to Token verification failed', () => {
    expect(tokenVerificationFailure(undefined)).toEqual({ title: 'Error', description: 'Token verification failed' });
  });
});
