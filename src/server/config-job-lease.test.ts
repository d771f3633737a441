import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const leaseOf = (value: string | undefined) =>
  loadConfig({ DATA_DIR: '/tmp/packgate-config-test', SECRET_KEY: 'x'.repeat(32), JOB_LEASE_SECONDS: value })
    .jobLeaseMs;

describe('JOB_LEASE_SECONDS', () => {
  it('holds a job claim for a minute by default', () => {
    expect(leaseOf(undefined)).toBe(60_000);
  });

  it('takes whole seconds from 2 to an hour', () => {
    expect(leaseOf('6')).toBe(6_000);
    expect(leaseOf('3600')).toBe(3_600_000);
  });

  it('refuses a lease too short to renew, fractions and words', () => {
    for (const value of ['1', '0', '-5', '2.5', '3601', 'soon']) {
      expect(() => leaseOf(value), value).toThrow(ConfigError);
    }
  });
});
