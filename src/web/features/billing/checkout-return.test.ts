import { describe, expect, it } from 'vitest';
import { type CasesByRule, itAnswersEachCase } from '../../../../test/support/case-tables.js';
import {
  type CheckoutPhase,
  checkoutStep,
  initialCheckoutPhase,
  readCheckoutReturn,
  withoutCheckoutQuery,
} from './checkout-return';

/** Each rule of readCheckoutReturn, with the query strings it reads and what it makes of each. */
const returnsByRule: CasesByRule<string, ReturnType<typeof readCheckoutReturn>> = {
  'verifies a named checkout session': [
    ['?success=true&session_id=cs_test_123', { kind: 'verify', sessionId: 'cs_test_123' }],
    ['session_id=cs_1', { kind: 'verify', sessionId: 'cs_1' }],
  ],
  'verifies without a session id on success=true alone (billing off)': [
    ['?success=true', { kind: 'verify', sessionId: undefined }],
  ],
  'reads cancelled=true': [['?cancelled=true', { kind: 'cancelled' }]],
  'ignores anything else': [
    ['', { kind: 'none' }],
    ['?success=false&session_id=', { kind: 'none' }],
  ],
};

describe('reading the return from checkout', () => {
  itAnswersEachCase(readCheckoutReturn, returnsByRule);
  itAnswersEachCase(initialCheckoutPhase, {
    'starts checking on success, shows the cancellation, or does nothing': [
      [{ kind: 'verify', sessionId: 'x' }, 'checking'],
      [{ kind: 'verify', sessionId: undefined }, 'checking'],
      [{ kind: 'cancelled' }, 'cancelled'],
      [{ kind: 'none' }, 'idle'],
    ],
  });
});

describe('the checkout return state machine', () => {
  it('announces activation and refreshes the status when the session is verified', () => {
    expect(checkoutStep('checking', { type: 'verified', success: true })).toEqual({
      phase: 'activated',
      effects: [{ type: 'announce-activated' }, { type: 'refresh-status' }],
    });
  });

  it('shows the processing message and reads the status again after 3 s when not complete', () => {
    const later = { phase: 'processing', effects: [{ type: 'refetch-status-later', delayMs: 3000 }] };
    expect(checkoutStep('checking', { type: 'verified', success: false })).toEqual(later);
    expect(checkoutStep('checking', { type: 'verify-failed' })).toEqual(later);
  });

  it('waits for the verification, not for a status read, while checking', () => {
    expect(checkoutStep('checking', { type: 'status', subscriptionStatus: 'active' })).toEqual({
      phase: 'checking',
      effects: [],
    });
  });

  it('announces an activation that arrives with the later read, and stops unconfirmed otherwise', () => {
    expect(checkoutStep('processing', { type: 'status', subscriptionStatus: 'active' }).phase).toBe('activated');
    expect(checkoutStep('processing', { type: 'status', subscriptionStatus: 'trial' })).toEqual({
      phase: 'unconfirmed',
      effects: [],
    });
  });

  it('ignores events in the phases that are done', () => {
    for (const phase of ['idle', 'activated', 'unconfirmed', 'cancelled'] as CheckoutPhase[]) {
      expect(checkoutStep(phase, { type: 'verified', success: true })).toEqual({ phase, effects: [] });
      expect(checkoutStep(phase, { type: 'status', subscriptionStatus: 'active' })).toEqual({ phase, effects: [] });
    }
  });
});

describe('clearing the query string', () => {
  it('drops the checkout parameters and keeps the rest', () => {
    expect(withoutCheckoutQuery('/billing', '?success=true&session_id=cs_1')).toBe('/billing');
    expect(withoutCheckoutQuery('/subscribe', '?cancelled=true&intent=change')).toBe('/subscribe?intent=change');
  });
});
