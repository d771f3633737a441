import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { signIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import {
  growthTrialFirstDayStatus,
  tierSelectionRequiredStatus,
} from '../../../../test/support/subscription-statuses.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type { PlanConfiguration } from '../../../contract/plans.js';
import type { StartTrialResponse, SubscriptionStatus } from '../../../contract/subscriptions.js';
import { platformSubscriptions } from '../../db/schema/index.js';
import { DAY_MS, HOUR_MS } from '../../lib/clock.js';
import { statusMessages } from './subscription-status.js';
import { getSubscriptionStatus, hasActiveAccess } from './subscriptions.service.js';

const trialStart = new Date('2026-03-01T12:00:00.000Z');
const trialEnd = '2026-03-15T12:00:00.000Z';

async function statusOf(client: TestClient): Promise<SubscriptionStatus> {
  const response = await client.get('/api/platform-subscription/status');
  expect(response.status).toBe(200);
  return (await response.json()) as SubscriptionStatus;
}

describe('platform subscription', () => {
  let app: TestApp;
  const clock = new TestClock(trialStart);
  beforeAll(async () => {
    // Sessions must outlive the weeks the clock is moved forward.
    app = await startTestApp({
      clock,
      env: YEAR_LONG_SESSIONS,
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('requires a session for the status', async () => {
    const response = await new TestClient(app.baseUrl).get('/api/platform-subscription/status');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 401, error: 'Authentication Required' });
  });

  it('requires a session to start a trial', async () => {
    const response = await new TestClient(app.baseUrl).post('/api/platform-subscription/start-trial', {
      tier: 'starter',
    });
    expect(response.status).toBe(401);
  });

  it('takes a seller from tier selection through the trial to its expiry, by time alone', async () => {
    clock.set(trialStart);
    const { client, user } = await signInSeller(app, { selectedTier: 'scale' });

    expect(await statusOf(client)).toEqual(tierSelectionRequiredStatus('scale'));

    const started = await client.post('/api/platform-subscription/start-trial', { tier: 'growth' });
    expect(started.status).toBe(200);
    const day0 = growthTrialFirstDayStatus(trialEnd);
    expect(await started.json()).toEqual({
      success: true,
      alreadyActive: false,
      message: 'Your 14-day free trial of the Growth plan has started.',
      status: day0,
    });
    expect(await statusOf(client)).toEqual(day0);

    clock.set(new Date(trialStart.getTime() + 12 * DAY_MS));
    expect(await statusOf(client)).toEqual({
      ...day0,
      trialDaysLeft: 2,
      trialHoursLeft: 48,
      message: 'Your free trial ends in 2 days.',
    });

    clock.set(new Date(trialStart.getTime() + 13 * DAY_MS));
    expect(await statusOf(client)).toEqual({
      ...day0,
      trialDaysLeft: 1,
      trialHoursLeft: 24,
      message: 'Your free trial ends in 24 hours.',
    });

    clock.set(new Date(trialStart.getTime() + 14 * DAY_MS - HOUR_MS / 2));
    expect(await statusOf(client)).toMatchObject({ subscriptionStatus: 'trial', trialDaysLeft: 1, trialHoursLeft: 1 });

    const expired: SubscriptionStatus = {
      ...day0,
      subscriptionStatus: 'trial_expired',
      hasAccess: false,
      trialDaysLeft: 0,
      trialHoursLeft: 0,
      trialExpiredDaysAgo: 0,
      message: statusMessages.trialExpired,
    };
    clock.set(new Date(trialStart.getTime() + 14 * DAY_MS));
    expect(await statusOf(client)).toEqual(expired);

    clock.set(new Date(trialStart.getTime() + 15 * DAY_MS));
    expect(await statusOf(client)).toEqual({ ...expired, trialExpiredDaysAgo: 1 });

    clock.set(new Date(trialStart.getTime() + 19 * DAY_MS + 3 * HOUR_MS));
    expect(await statusOf(client)).toEqual({ ...expired, trialExpiredDaysAgo: 5 });
    expect(await hasActiveAccess(app.ctx, user)).toBe(false);

    // An expired trial is still a trial had: asking again starts nothing.
    const again = await client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(await again.json()).toMatchObject({
      success: true,
      alreadyActive: true,
      status: { subscriptionStatus: 'trial_expired', tier: 'growth', trialExpiredDaysAgo: 5 },
    });
  });

  it('does not restart a running trial when asked twice', async () => {
    clock.set(trialStart);
    const { client, user } = await signInSeller(app);
    await client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    clock.advance(3 * DAY_MS);
    const second = await client.post('/api/platform-subscription/start-trial', { tier: 'enterprise' });
    expect(second.status).toBe(200);
    const body = (await second.json()) as StartTrialResponse;
    expect(body).toMatchObject({ success: true, alreadyActive: true });
    expect(body.status).toMatchObject({
      subscriptionStatus: 'trial',
      tier: 'starter',
      trialDaysLeft: 11,
      expiresAt: trialEnd,
    });
    const rows = await app.ctx.db.select().from(platformSubscriptions).where(eq(platformSubscriptions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.trialStartedAt).toEqual(trialStart);
  });

  it('starts exactly one trial when two requests race', async () => {
    clock.set(trialStart);
    const { client, user } = await signInSeller(app);
    await client.getCsrfToken();
    const answers = await Promise.all([
      client.post('/api/platform-subscription/start-trial', { tier: 'starter' }),
      client.post('/api/platform-subscription/start-trial', { tier: 'scale' }),
    ]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as StartTrialResponse[];
    expect(bodies.map((body) => body.alreadyActive).sort()).toEqual([false, true]);
    const rows = await app.ctx.db.select().from(platformSubscriptions).where(eq(platformSubscriptions.userId, user.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses an unknown or missing tier and starts nothing', async () => {
    clock.set(trialStart);
    const { client } = await signInSeller(app);
    for (const body of [{ tier: 'platinum' }, {}, { tier: '' }]) {
      const response = await client.post('/api/platform-subscription/start-trial', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: 'Please select a subscription tier', status: 400 });
    }
    const withoutBody = await client.post('/api/platform-subscription/start-trial');
    expect(withoutBody.status).toBe(400);
    expect(await withoutBody.json()).toMatchObject({ message: 'Please select a subscription tier' });
    expect(await statusOf(client)).toMatchObject({ subscriptionStatus: 'tier_selection_required' });
  });

  it('keeps the end of a running trial when the admin changes the trial length', async () => {
    clock.set(trialStart);
    const { client } = await signInSeller(app);
    await client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    const { client: admin } = await signInAdmin(app);
    const configuration = (await (await admin.get('/api/admin/tier-configuration')).json()) as PlanConfiguration;
    expect((await admin.put('/api/admin/tier-configuration', { ...configuration, trialDays: 3 })).status).toBe(200);

    expect(await statusOf(client)).toMatchObject({ trialDaysLeft: 14, expiresAt: trialEnd });
    const { client: later } = await signInSeller(app);
    const started = (await (
      await later.post('/api/platform-subscription/start-trial', { tier: 'starter' })
    ).json()) as StartTrialResponse;
    expect(started.status).toMatchObject({ trialDaysLeft: 3, expiresAt: '2026-03-04T12:00:00.000Z' });

    await admin.put('/api/admin/tier-configuration', configuration);
  });

  it('gives admins access without a trial, and starts none for them', async () => {
    const { client, user } = await signInAdmin(app);
    const status = await statusOf(client);
    expect(status).toMatchObject({
      subscriptionStatus: 'active',
      hasAccess: true,
      message: statusMessages.admin,
      tier: null,
    });
    const response = await client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(await response.json()).toEqual({
      success: true,
      alreadyActive: true,
      message: 'You already have a trial or subscription; nothing was changed.',
      status,
    });
    const rows = await app.ctx.db.select().from(platformSubscriptions).where(eq(platformSubscriptions.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('reports the active, inactive and expired states of a paid subscription', async () => {
    clock.set(trialStart);
    const { client, user } = await signInSeller(app);
    const periodEnd = new Date('2026-04-01T12:00:00.000Z');
    await app.ctx.db
      .insert(platformSubscriptions)
      .values({ userId: user.id, status: 'active', tierId: 'scale', currentPeriodEnd: periodEnd });
    expect(await statusOf(client)).toMatchObject({
      subscriptionStatus: 'active',
      hasAccess: true,
      hasSubscription: true,
      tier: 'scale',
      expiresAt: '2026-04-01T12:00:00.000Z',
    });
    expect(await getSubscriptionStatus(app.ctx, user)).toMatchObject({ subscriptionStatus: 'active' });

    for (const status of ['inactive', 'expired'] as const) {
      await app.ctx.db.update(platformSubscriptions).set({ status }).where(eq(platformSubscriptions.userId, user.id));
      expect(await statusOf(client)).toMatchObject({ subscriptionStatus: status, hasAccess: false, status });
    }
  });

  it('answers for the impersonated seller while an admin impersonates', async () => {
    clock.set(trialStart);
    const { user: seller } = await signInSeller(app);
    const { user: admin } = await signInAdmin(app);
    const impersonation = await signIn(app, { user: seller, impersonatorId: admin.id });
    expect(await statusOf(impersonation.client)).toMatchObject({
      subscriptionStatus: 'tier_selection_required',
      hasAccess: false,
    });
  });
});
