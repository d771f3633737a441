import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const trustProxyOf = (value: string | undefined) =>
  loadConfig({ DATA_DIR: '/tmp/packgate-config-test', SECRET_KEY: 'x'.repeat(32), TRUST_PROXY: value }).trustProxy;

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default', () => {
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf('false')).toBe(false);
    expect(trustProxyOf('0')).toBe(false);
  });

  it('reads true as one proxy hop, never as every hop', () => {
    expect(trustProxyOf('true')).toBe(1);
    expect(trustProxyOf('1')).toBe(1);
    expect(trustProxyOf('2')).toBe(2);
  });

  it('takes the proxies by IP address or CIDR range', () => {
    expect(trustProxyOf('10.0.0.1')).toEqual(['10.0.0.1']);
    expect(trustProxyOf('10.0.0.0/8, 192.168.1.5,::1,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each(['everyone', '10.0.0.0/33', '10.0.0.256', '10.0.0.0/', '10.0.0.0/8/8', '::1/129', '1,2'])(
    'refuses %s at start-up',
    (value) => {
      expect(() => trustProxyOf(value)).toThrow(ConfigError);
      expect(() => trustProxyOf(value)).toThrow(/TRUST_PROXY: must be false, a number of proxy hops/);
    },
  );
});
