import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig, type StripeConfig } from '../../config.js';
import { defaultSandboxMode, keyPairFor, resolveSandboxMode } from './create-payments.js';

const live = { secretKey: 'sk_live_abc', webhookSecret: 'whsec_live' };
const test = { secretKey: 'sk_test_abc', webhookSecret: 'whsec_test' };
const apiUrl = 'https://api.stripe.com';

describe('payment mode', () => {
  it('defaults to live only when just the live pair is configured', () => {
    expect(defaultSandboxMode({ apiUrl })).toBe(true);
    expect(defaultSandboxMode({ apiUrl, test })).toBe(true);
    expect(defaultSandboxMode({ apiUrl, live, test })).toBe(true);
    expect(defaultSandboxMode({ apiUrl, live })).toBe(false);
  });

  it("follows the admin's stored setting, ignoring values it cannot read", () => {
    const stripe: StripeConfig = { apiUrl, live, test };
    expect(resolveSandboxMode('true', stripe)).toBe(true);
    expect(resolveSandboxMode('false', stripe)).toBe(false);
    expect(resolveSandboxMode('maybe', { apiUrl, live })).toBe(false);
    expect(resolveSandboxMode(undefined, { apiUrl, live })).toBe(false);
  });

  it('takes the test pair in sandbox mode and the live pair in live mode', () => {
    expect(keyPairFor(true, { apiUrl, live, test })).toBe(test);
    expect(keyPairFor(false, { apiUrl, live, test })).toBe(live);
    expect(keyPairFor(false, { apiUrl, test })).toBeUndefined();
  });

  it('uses STRIPE_SECRET_KEY in sandbox mode only when it holds a test key', () => {
    const testKeysInMainPair = { secretKey: 'sk_test_main', webhookSecret: 'whsec_main' };
    expect(keyPairFor(true, { apiUrl, live: testKeysInMainPair })).toBe(testKeysInMainPair);
    expect(keyPairFor(true, { apiUrl, live })).toBeUndefined();
  });
});

describe('STRIPE_* settings', () => {
  const base = { DATA_DIR: '/tmp/packgate-config-test', SECRET_KEY: 'x'.repeat(32) };

  it('reads both pairs and the API address', () => {
    const config = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: 'sk_live_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_TEST_SECRET_KEY: 'sk_test_2',
      STRIPE_TEST_WEBHOOK_SECRET: 'whsec_2',
      STRIPE_API_URL: 'http://127.0.0.1:12111/',
    });
    expect(config.stripe).toEqual({
      live: { secretKey: 'sk_live_1', webhookSecret: 'whsec_1' },
      test: { secretKey: 'sk_test_2', webhookSecret: 'whsec_2' },
      apiUrl: 'http://127.0.0.1:12111',
    });
    expect(loadConfig(base).stripe).toEqual({ apiUrl: 'https://api.stripe.com' });
  });

  it('wants each pair whole, and no live key in the test pair', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ STRIPE_SECRET_KEY: 'sk_live_1' })).toEqual([
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
    ]);
    expect(problems({ STRIPE_TEST_WEBHOOK_SECRET: 'whsec_2' })).toEqual([
      'STRIPE_TEST_SECRET_KEY and STRIPE_TEST_WEBHOOK_SECRET must be set together',
    ]);
    expect(problems({ STRIPE_TEST_SECRET_KEY: 'sk_live_2', STRIPE_TEST_WEBHOOK_SECRET: 'whsec_2' })).toEqual([
      'STRIPE_TEST_SECRET_KEY holds a live key (sk_live_...); use a test key (sk_test_...)',
    ]);
  });
});
