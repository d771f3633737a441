import type { SubscriptionStatusValue } from '@contract/subscriptions';
import { describe, expect, it } from 'vitest';
import { bannerKind, expiredBannerTitle, trialRemainingText, trialUrgency } from './banner-rules';

describe('trial banner urgency', () => {
  it.each([
    [0, 'urgent'],
    [1, 'urgent'],
    [2, 'warning'],
    [3, 'warning'],
    [4, 'normal'],
    [14, 'normal'],
  ] as const)('is %s days left → %s', (days, urgency) => {
    expect(trialUrgency(days)).toBe(urgency);
  });
});

describe('trial remaining text', () => {
  it('counts days while more than one day is left', () => {
    expect(trialRemainingText(14, 336)).toBe('14 days remaining');
    expect(trialRemainingText(2, 30)).toBe('2 days remaining');
  });

  it('counts hours on the last day while more than one hour is left', () => {
    expect(trialRemainingText(1, 23)).toBe('23 hours remaining');
    expect(trialRemainingText(1, 2)).toBe('2 hours remaining');
  });

  it('says less than an hour at the very end', () => {
    expect(trialRemainingText(1, 1)).toBe('Less than 1 hour remaining');
    expect(trialRemainingText(0, 0)).toBe('Less than 1 hour remaining');
    expect(trialRemainingText(null, null)).toBe('Less than 1 hour remaining');
  });
});

describe('expired banner title', () => {
  const expired = (trialExpiredDaysAgo: number | null) =>
    expiredBannerTitle({ subscriptionStatus: 'trial_expired', trialExpiredDaysAgo });

  it('says yesterday for one day', () => expect(expired(1)).toBe('Free trial expired yesterday'));
  it('counts days beyond one', () => expect(expired(5)).toBe('Free trial expired 5 days ago'));
  it('says Free Trial Expired on the day itself or when unknown', () => {
    expect(expired(0)).toBe('Free Trial Expired');
    expect(expired(null)).toBe('Free Trial Expired');
  });
  it('says Subscription Required when there was no trial to expire', () => {
    expect(expiredBannerTitle({ subscriptionStatus: 'inactive', trialExpiredDaysAgo: null })).toBe(
      'Subscription Required',
    );
  });
});

describe('who sees which banner', () => {
  const seller = { userType: 'seller' as const };
  const withStatus = (subscriptionStatus: SubscriptionStatusValue) => ({ subscriptionStatus });

  it('shows no banner to admins whatever the status', () => {
    expect(bannerKind({ userType: 'admin' }, withStatus('trial_expired'))).toBe('none');
  });

  it('shows no banner to active sellers and sellers choosing a tier', () => {
    expect(bannerKind(seller, withStatus('active'))).toBe('none');
    expect(bannerKind(seller, withStatus('tier_selection_required'))).toBe('none');
  });

  it('shows the trial banner during a trial', () => {
    expect(bannerKind(seller, withStatus('trial'))).toBe('trial');
  });

  it('shows the expired banner to trial_expired, inactive and expired sellers', () => {
    expect(bannerKind(seller, withStatus('trial_expired'))).toBe('expired');
    expect(bannerKind(seller, withStatus('inactive'))).toBe('expired');
    expect(bannerKind(seller, withStatus('expired'))).toBe('expired');
  });

  it('shows nothing while signed out or while the status is unknown', () => {
    expect(bannerKind(null, withStatus('trial'))).toBe('none');
    expect(bannerKind(seller, undefined)).toBe('none');
  });
});
