import { describe, expect, it } from 'vitest';
import { tokenFromAuthorization } from './composer-credentials.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('tokenFromAuthorization', () => {
  it('reads a bearer token (as `composer config bearer.{host}` sends it)', () => {
    expect(tokenFromAuthorization('Bearer pgc_abc')).toBe('pgc_abc');
    expect(tokenFromAuthorization('bearer  pgc_abc ')).toBe('pgc_abc');
  });

  it('reads the password of HTTP basic, with any username', () => {
    expect(tokenFromAuthorization(basic('token:pgc_abc'))).toBe('pgc_abc');
    expect(tokenFromAuthorization(basic('jane@example.com:pgc_abc'))).toBe('pgc_abc');
  });

  it('accepts the token as the username when the password is empty', () => {
    expect(tokenFromAuthorization(basic('pgc_abc:'))).toBe('pgc_abc');
  });

  it('finds nothing in absent, empty, unknown-scheme or oversized credentials', () => {
    expect(tokenFromAuthorization(undefined)).toBeUndefined();
    expect(tokenFromAuthorization('')).toBeUndefined();
    expect(tokenFromAuthorization('Bearer')).toBeUndefined();
    expect(tokenFromAuthorization('Digest abc')).toBeUndefined();
    expect(tokenFromAuthorization(basic('no-colon'))).toBeUndefined();
    expect(tokenFromAuthorization(basic(':'))).toBeUndefined();
    expect(tokenFromAuthorization(`Bearer ${'x'.repeat(300)}`)).toBeUndefined();
  });
});
