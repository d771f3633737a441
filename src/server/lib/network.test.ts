import { describe, expect, it } from 'vitest';
import { networkOf } from './network.js';

describe('networkOf', () => {
  it('answers an IPv4 /24 and an IPv6 /48', () => {
    expect(networkOf('203.0.113.57')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(networkOf('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
  });

  it('answers null for what is not an address', () => {
    expect(networkOf(undefined)).toBeNull();
    expect(networkOf('localhost')).toBeNull();
  });
});
