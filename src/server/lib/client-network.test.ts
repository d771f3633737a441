import { describe, expect, it } from 'vitest';
import { clientLimitSubject, clientNetwork } from './client-network.js';

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

describe('clientLimitSubject', () => {
  it('counts an IPv4 address itself, and an IPv4-mapped one as that IPv4 address', () => {
    expect(clientLimitSubject('203.0.113.77')).toBe('203.0.113.77');
    expect(clientLimitSubject('::ffff:198.51.100.9')).toBe('198.51.100.9');
    expect(clientLimitSubject('::ffff:c633:6409')).toBe('198.51.100.9');
  });

  it('counts every address of an IPv6 /64 as one, however it is written', () => {
    expect(clientLimitSubject('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(clientLimitSubject('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientLimitSubject('2001:0DB8:0001:0002:0:0:0:1%eth0')).toBe('2001:db8:1:2::/64');
    expect(clientLimitSubject('2001:db8:1:3::a')).toBe('2001:db8:1:3::/64');
  });

  it('answers anything else as given', () => {
    expect(clientLimitSubject('not-an-address')).toBe('not-an-address');
  });
});
