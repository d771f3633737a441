import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/crypto.js';
import { createCredentialReader, tokenFromAuthorization } from './composer-credentials.js';

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

describe('the warm door’s credential reader', () => {
  it('reads what tokenFromAuthorization reads, with the token’s SHA-256, and nothing from a header without one', () => {
    const reader = createCredentialReader({ maxEntries: 10, maxBytes: 100_000 });
    for (const header of ['Bearer pgc_abc', basic('token:pgc_abc'), basic('pgc_abc:')]) {
      expect(reader.read(header)).toEqual({ token: 'pgc_abc', tokenHash: sha256Hex('pgc_abc') });
      expect(reader.read(header)).toEqual({ token: 'pgc_abc', tokenHash: sha256Hex('pgc_abc') });
    }
    for (const header of [undefined, '', 'Digest abc', `Bearer ${'x'.repeat(300)}`]) {
      expect(reader.read(header)).toBeUndefined();
    }
    expect(reader.size).toBe(3);
  });

  it('reads each request of a connection anew when its header differs from the last one’s', () => {
    const reader = createCredentialReader({ maxEntries: 10, maxBytes: 100_000 });
    const connection = {};
    const otherConnection = {};
    expect(reader.readOn(connection, 'Bearer pgc_first')?.token).toBe('pgc_first');
    expect(reader.readOn(connection, 'Bearer pgc_first')?.token).toBe('pgc_first');
    // Another token on the same connection is that token, never the connection's last one.
    expect(reader.readOn(connection, 'Bearer pgc_second')).toEqual({
      token: 'pgc_second',
      tokenHash: sha256Hex('pgc_second'),
    });
    expect(reader.readOn(connection, undefined)).toBeUndefined();
    expect(reader.readOn(connection, 'Digest pgc_second')).toBeUndefined();
    expect(reader.readOn(connection, basic('token:pgc_first'))?.token).toBe('pgc_first');
    expect(reader.readOn(otherConnection, 'Bearer pgc_second')?.token).toBe('pgc_second');
    // A header longer than the reader keeps is read at each request, on a connection too.
    const long = basic(`${'u'.repeat(600)}:pgc_long`);
    expect(reader.readOn(connection, long)?.token).toBe('pgc_long');
    expect(reader.readOn(connection, long)?.token).toBe('pgc_long');
    expect(reader.readOn(connection, 'Bearer pgc_first')?.token).toBe('pgc_first');
  });

  it('holds at most its count of headers, the least recently used going first', () => {
    const reader = createCredentialReader({ maxEntries: 3, maxBytes: 100_000 });
    for (const token of ['pgc_a', 'pgc_b', 'pgc_c']) reader.read(`Bearer ${token}`);
    reader.read('Bearer pgc_a');
    reader.read('Bearer pgc_d');
    expect(reader.size).toBe(3);
    const held = reader.read('Bearer pgc_b');
    expect(held?.token).toBe('pgc_b');
    expect(reader.size).toBe(3);
  });

  it('holds at most its bytes, and never a header longer than a credential of ours needs', () => {
    const reader = createCredentialReader({ maxEntries: 10_000, maxBytes: 4_000 });
    for (let index = 0; index < 1_000; index++) reader.read(`Bearer pgc_${String(index).padStart(40, '0')}`);
    expect(reader.heldBytes).toBeLessThanOrEqual(4_000);
    expect(reader.size).toBeGreaterThan(0);
    expect(reader.size).toBeLessThan(20);
    const long = basic(`${'u'.repeat(600)}:pgc_long`);
    const sizeBefore = reader.size;
    const bytesBefore = reader.heldBytes;
    expect(reader.read(long)?.token).toBe('pgc_long');
    expect([reader.size, reader.heldBytes]).toEqual([sizeBefore, bytesBefore]);
  });
});
