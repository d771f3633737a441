import { describe, expect, it } from 'vitest';
import { isSandboxModeSetting, paymentModeSummary, requiredEnvironmentVariables } from './admin-settings';

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

describe('what the Settings card says about payments', () => {
  const missingEverything = {
    test: ['STRIPE_TEST_SECRET_KEY', 'STRIPE_TEST_WEBHOOK_SECRET'],
    live: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
  };
  const off = { sandboxMode: true, billingEnabled: false, restartRequired: false };

  it('says payments are off beside the selected mode, and names what that mode lacks', () => {
    const summary = paymentModeSummary(true, { ...off, missingEnvironmentVariables: missingEverything });
    expect(summary).toMatchObject({ badge: 'Test Mode', isOff: true });
    expect(summary.text).toBe(
      'Payments are off: plans activate without a charge. Set STRIPE_TEST_SECRET_KEY and STRIPE_TEST_WEBHOOK_SECRET and restart the server to take payments in test mode.',
    );
    expect(summary.showsTestCards).toBe(false);
    expect(paymentModeSummary(false, { ...off, missingEnvironmentVariables: missingEverything }).missing).toEqual([
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]);
  });

  it('says a restart turns payments on when the selected pair is set', () => {
    const summary = paymentModeSummary(true, {
      ...off,
      missingEnvironmentVariables: { test: [], live: missingEverything.live },
    });
    expect(summary.isOff).toBe(true);
    expect(summary.text).toBe('Payments are off until the server restarts: the test mode variables are set.');
  });

  it('shows the mode and the test cards while Stripe takes test payments', () => {
    const running = {
      sandboxMode: true,
      billingEnabled: true,
      restartRequired: false,
      missingEnvironmentVariables: { test: [], live: missingEverything.live },
    };
    expect(paymentModeSummary(true, running)).toMatchObject({ badge: 'Test Mode', isOff: false, showsTestCards: true });
    expect(paymentModeSummary(false, { ...running, restartRequired: true })).toMatchObject({
      badge: 'Live Mode',
      text: 'After a restart payments will be off: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET first.',
      showsTestCards: false,
    });
  });
});
