import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { type SignedIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { TestClock, testAppAroundTests, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type {
  BillingOverview,
  CancelSubscriptionResponse,
  PlatformSetting,
  RedirectUrlResponse,
  StripeConfigResponse,
  VerifyCheckoutResponse,
} from '../../../contract/billing.js';
import type { SubscriptionStatus } from '../../../contract/subscriptions.js';
import { platformSubscriptions } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// Billing off, the embedded default (no STRIPE_* settings): choosing a plan activates it at once and without a
// charge, the portal is the /billing page, cancellation edits the local record.

const START = new Date('2026-03-01T12:00:00.000Z');
const clock = new TestClock(START);
const started = testAppAroundTests({ clock, env: YEAR_LONG_SESSIONS });

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function statusOf(client: TestClient): Promise<SubscriptionStatus> {
  return json<SubscriptionStatus>(await client.get('/api/platform-subscription/status'));
}

async function trialSeller(tier = 'starter'): Promise<SignedIn> {
  const seller = await signInSeller(started.app);
  await seller.client.post('/api/platform-subscription/start-trial', { tier });
  return seller;
}

/** A seller who started a trial at START and then chose the growth plan, which billing off activates at once. */
async function growthSubscriberAtStart(): Promise<SignedIn> {
  clock.set(START);
  const seller = await trialSeller();
  await seller.client.post('/api/platform-subscription/create', { tier: 'growth' });
  return seller;
}

/** Cancels the seller's plan, at once or at the end of its period, and answers what the cancellation said. */
async function cancelSubscription(seller: SignedIn, immediately: boolean): Promise<CancelSubscriptionResponse> {
  return json<CancelSubscriptionResponse>(
    await seller.client.post('/api/platform-subscription/cancel', { immediately }),
  );
}

describe('billing off', () => {
  it('says billing is off, in the mode the settings imply', async () => {
    const seller = await trialSeller();
    expect(await json<StripeConfigResponse>(await seller.client.get('/api/stripe/config'))).toEqual({
      sandboxMode: true,
      billingEnabled: false,
      restartRequired: false,
    });
    const { client: admin } = await signInAdmin(started.app);
    expect(await json<PlatformSetting[]>(await admin.get('/api/admin/platform-settings'))).toEqual([
      { key: 'stripe_sandbox_mode', value: 'true' },
      // Strong sign-in's policy (issue 33): off until an admin has a second factor, and off for owners.
      { key: 'require_second_factor_admins', value: 'false' },
      { key: 'require_second_factor_owners', value: 'false' },
    ]);
  });

  it("tells admins which variables each payment mode lacks, and sellers nothing about the deployment's settings", async () => {
    const { client: admin } = await signInAdmin(started.app);
    expect(await json<StripeConfigResponse>(await admin.get('/api/stripe/config'))).toEqual({
      sandboxMode: true,
      billingEnabled: false,
      restartRequired: false,
      missingEnvironmentVariables: {
        test: ['STRIPE_TEST_SECRET_KEY', 'STRIPE_TEST_WEBHOOK_SECRET'],
        live: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
      },
    });
    const seller = await trialSeller();
    expect(await json(await seller.client.get('/api/stripe/config'))).not.toHaveProperty('missingEnvironmentVariables');
  });

  it('activates the chosen plan at once, for a month, and sends the browser to /billing', async () => {
    clock.set(START);
    const seller = await trialSeller('starter');
    const created = await seller.client.post('/api/platform-subscription/create', {
      tier: 'growth',
      successUrl: '/billing?success=true',
      cancelUrl: '/subscribe?cancelled=true',
    });
    expect(created.status).toBe(200);
    expect(await json<RedirectUrlResponse>(created)).toEqual({ url: '/billing?success=true' });
    expect(await statusOf(seller.client)).toMatchObject({
      subscriptionStatus: 'active',
      hasAccess: true,
      tier: 'growth',
      status: 'active',
      expiresAt: '2026-04-01T12:00:00.000Z',
    });
    // The return page verifies without a session id; billing off has none.
    const verified = await json<VerifyCheckoutResponse>(
      await seller.client.post('/api/platform-subscription/verify-checkout', {}),
    );
    expect(verified).toMatchObject({ success: true, status: { subscriptionStatus: 'active' } });
    const overview = await json<BillingOverview>(await seller.client.get('/api/platform-subscription/billing'));
    expect(overview).toMatchObject({
      billingEnabled: false,
      subscriptionStatus: 'active',
      plan: { id: 'growth', name: 'Growth' },
      currentPeriodEnd: '2026-04-01T12:00:00.000Z',
      cancelAtPeriodEnd: false,
      canManageBilling: false,
    });
  });

  it('subscribes a seller who never started a trial', async () => {
    const seller = await signInSeller(started.app);
    await seller.client.post('/api/platform-subscription/create', { tier: 'scale' });
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active', tier: 'scale' });
  });

  it('changes the tier of a running plan and keeps its period', async () => {
    const seller = await growthSubscriberAtStart();
    clock.advance(10 * DAY_MS);
    await seller.client.post('/api/platform-subscription/create', { tier: 'scale' });
    expect(await statusOf(seller.client)).toMatchObject({
      subscriptionStatus: 'active',
      tier: 'scale',
      expiresAt: '2026-04-01T12:00:00.000Z',
    });
    clock.set(START);
  });

  it('renews by itself: the billing page shows the period running now', async () => {
    const seller = await growthSubscriberAtStart();
    clock.set(new Date('2026-05-10T00:00:00.000Z'));
    const overview = await json<BillingOverview>(await seller.client.get('/api/platform-subscription/billing'));
    expect(overview).toMatchObject({ subscriptionStatus: 'active', currentPeriodEnd: '2026-06-01T12:00:00.000Z' });
    clock.set(START);
  });

  it('cancels at the period end: active until it, expired after, and subscribes again', async () => {
    const seller = await growthSubscriberAtStart();
    const cancelled = await cancelSubscription(seller, false);
    expect(cancelled).toMatchObject({
      message: 'Your subscription has been cancelled and stays active until April 1, 2026.',
      status: { subscriptionStatus: 'active', hasAccess: true },
    });
    expect(await json<BillingOverview>(await seller.client.get('/api/platform-subscription/billing'))).toMatchObject({
      cancelAtPeriodEnd: true,
      currentPeriodEnd: '2026-04-01T12:00:00.000Z',
    });

    clock.set(new Date('2026-04-01T12:00:00.000Z'));
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'expired', hasAccess: false });
    expect(await json<BillingOverview>(await seller.client.get('/api/platform-subscription/billing'))).toMatchObject({
      licenseHolderAccessUntil: '2026-04-08T12:00:00.000Z',
    });

    await seller.client.post('/api/platform-subscription/create', { tier: 'growth' });
    expect(await statusOf(seller.client)).toMatchObject({
      subscriptionStatus: 'active',
      expiresAt: '2026-05-01T12:00:00.000Z',
    });
    clock.set(START);
  });

  it('cancels at once, and then has nothing left to cancel', async () => {
    const seller = await growthSubscriberAtStart();
    const cancelled = await cancelSubscription(seller, true);
    expect(cancelled).toMatchObject({
      message: 'Your subscription has been cancelled.',
      status: { subscriptionStatus: 'expired', hasAccess: false },
    });
    const [row] = await started.app.ctx.db
      .select()
      .from(platformSubscriptions)
      .where(eq(platformSubscriptions.userId, seller.user.id));
    expect(row?.accessEndedAt?.toISOString()).toBe(START.toISOString());
    expect((await seller.client.post('/api/platform-subscription/cancel', { immediately: false })).status).toBe(400);
  });

  it('refuses to cancel a trial: it ends by itself', async () => {
    const seller = await trialSeller();
    const refused = await seller.client.post('/api/platform-subscription/cancel', { immediately: false });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toMatchObject({ message: 'You have no active subscription to cancel.' });
  });

  it('answers the billing page for the portal, and 404 to Stripe webhooks', async () => {
    const seller = await trialSeller();
    expect(
      await json<RedirectUrlResponse>(await seller.client.post('/api/platform-subscription/customer-portal', {})),
    ).toEqual({ url: '/billing' });
    const webhook = await fetch(`${started.app.baseUrl}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(webhook.status).toBe(404);
  });

  it('still checks the return addresses and the tier', async () => {
    const seller = await trialSeller();
    const foreign = await seller.client.post('/api/platform-subscription/create', {
      tier: 'growth',
      successUrl: 'https://evil.example/',
    });
    expect(foreign.status).toBe(400);
    const missing = await seller.client.post('/api/platform-subscription/create', { tier: '' });
    expect(missing.status).toBe(400);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'trial' });
  });

  it('needs a session', async () => {
    const anonymous = new TestClient(started.app.baseUrl);
    for (const path of ['/create', '/verify-checkout', '/customer-portal', '/cancel']) {
      expect((await anonymous.post(`/api/platform-subscription${path}`, {})).status, path).toBe(401);
    }
    expect((await anonymous.get('/api/platform-subscription/billing')).status).toBe(401);
  });
});
