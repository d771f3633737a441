import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.js';

describe('clientNetwork', () => {
  it('keeps the /24 of an IPv4 address, never the address', () => {
    expect(clientNetwork('203.0.113.77')).toBe('203.0.113.0/24');
    expect(clientNetwork('10.1.2.3')).toBe('10.1.2.0/24');
  });

  it('keeps the /48 of an IPv6 address, written short', () => {
    expect(clientNetwork('2001:db8:1234:5678::1')).toBe('2001:db8:1234::/48');
    expect(clientNetwork('2001:0db8:0000:ffff:0:0:0:1')).toBe('2001:db8::/48');
    expect(clientNetwork('2001:db8:abcd:12::1%eth0')).toBe('2001:db8:abcd::/48');
    expect(clientNetwork('::1')).toBe('::/48');
    expect(clientNetwork('fe80::1')).toBe('fe80::/48');
  });

  it('treats an IPv4-mapped IPv6 address as IPv4', () => {
    expect(clientNetwork('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(clientNetwork('::ffff:c633:6409')).toBe('198.51.100.0/24');
  });

  it('answers undefined for what is not an address', () => {
    expect(clientNetwork(undefined)).toBeUndefined();
    expect(clientNetwork('')).toBeUndefined();
    expect(clientNetwork('example.com')).toBeUndefined();
    expect(clientNetwork('1.2.3')).toBeUndefined();
    expect(clientNetwork(`${'1:'.repeat(40)}1`)).toBeUndefined();
  });
});
