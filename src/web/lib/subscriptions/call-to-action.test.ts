import { describe, expect, it } from 'vitest';
import { callToAction } from './call-to-action';

const seller = { userType: 'seller' as const };
const admin = { userType: 'admin' as const };

describe('call to action by state', () => {
  it('sends a signed-out visitor to sign-in with the tier in the query', () => {
    expect(callToAction({ user: null, subscriptionStatus: undefined, trialDays: 14, tierId: 'growth' })).toEqual({
      label: 'Start 14-Day Free Trial',
      href: '/api/auth/github?tier=growth',
      isServerRoute: true,
    });
  });

  it('uses the configured trial length in the label', () => {
    expect(callToAction({ user: null, subscriptionStatus: undefined, trialDays: 30 }).label).toBe(
      'Start 30-Day Free Trial',
    );
  });

  it('sends admins to the dashboard', () => {
    expect(callToAction({ user: admin, subscriptionStatus: 'trial_expired', trialDays: 14 })).toMatchObject({
      label: 'Go to Dashboard',
      href: '/dashboard',
    });
  });

  it('sends sellers with an active plan or a trial to the dashboard', () => {
    for (const status of ['active', 'trial'] as const) {
      expect(callToAction({ user: seller, subscriptionStatus: status, trialDays: 14 })).toMatchObject({
        label: 'Go to Dashboard',
        href: '/dashboard',
        isServerRoute: false,
      });
    }
  });

  it('shows the trial button to a seller who has not chosen a tier, leading to the dashboard', () => {
    expect(callToAction({ user: seller, subscriptionStatus: 'tier_selection_required', trialDays: 14 })).toMatchObject({
      label: 'Start 14-Day Free Trial',
      href: '/dashboard',
    });
  });

  it('asks sellers whose trial or plan ended to subscribe', () => {
    for (const status of ['trial_expired', 'inactive', 'expired'] as const) {
      expect(callToAction({ user: seller, subscriptionStatus: status, trialDays: 14 })).toMatchObject({
        label: 'Subscribe Now',
        href: '/subscribe',
      });
    }
  });
});
