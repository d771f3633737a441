import { describe, expect, it } from 'vitest';
import {
  growthTrialFirstDayStatus,
  statusOutsideTrial,
  tierSelectionRequiredStatus,
} from '../../../../test/support/subscription-statuses.js';
import { DAY_MS, HOUR_MS } from '../../lib/clock.js';
import {
  computeSubscriptionStatus,
  type StatusSubscription,
  type StatusUser,
  statusMessages,
} from './subscription-status.js';

const seller: StatusUser = { userType: 'seller', selectedTier: null };
const admin: StatusUser = { userType: 'admin', selectedTier: null };
const trialStart = new Date('2026-03-01T12:00:00Z');
const trialEnd = new Date(trialStart.getTime() + 14 * DAY_MS);
const at = (ms: number) => new Date(trialStart.getTime() + ms);

const trial: StatusSubscription = {
  status: 'trial',
  tierId: 'growth',
  trialEndsAt: trialEnd,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
};

describe('computeSubscriptionStatus', () => {
  it('asks a new seller to pick a tier, preselecting the one remembered from sign-in', () => {
    expect(computeSubscriptionStatus({ userType: 'seller', selectedTier: 'scale' }, undefined, trialStart)).toEqual(
      tierSelectionRequiredStatus('scale'),
    );
  });

  it('gives admins full access without a subscription', () => {
    expect(computeSubscriptionStatus(admin, undefined, trialStart)).toEqual(
      statusOutsideTrial({
        subscriptionStatus: 'active',
        hasAccess: true,
        hasSubscription: true,
        selectedTier: null,
        message: statusMessages.admin,
        tier: null,
        status: null,
        expiresAt: null,
      }),
    );
  });

  it('counts 14 days left on the day a 14-day trial starts', () => {
    expect(computeSubscriptionStatus(seller, trial, trialStart)).toEqual(
      growthTrialFirstDayStatus('2026-03-15T12:00:00.000Z'),
    );
  });

  it('rounds the days left up during the first day', () => {
    expect(computeSubscriptionStatus(seller, trial, at(5 * HOUR_MS))).toMatchObject({
      trialDaysLeft: 14,
      trialHoursLeft: 331,
    });
  });

  it('counts 2 days left on day 12', () => {
    expect(computeSubscriptionStatus(seller, trial, at(12 * DAY_MS))).toMatchObject({
      subscriptionStatus: 'trial',
      hasAccess: true,
      trialDaysLeft: 2,
      trialHoursLeft: 48,
      message: 'Your free trial ends in 2 days.',
    });
  });

  it('counts 1 day or 24 hours left on day 13', () => {
    expect(computeSubscriptionStatus(seller, trial, at(13 * DAY_MS))).toMatchObject({
      subscriptionStatus: 'trial',
      hasAccess: true,
      trialDaysLeft: 1,
      trialHoursLeft: 24,
      trialExpiredDaysAgo: null,
      message: 'Your free trial ends in 24 hours.',
    });
  });

  it('still grants access in the last hour, with 1 hour left rounded up', () => {
    expect(computeSubscriptionStatus(seller, trial, at(14 * DAY_MS - 30 * 60_000))).toMatchObject({
      subscriptionStatus: 'trial',
      hasAccess: true,
      trialDaysLeft: 1,
      trialHoursLeft: 1,
      message: 'Your free trial ends in less than an hour.',
    });
  });

  it('expires the trial at its end, on day 14, as 0 days ago', () => {
    expect(computeSubscriptionStatus(seller, trial, trialEnd)).toEqual({
      subscriptionStatus: 'trial_expired',
      hasAccess: false,
      hasSubscription: true,
      trialDaysLeft: 0,
      trialHoursLeft: 0,
      trialExpiredDaysAgo: 0,
      selectedTier: 'growth',
      message: statusMessages.trialExpired,
      tier: 'growth',
      status: 'trial',
      expiresAt: '2026-03-15T12:00:00.000Z',
    });
  });

  it('counts whole days since the trial ended', () => {
    expect(computeSubscriptionStatus(seller, trial, at(15 * DAY_MS))).toMatchObject({
      subscriptionStatus: 'trial_expired',
      trialExpiredDaysAgo: 1,
    });
    expect(computeSubscriptionStatus(seller, trial, at(15 * DAY_MS + 23 * HOUR_MS))).toMatchObject({
      trialExpiredDaysAgo: 1,
    });
    expect(computeSubscriptionStatus(seller, trial, at(19 * DAY_MS))).toMatchObject({
      subscriptionStatus: 'trial_expired',
      hasAccess: false,
      trialExpiredDaysAgo: 5,
    });
  });

  it('gives an active subscription access until the paid period ends', () => {
    const periodEnd = new Date('2026-04-01T00:00:00Z');
    const active: StatusSubscription = { ...trial, status: 'active', tierId: 'scale', currentPeriodEnd: periodEnd };
    expect(computeSubscriptionStatus(seller, active, at(40 * DAY_MS))).toEqual(
      statusOutsideTrial({
        subscriptionStatus: 'active',
        hasAccess: true,
        hasSubscription: true,
        selectedTier: 'scale',
        message: statusMessages.active,
        tier: 'scale',
        status: 'active',
        expiresAt: '2026-04-01T00:00:00.000Z',
      }),
    );
    expect(computeSubscriptionStatus(seller, { ...active, cancelAtPeriodEnd: true }, trialStart).message).toBe(
      statusMessages.activeEnding,
    );
  });

  it('expires a period cancelled at its end once the end has passed, without waiting for an event', () => {
    const periodEnd = new Date('2026-04-01T00:00:00Z');
    const ending: StatusSubscription = {
      ...trial,
      status: 'active',
      tierId: 'scale',
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: true,
    };
    expect(computeSubscriptionStatus(seller, ending, new Date(periodEnd.getTime() - 1))).toMatchObject({
      subscriptionStatus: 'active',
      hasAccess: true,
      message: statusMessages.activeEnding,
    });
    expect(computeSubscriptionStatus(seller, ending, periodEnd)).toMatchObject({
      subscriptionStatus: 'expired',
      hasAccess: false,
      status: 'active',
      expiresAt: '2026-04-01T00:00:00.000Z',
      message: statusMessages.expired,
    });
  });

  it('refuses access to an inactive subscription', () => {
    const inactive: StatusSubscription = { ...trial, status: 'inactive', tierId: 'scale', currentPeriodEnd: null };
    expect(computeSubscriptionStatus(seller, inactive, trialStart)).toEqual(
      statusOutsideTrial({
        subscriptionStatus: 'inactive',
        hasAccess: false,
        hasSubscription: true,
        selectedTier: 'scale',
        message: statusMessages.inactive,
        tier: 'scale',
        status: 'inactive',
        expiresAt: null,
      }),
    );
  });

  it('refuses access to an expired subscription', () => {
    const periodEnd = new Date('2026-02-01T00:00:00Z');
    const expired: StatusSubscription = { ...trial, status: 'expired', currentPeriodEnd: periodEnd };
    expect(computeSubscriptionStatus(seller, expired, trialStart)).toMatchObject({
      subscriptionStatus: 'expired',
      hasAccess: false,
      hasSubscription: true,
      expiresAt: '2026-02-01T00:00:00.000Z',
      message: statusMessages.expired,
    });
  });

  it('treats a trial without an end as expired rather than endless', () => {
    expect(computeSubscriptionStatus(seller, { ...trial, trialEndsAt: null }, trialStart)).toMatchObject({
      subscriptionStatus: 'trial_expired',
      hasAccess: false,
      trialExpiredDaysAgo: 0,
    });
  });
});
