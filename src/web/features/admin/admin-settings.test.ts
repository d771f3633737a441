import { describe, expect, it } from 'vitest';
import { isSandboxModeSetting, requiredEnvironmentVariables } from './admin-settings';

describe('payment mode setting', () => {
  it('reads the stored stripe_sandbox_mode value', () => {
    expect(isSandboxModeSetting([{ key: 'stripe_sandbox_mode', value: 'true' }], false)).toBe(true);
    expect(isSandboxModeSetting([{ key: 'stripe_sandbox_mode', value: 'false' }], true)).toBe(false);
  });

  it('falls back to the running mode, then to test mode, when nothing is stored', () => {
    expect(isSandboxModeSetting([], false)).toBe(false);
    expect(isSandboxModeSetting(undefined)).toBe(true);
  });

  it('names the test variables in test mode and the live ones in live mode', () => {
    expect(requiredEnvironmentVariables(true)).toEqual(['STRIPE_TEST_SECRET_KEY', 'STRIPE_TEST_WEBHOOK_SECRET']);
    expect(requiredEnvironmentVariables(false)).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
  });
});
