import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../../test/fakes/stripe.js';
import { TestClient } from '../../../../test/support/http-client.js';
import { settleProviderEvents } from '../../../../test/support/provider-events.js';
import { type SignedIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type { AdminStats } from '../../../contract/admin.js';
import type {
  BillingOverview,
  CancelSubscriptionResponse,
  PlatformSetting,
  RedirectUrlResponse,
  StripeConfigResponse,
  VerifyCheckoutResponse,
} from '../../../contract/billing.js';
import type { SubscriptionStatus } from '../../../contract/subscriptions.js';
import { platformInvoices, platformSubscriptions, stripePrices, webhookDeliveries } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// Billing with Stripe, against a fake Stripe API that the stripe library reaches by host and port: checkout to an
// active plan, verify on return, plan changes, the portal, cancellation, and webhooks (signatures, replays,
// duplicates, order). The app runs in sandbox mode on the test key pair.

const START = new Date('2026-03-01T12:00:00.000Z');
const clock = new TestClock(START);
let stripe: FakeStripe;
let app: TestApp;
let webhookUrl: string;

/** Delivers a signed event as Stripe does and waits until its job has applied it (the webhook answers first). */
async function deliver(...args: Parameters<FakeStripe['deliver']>): ReturnType<FakeStripe['deliver']> {
  const response = await stripe.deliver(...args);
  await settleProviderEvents(app);
  return response;
}

beforeAll(async () => {
  stripe = await startFakeStripe({ now: () => clock.now() });
  app = await startTestApp({
    clock,
    env: { ...stripe.env(), ...YEAR_LONG_SESSIONS },
  });
  webhookUrl = `${app.baseUrl}/api/stripe/webhook`;
});

afterAll(async () => {
  await app?.close();
  await stripe?.close();
});

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function statusOf(client: TestClient): Promise<SubscriptionStatus> {
  return json<SubscriptionStatus>(await client.get('/api/platform-subscription/status'));
}

async function recordOf(userId: string) {
  const [row] = await app.ctx.db.select().from(platformSubscriptions).where(eq(platformSubscriptions.userId, userId));
  return row;
}

function sessionIdOf(url: string): string {
  return url.split('/').pop()!;
}

/** A seller in a running trial of `tier`. */
async function trialSeller(tier = 'starter'): Promise<SignedIn> {
  const seller = await signInSeller(app);
  expect((await seller.client.post('/api/platform-subscription/start-trial', { tier })).status).toBe(200);
  return seller;
}

/** A seller who went through Checkout and paid: active on `tier`, with a Stripe subscription. */
async function payingSeller(tier = 'growth'): Promise<SignedIn & { subscriptionId: string }> {
  const seller = await trialSeller();
  const { url } = await json<RedirectUrlResponse>(
    await seller.client.post('/api/platform-subscription/create', { tier }),
  );
  const { subscription } = stripe.completeCheckout(sessionIdOf(url));
  const verified = await json<VerifyCheckoutResponse>(
    await seller.client.post('/api/platform-subscription/verify-checkout', { sessionId: sessionIdOf(url) }),
  );
  expect(verified.success).toBe(true);
  return { ...seller, subscriptionId: subscription.id };
}

function subscriptionRetrievals(subscriptionId: string): number {
  return stripe.requests.filter(
    (request) => request.method === 'GET' && request.path === `/v1/subscriptions/${subscriptionId}`,
  ).length;
}

describe('checkout', () => {
  it('takes a trial seller through Stripe Checkout to an active plan of the tier', async () => {
    clock.set(START);
    const seller = await trialSeller('starter');
    const publicUrl = app.ctx.config.publicUrl;
    const created = await seller.client.post('/api/platform-subscription/create', {
      tier: 'growth',
      successUrl: `${publicUrl}/billing?success=true`,
      cancelUrl: `${publicUrl}/subscribe?cancelled=true`,
    });
    expect(created.status).toBe(200);
    const { url } = await json<RedirectUrlResponse>(created);
    expect(url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_`));

    const session = stripe.sessions.get(sessionIdOf(url))!;
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: seller.user.id,
      metadata: { userId: seller.user.id, tierId: 'growth' },
      success_url: `${publicUrl}/billing?success=true&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${publicUrl}/subscribe?cancelled=true`,
    });
    const customer = stripe.customers.get(session.customer as string)!;
    expect(customer).toMatchObject({ email: seller.user.email, metadata: { userId: seller.user.id } });
    expect((await recordOf(seller.user.id))?.providerCustomerId).toBe(customer.id);

    // The tier's product and price were made from the tier configuration and remembered.
    const [price] = await app.ctx.db.select().from(stripePrices).where(eq(stripePrices.tierId, 'growth'));
    expect(price).toMatchObject({ mode: 'test', productId: 'packgate_tier_growth', currency: 'usd' });
    expect(stripe.prices.get(price!.priceId)).toMatchObject({
      unit_amount: price!.priceCents,
      recurring: { interval: 'month' },
      product: 'packgate_tier_growth',
    });

    const early = await json<VerifyCheckoutResponse>(
      await seller.client.post('/api/platform-subscription/verify-checkout', { sessionId: sessionIdOf(url) }),
    );
    expect(early).toMatchObject({ success: false, status: { subscriptionStatus: 'trial' } });

    const { subscription } = stripe.completeCheckout(sessionIdOf(url));
    const verified = await json<VerifyCheckoutResponse>(
      await seller.client.post('/api/platform-subscription/verify-checkout', { sessionId: sessionIdOf(url) }),
    );
    const periodEnd = new Date(START.getTime() + 30 * DAY_MS).toISOString();
    expect(verified).toMatchObject({
      success: true,
      status: { subscriptionStatus: 'active', hasAccess: true, tier: 'growth', status: 'active', expiresAt: periodEnd },
    });
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active', tier: 'growth' });
    expect(await recordOf(seller.user.id)).toMatchObject({
      providerSubscriptionId: subscription.id,
      cancelAtPeriodEnd: false,
      accessEndedAt: null,
    });

    const overview = await json<BillingOverview>(await seller.client.get('/api/platform-subscription/billing'));
    expect(overview).toMatchObject({
      billingEnabled: true,
      sandboxMode: true,
      subscriptionStatus: 'active',
      plan: { id: 'growth', name: 'Growth', priceCents: price!.priceCents, currency: 'usd' },
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
      canManageBilling: true,
      licenseHolderAccessUntil: null,
    });
  });

  it("answers 404 for another seller's checkout session, or one Stripe does not know", async () => {
    const owner = await trialSeller();
    const { url } = await json<RedirectUrlResponse>(
      await owner.client.post('/api/platform-subscription/create', { tier: 'growth' }),
    );
    stripe.completeCheckout(sessionIdOf(url));
    const other = await trialSeller();
    const foreign = await other.client.post('/api/platform-subscription/verify-checkout', {
      sessionId: sessionIdOf(url),
    });
    expect(foreign.status).toBe(404);
    const unknown = await other.client.post('/api/platform-subscription/verify-checkout', {
      sessionId: 'cs_test_nope',
    });
    expect(unknown.status).toBe(404);
    expect(await statusOf(other.client)).toMatchObject({ subscriptionStatus: 'trial' });
  });

  it('reuses the customer and the price when the seller starts checkout again', async () => {
    const seller = await trialSeller();
    const customersBefore = stripe.customers.size;
    const pricesBefore = stripe.prices.size;
    const first = await json<RedirectUrlResponse>(
      await seller.client.post('/api/platform-subscription/create', { tier: 'scale' }),
    );
    const second = await json<RedirectUrlResponse>(
      await seller.client.post('/api/platform-subscription/create', { tier: 'scale' }),
    );
    const [a, b] = [stripe.sessions.get(sessionIdOf(first.url))!, stripe.sessions.get(sessionIdOf(second.url))!];
    expect(a.customer).toBe(b.customer);
    expect(stripe.customers.size).toBe(customersBefore + 1);
    expect(stripe.prices.size - pricesBefore).toBeLessThanOrEqual(1);
    const rows = await app.ctx.db.select().from(stripePrices).where(eq(stripePrices.tierId, 'scale'));
    expect(rows).toHaveLength(1);
  });

  it('makes a new price when the tier price changes, keeping the product', async () => {
    const { client: admin } = await signInAdmin(app);
    const configuration = await json<{ tiers: Array<{ id: string; priceCents: number }>; trialDays: number }>(
      await admin.get('/api/admin/tier-configuration'),
    );
    const changed = {
      ...configuration,
      tiers: configuration.tiers.map((tier) =>
        tier.id === 'starter' ? { ...tier, priceCents: tier.priceCents + 100 } : tier,
      ),
    };
    const seller = await trialSeller();
    await seller.client.post('/api/platform-subscription/create', { tier: 'starter' });
    expect((await admin.put('/api/admin/tier-configuration', changed)).status).toBe(200);
    await seller.client.post('/api/platform-subscription/create', { tier: 'starter' });
    const rows = await app.ctx.db.select().from(stripePrices).where(eq(stripePrices.tierId, 'starter'));
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((row) => row.productId))).toEqual(new Set(['packgate_tier_starter']));
    expect(rows[0]!.priceId).not.toBe(rows[1]!.priceId);
    await admin.put('/api/admin/tier-configuration', configuration);
  });

  it('refuses return addresses outside the app, so checkout is no open redirect', async () => {
    const seller = await trialSeller();
    for (const bad of ['https://evil.example/billing', '//evil.example/billing', 'javascript:alert(1)']) {
      for (const field of ['successUrl', 'cancelUrl']) {
        const response = await seller.client.post('/api/platform-subscription/create', {
          tier: 'growth',
          [field]: bad,
        });
        expect(response.status, `${field} ${bad}`).toBe(400);
      }
      const portal = await seller.client.post('/api/platform-subscription/customer-portal', { returnUrl: bad });
      expect(portal.status).toBe(400);
    }
  });

  it('asks for a tier, and gives admins nothing to buy', async () => {
    const seller = await trialSeller();
    const missing = await seller.client.post('/api/platform-subscription/create', {});
    expect(missing.status).toBe(400);
    expect(await json<{ message: string }>(missing)).toMatchObject({ message: 'Please select a subscription tier' });
    const unknown = await seller.client.post('/api/platform-subscription/create', { tier: 'platinum' });
    expect(unknown.status).toBe(400);
    const { client: admin } = await signInAdmin(app);
    expect((await admin.post('/api/platform-subscription/create', { tier: 'growth' })).status).toBe(400);
  });

  it('activates the seller from the checkout.session.completed webhook alone', async () => {
    const seller = await trialSeller();
    const { url } = await json<RedirectUrlResponse>(
      await seller.client.post('/api/platform-subscription/create', { tier: 'scale' }),
    );
    const { session } = stripe.completeCheckout(sessionIdOf(url));
    const delivered = await deliver(webhookUrl, stripe.event('checkout.session.completed', session));
    expect(delivered.status).toBe(200);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active', tier: 'scale' });
  });
});

describe('a paying seller', () => {
  it('changes plan on the running subscription, without a second checkout', async () => {
    const seller = await payingSeller('growth');
    const sessionsBefore = stripe.sessions.size;
    const response = await seller.client.post('/api/platform-subscription/create', { tier: 'scale' });
    expect(await json<RedirectUrlResponse>(response)).toEqual({ url: '/billing?success=true' });
    expect(stripe.sessions.size).toBe(sessionsBefore);
    const [scalePrice] = await app.ctx.db.select().from(stripePrices).where(eq(stripePrices.tierId, 'scale'));
    const items = (stripe.subscriptions.get(seller.subscriptionId)!.items as { data: Array<{ price: { id: string } }> })
      .data;
    expect(items).toHaveLength(1);
    expect(items[0]!.price.id).toBe(scalePrice!.priceId);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active', tier: 'scale' });
  });

  it('opens the billing portal for the customer, returning to the app', async () => {
    const seller = await payingSeller();
    const response = await seller.client.post('/api/platform-subscription/customer-portal', {
      returnUrl: `${app.ctx.config.publicUrl}/billing`,
    });
    expect(response.status).toBe(200);
    const { url } = await json<RedirectUrlResponse>(response);
    const portal = [...stripe.portalSessions.values()].find((session) => session.url === url);
    expect(portal).toMatchObject({
      customer: (await recordOf(seller.user.id))!.providerCustomerId,
      return_url: `${app.ctx.config.publicUrl}/billing`,
    });
    expect((await fetch(url)).status).toBe(200);
  });

  it('has no portal before the seller ever went to checkout', async () => {
    const seller = await trialSeller();
    const response = await seller.client.post('/api/platform-subscription/customer-portal', {});
    expect(response.status).toBe(400);
    expect(await json<{ message: string }>(response)).toMatchObject({ message: 'There is no billing account yet.' });
  });

  it('cancels at the period end: active until then, expired once Stripe ends it', async () => {
    clock.set(START);
    const seller = await payingSeller();
    const response = await seller.client.post('/api/platform-subscription/cancel', { immediately: false });
    expect(response.status).toBe(200);
    const cancelled = await json<CancelSubscriptionResponse>(response);
    expect(cancelled.message).toBe('Your subscription has been cancelled and stays active until March 31, 2026.');
    expect(cancelled.status).toMatchObject({ subscriptionStatus: 'active', hasAccess: true });
    expect(stripe.subscriptions.get(seller.subscriptionId)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
    });
    expect(await recordOf(seller.user.id)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });

    clock.set(new Date(START.getTime() + 30 * DAY_MS));
    const ended = stripe.endSubscription(seller.subscriptionId);
    expect((await deliver(webhookUrl, stripe.event('customer.subscription.deleted', ended))).status).toBe(200);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'expired', hasAccess: false });
    expect((await recordOf(seller.user.id))?.accessEndedAt?.toISOString()).toBe(clock.now().toISOString());
    clock.set(START);
  });

  it('resumes a cancelled subscription when the seller picks the same plan again', async () => {
    const seller = await payingSeller('growth');
    await seller.client.post('/api/platform-subscription/cancel', { immediately: false });
    const again = await seller.client.post('/api/platform-subscription/create', { tier: 'growth' });
    expect(await json<RedirectUrlResponse>(again)).toEqual({ url: '/billing?success=true' });
    expect(stripe.subscriptions.get(seller.subscriptionId)).toMatchObject({ cancel_at_period_end: false });
    expect(await recordOf(seller.user.id)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  });

  it('cancels at once when asked', async () => {
    const seller = await payingSeller();
    const response = await seller.client.post('/api/platform-subscription/cancel', { immediately: true });
    expect(await json<CancelSubscriptionResponse>(response)).toMatchObject({
      message: 'Your subscription has been cancelled.',
      status: { subscriptionStatus: 'expired', hasAccess: false },
    });
    expect(stripe.subscriptions.get(seller.subscriptionId)).toMatchObject({ status: 'canceled' });
    const refused = await seller.client.post('/api/platform-subscription/cancel', { immediately: true });
    expect(refused.status).toBe(400);
  });

  it('turns inactive when a payment fails, and active again when it is paid', async () => {
    clock.set(START);
    const seller = await payingSeller();
    clock.set(new Date(START.getTime() + 30 * DAY_MS));
    const { invoice } = stripe.failPayment(seller.subscriptionId);
    const failed = await deliver(webhookUrl, stripe.event('invoice.payment_failed', invoice));
    expect(failed.status).toBe(200);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'inactive', hasAccess: false });
    const lostAt = clock.now();
    expect((await recordOf(seller.user.id))?.accessEndedAt?.toISOString()).toBe(lostAt.toISOString());
    const overview = await json<BillingOverview>(await seller.client.get('/api/platform-subscription/billing'));
    expect(overview.licenseHolderAccessUntil).toBe(new Date(lostAt.getTime() + 7 * DAY_MS).toISOString());

    // Picking the same plan while a payment fails leads to the portal, where the card is updated.
    const retry = await json<RedirectUrlResponse>(
      await seller.client.post('/api/platform-subscription/create', { tier: 'growth' }),
    );
    expect(retry.url).toMatch(new RegExp(`^${stripe.url}/portal/`));

    stripe.subscriptions.get(seller.subscriptionId)!.status = 'active';
    const paid = await deliver(webhookUrl, stripe.event('invoice.paid', invoice));
    expect(paid.status).toBe(200);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active' });
    expect((await recordOf(seller.user.id))?.accessEndedAt).toBeNull();
    clock.set(START);
  });
});

describe('platform revenue', () => {
  async function revenueOf(admin: TestClient): Promise<AdminStats> {
    const answer = await admin.get('/api/admin/stats');
    expect(answer.status).toBe(200);
    return json<AdminStats>(answer);
  }

  it('counts a paid platform invoice once, re-read from Stripe, and never an unpaid plan', async () => {
    clock.set(START);
    const { client: admin } = await signInAdmin(app);
    const before = await revenueOf(admin);

    // A plan whose first payment fails: Stripe's invoice stays open. Even an invoice.paid about it (forged, or
    // out of order) adds nothing, since the invoice is asked for again.
    const unpaid = await trialSeller();
    const { url } = await json<RedirectUrlResponse>(
      await unpaid.client.post('/api/platform-subscription/create', { tier: 'growth' }),
    );
    const { invoice: openInvoice } = stripe.completeCheckout(sessionIdOf(url), { paymentStatus: 'unpaid' });
    expect(openInvoice).toMatchObject({ status: 'open', amount_paid: 0 });
    expect((await deliver(webhookUrl, stripe.event('invoice.paid', openInvoice))).status).toBe(200);
    expect(await revenueOf(admin)).toMatchObject({
      platformRevenue: before.platformRevenue,
      invoicesCents: before.invoicesCents,
    });

    // A paid plan: both events Stripe sends for a paid invoice record it once.
    const paying = await payingSeller('growth');
    const paidInvoice = stripe.invoices.get(stripe.subscriptions.get(paying.subscriptionId)!.latest_invoice as string)!;
    expect(paidInvoice).toMatchObject({ status: 'paid' });
    const amount = paidInvoice.amount_paid as number;
    expect(amount).toBeGreaterThan(0);
    for (const type of ['invoice.paid', 'invoice.payment_succeeded', 'invoice.paid']) {
      expect((await deliver(webhookUrl, stripe.event(type, paidInvoice))).status).toBe(200);
    }
    const after = await revenueOf(admin);
    expect(after.invoicesCents).toBe(before.invoicesCents + amount);
    expect(after.platformRevenue).toBeCloseTo(before.platformRevenue + amount / 100, 2);
    expect(after.recentTransactions).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: paidInvoice.id, kind: 'invoice', amountCents: amount })]),
    );
    const [row] = await app.ctx.db
      .select()
      .from(platformInvoices)
      .where(eq(platformInvoices.id, paidInvoice.id as string));
    expect(row).toMatchObject({ userId: paying.user.id, amountPaidCents: amount, currency: 'usd' });
  });
});

describe('webhooks', () => {
  it('refuses a bad signature, a missing one and a stale timestamp with 400, changing nothing', async () => {
    const seller = await payingSeller();
    const subscription = stripe.endSubscription(seller.subscriptionId);
    const event = stripe.event('customer.subscription.deleted', subscription);
    const forged = await deliver(webhookUrl, event, { secret: 'whsec_not_the_secret' });
    expect(forged.status).toBe(400);
    expect(await json<{ error: string }>(forged)).toMatchObject({ error: 'Invalid Signature', status: 400 });
    const unsigned = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    const stale = await deliver(webhookUrl, event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(400);
    // A body changed after signing (here: re-serialized) no longer matches.
    const payload = JSON.stringify(event);
    const tampered = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.signatureHeader(payload) },
      body: payload.replace('"livemode":false', '"livemode":true'),
    });
    expect(tampered.status).toBe(400);

    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active' });
    const [recorded] = await app.ctx.db
      .select({ total: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.source, 'stripe'), eq(webhookDeliveries.deliveryId, event.id)));
    expect(recorded!.total).toBe(0);
  });

  it('applies an event delivered ten times at once exactly once', async () => {
    const seller = await payingSeller();
    const { invoice } = stripe.failPayment(seller.subscriptionId);
    const event = stripe.event('invoice.payment_failed', invoice);
    const retrievalsBefore = subscriptionRetrievals(seller.subscriptionId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(webhookUrl, event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const bodies = await Promise.all(answers.map((answer) => json<{ duplicate?: boolean }>(answer)));
    expect(bodies.filter((body) => body.duplicate === true)).toHaveLength(9);
    // One effect: one recorded delivery and one look at the subscription in Stripe.
    expect(subscriptionRetrievals(seller.subscriptionId) - retrievalsBefore).toBe(1);
    const [recorded] = await app.ctx.db
      .select({ total: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.source, 'stripe'), eq(webhookDeliveries.deliveryId, event.id)));
    expect(recorded!.total).toBe(1);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'inactive' });

    // Redelivered later (Stripe retries), it still does nothing new.
    const again = await deliver(webhookUrl, event);
    expect(await json(again)).toMatchObject({ received: true, duplicate: true });
    expect(subscriptionRetrievals(seller.subscriptionId) - retrievalsBefore).toBe(1);
  });

  it('ends in the state Stripe reports when deleted arrives before an earlier updated', async () => {
    const seller = await payingSeller();
    const scheduled = stripe.subscriptions.get(seller.subscriptionId)!;
    scheduled.cancel_at_period_end = true;
    const updated = stripe.event('customer.subscription.updated', scheduled);
    const deleted = stripe.event('customer.subscription.deleted', stripe.endSubscription(seller.subscriptionId));

    expect((await deliver(webhookUrl, deleted)).status).toBe(200);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'expired' });
    // The late event's payload still says active; Stripe says canceled, and that is what counts.
    expect(updated.data.object.status).toBe('active');
    expect((await deliver(webhookUrl, updated)).status).toBe(200);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'expired', hasAccess: false });
  });

  it('does not let a late event about a replaced subscription end the one the seller pays for', async () => {
    const seller = await payingSeller();
    const old = seller.subscriptionId;
    await seller.client.post('/api/platform-subscription/cancel', { immediately: true });
    const { url } = await json<RedirectUrlResponse>(
      await seller.client.post('/api/platform-subscription/create', { tier: 'scale' }),
    );
    stripe.completeCheckout(sessionIdOf(url));
    await seller.client.post('/api/platform-subscription/verify-checkout', { sessionId: sessionIdOf(url) });
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active', tier: 'scale' });
    const late = stripe.event('customer.subscription.deleted', stripe.subscriptions.get(old)!);
    expect((await deliver(webhookUrl, late)).status).toBe(200);
    expect(await statusOf(seller.client)).toMatchObject({ subscriptionStatus: 'active', tier: 'scale' });
  });

  it('acknowledges events it has no use for', async () => {
    const response = await deliver(webhookUrl, stripe.event('customer.created', { id: 'cus_x', object: 'customer' }));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ received: true, type: 'customer.created', ignored: true });
  });
});

describe('payment mode', () => {
  it('reports sandbox mode with Stripe enabled, and a restart once the admin changes the mode', async () => {
    const seller = await trialSeller();
    expect(await json<StripeConfigResponse>(await seller.client.get('/api/stripe/config'))).toEqual({
      sandboxMode: true,
      billingEnabled: true,
      restartRequired: false,
    });
    const { client: admin } = await signInAdmin(app);
    expect(await json<PlatformSetting[]>(await admin.get('/api/admin/platform-settings'))).toEqual([
      { key: 'stripe_sandbox_mode', value: 'true' },
      // Strong sign-in's policy (issue 33): off until an admin has a second factor, and off for owners.
      { key: 'require_second_factor_admins', value: 'false' },
      { key: 'require_second_factor_owners', value: 'false' },
    ]);
    // Only the test pair is set: Live would turn billing off until the live pair is there.
    expect(
      (await json<StripeConfigResponse>(await admin.get('/api/stripe/config'))).missingEnvironmentVariables,
    ).toEqual({ test: [], live: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] });
    const saved = await admin.put('/api/admin/platform-settings', { key: 'stripe_sandbox_mode', value: 'false' });
    expect(await json(saved)).toEqual({ key: 'stripe_sandbox_mode', value: 'false' });
    expect(await json<StripeConfigResponse>(await seller.client.get('/api/stripe/config'))).toEqual({
      sandboxMode: true,
      billingEnabled: true,
      restartRequired: true,
    });
    await admin.put('/api/admin/platform-settings', { key: 'stripe_sandbox_mode', value: 'true' });
  });

  it('accepts only known settings and values, from admins only', async () => {
    const { client: admin } = await signInAdmin(app);
    expect((await admin.put('/api/admin/platform-settings', { key: 'trial_days', value: '1' })).status).toBe(400);
    expect((await admin.put('/api/admin/platform-settings', { key: 'stripe_sandbox_mode', value: 'yes' })).status).toBe(
      400,
    );
    const seller = await trialSeller();
    expect((await seller.client.get('/api/admin/platform-settings')).status).toBe(403);
    expect(
      (await seller.client.put('/api/admin/platform-settings', { key: 'stripe_sandbox_mode', value: 'false' })).status,
    ).toBe(403);
    expect((await new TestClient(app.baseUrl).get('/api/stripe/config')).status).toBe(401);
  });

  it('never sends the Stripe keys anywhere but the Authorization header', async () => {
    const seller = await trialSeller();
    const bodies = await Promise.all([
      seller.client.get('/api/stripe/config').then((response) => response.text()),
      seller.client.get('/api/platform-subscription/billing').then((response) => response.text()),
    ]);
    for (const body of bodies) {
      expect(body).not.toContain(stripe.secretKey);
      expect(body).not.toContain(stripe.webhookSecret);
    }
  });
});
