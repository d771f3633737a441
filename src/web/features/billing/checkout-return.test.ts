import { describe, expect, it } from 'vitest';
import {
  type CheckoutPhase,
  checkoutStep,
  initialCheckoutPhase,
  readCheckoutReturn,
  withoutCheckoutQuery,
} from './checkout-return';

describe('reading the return from checkout', () => {
  it('verifies a named checkout session', () => {
    expect(readCheckoutReturn('?success=true&session_id=cs_test_123')).toEqual({
      kind: 'verify',
      sessionId: 'cs_test_123',
    });
    expect(readCheckoutReturn('session_id=cs_1')).toEqual({ kind: 'verify', sessionId: 'cs_1' });
  });
  it('verifies without a session id on success=true alone (billing off)', () => {
    expect(readCheckoutReturn('?success=true')).toEqual({ kind: 'verify', sessionId: undefined });
  });
  it('reads cancelled=true', () => {
    expect(readCheckoutReturn('?cancelled=true')).toEqual({ kind: 'cancelled' });
  });
  it('ignores anything else', () => {
    expect(readCheckoutReturn('')).toEqual({ kind: 'none' });
    expect(readCheckoutReturn('?success=false&session_id=')).toEqual({ kind: 'none' });
  });
  it('starts checking on success, shows the cancellation, or does nothing', () => {
    expect(initialCheckoutPhase({ kind: 'verify', sessionId: 'x' })).toBe('checking');
    expect(initialCheckoutPhase({ kind: 'verify', sessionId: undefined })).toBe('checking');
    expect(initialCheckoutPhase({ kind: 'cancelled' })).toBe('cancelled');
    expect(initialCheckoutPhase({ kind: 'none' })).toBe('idle');
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
