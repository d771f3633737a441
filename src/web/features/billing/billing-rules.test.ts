import { describe, expect, it } from 'vitest';
import { billingDates, billingStatusLabel, cancellationState } from './billing-rules';

const facts = {
  subscriptionStatus: 'active' as const,
  cancelAtPeriodEnd: false,
  trialEndsAt: null,
  currentPeriodEnd: '2026-04-01T00:00:00.000Z',
  licenseHolderAccessUntil: null,
};

describe('the /billing status badge', () => {
  it('reads Active, or that the plan cancels at the end of the period', () => {
    expect(billingStatusLabel(facts).text).toBe('Active');
    expect(billingStatusLabel({ ...facts, cancelAtPeriodEnd: true }).text).toBe('Cancels at period end');
  });
  it('names trial and lapsed states', () => {
    expect(billingStatusLabel({ ...facts, subscriptionStatus: 'trial' }).text).toBe('Free Trial');
    expect(billingStatusLabel({ ...facts, subscriptionStatus: 'trial_expired' }).text).toBe('Trial Expired');
    expect(billingStatusLabel({ ...facts, subscriptionStatus: 'inactive' }).text).toBe('Inactive');
    expect(billingStatusLabel({ ...facts, subscriptionStatus: 'expired' }).text).toBe('Expired');
  });
});

describe('the /billing dates', () => {
  it('give the renewal date of an active plan, or its end date once cancelled', () => {
    expect(billingDates(facts)).toEqual([{ label: 'Renews on', iso: facts.currentPeriodEnd }]);
    expect(billingDates({ ...facts, cancelAtPeriodEnd: true })).toEqual([
      { label: 'Ends on', iso: facts.currentPeriodEnd },
    ]);
  });
  it('give the end of a trial', () => {
    expect(billingDates({ ...facts, subscriptionStatus: 'trial', trialEndsAt: '2026-03-15T00:00:00.000Z' })).toEqual([
      { label: 'Trial ends on', iso: '2026-03-15T00:00:00.000Z' },
    ]);
  });
  it("give the end of the license holders' grace period once access is lost", () => {
    expect(
      billingDates({
        ...facts,
        subscriptionStatus: 'inactive',
        currentPeriodEnd: null,
        licenseHolderAccessUntil: '2026-04-08T00:00:00.000Z',
      }),
    ).toEqual([{ label: 'License holders keep access until', iso: '2026-04-08T00:00:00.000Z' }]);
  });
});

describe('what /billing?cancelled=true announces', () => {
  it('announces nothing for a plan that still renews, whatever the address says', () => {
    expect(cancellationState({ subscriptionStatus: 'active', cancelAtPeriodEnd: false, status: 'active' })).toBe(
      undefined,
    );
    expect(cancellationState({ subscriptionStatus: 'trial', cancelAtPeriodEnd: false, status: 'trial' })).toBe(
      undefined,
    );
  });
  it('announces the end at the period end, or a plan already ended', () => {
    expect(cancellationState({ subscriptionStatus: 'active', cancelAtPeriodEnd: true, status: 'active' })).toBe(
      'ends-at-period-end',
    );
    expect(cancellationState({ subscriptionStatus: 'expired', cancelAtPeriodEnd: false, status: 'expired' })).toBe(
      'ended',
    );
  });
});
