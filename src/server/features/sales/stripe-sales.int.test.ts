import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPackage,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { type FakeStripe, type FakeStripeEvent, startFakeStripe } from '../../../../test/fakes/stripe.js';
import { mailsTo } from '../../../../test/support/outbox.js';
import { giveActivePlan } from '../../../../test/support/packages.js';
import { settleProviderEvents } from '../../../../test/support/provider-events.js';
import { purchasePageJson } from '../../../../test/support/purchase-pages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type { P2File } from '../../../contract/composer.js';
import {
  type PackagePrice,
  type PayoutAccount,
  type PurchaseResult,
  type StartCheckoutResponse,
  salesMessages,
} from '../../../contract/sales.js';
import { brandSettings, grants, payoutAccounts, sales } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';

// Selling through Stripe Connect, against the fake Stripe and the real Connect webhook route with signed events:
// onboarding states, checkout on the seller's account with the 5% fee, fulfilment into a grant and a branded
// e-mail, replays, events out of order (the handler re-reads Stripe), renewals, cancellation and non-payment,
// refunds and lost disputes, and the one-time purchase's freeze, each checked where it matters: the next Composer
// request with the buyer's token.

const NOW = new Date('2026-03-01T12:00:00Z');
const HOST = 'acme.composer.localhost';
const BRAND = 'Acme Tools';
const TOKEN_PATTERN = /pgc_[A-Za-z0-9]{36}/;

const clock = new TestClock(NOW);
let stripe: FakeStripe;
let app: TestApp;
let seller: SignedIn;
let accountId: string;
let webhookUrl: string;
let widget: FixturePackage;
let service: FixturePackage;
let gadget: FixturePackage;

const tiersPath = (id: string) => `/api/repositories/${id}/pricing-tiers`;

const onHost = <T>(path: string, body?: unknown) => purchasePageJson<T>(app, HOST, path, body);

async function putTiers(packageId: string, tiers: unknown[]): Promise<PackagePrice[]> {
  const response = await seller.client.put(tiersPath(packageId), { tiers });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as PackagePrice[];
}

/** Sends a signed Connect event about the seller's account, as Stripe does, expects it accepted and applied. */
async function send(event: FakeStripeEvent): Promise<void> {
  const response = await stripe.deliver(webhookUrl, event);
  expect(response.status, await response.clone().text()).toBe(200);
  await settleProviderEvents(app);
}

const connectEvent = (type: string, object: Record<string, unknown> & { id: string }) =>
  stripe.event(type, object, { account: accountId });

async function payoutAccount(): Promise<PayoutAccount> {
  return (await (await seller.client.get('/api/sales/payout-account')).json()) as PayoutAccount;
}

async function storedAccount() {
  const [row] = await app.ctx.db.select().from(payoutAccounts).where(eq(payoutAccounts.sellerId, seller.user.id));
  return row!;
}

/** Starts a checkout as the buyer on the seller's host; answers the Stripe session's id. */
async function startCheckout(packageId: string, tierId: string, email: string): Promise<string> {
  const started = await onHost<StartCheckoutResponse>('/api/purchase/checkout', { packageId, tierId, email });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.testMode).toBe(false);
  expect(started.body.checkoutUrl).toBe(`${stripe.url}/checkout/${started.body.sessionId}`);
  return started.body.sessionId;
}

async function saleOf(sessionId: string) {
  const [sale] = await app.ctx.db.select().from(sales).where(eq(sales.checkoutSessionId, sessionId));
  return sale!;
}

async function grantOf(grantId: string) {
  const [grant] = await app.ctx.db.select().from(grants).where(eq(grants.id, grantId));
  return grant!;
}

async function successPage(sessionId: string): Promise<PurchaseResult> {
  const result = await onHost<PurchaseResult>(`/api/purchase/sessions/${sessionId}`);
  expect(result.status).toBe(200);
  return result.body;
}

/** A paid checkout, fulfilled through its webhook; answers the buyer's token and the Stripe objects. */
async function purchase(packageId: string, tierId: string, email: string) {
  const sessionId = await startCheckout(packageId, tierId, email);
  const paid = stripe.completeCheckout(sessionId);
  await send(connectEvent('checkout.session.completed', paid.session));
  const result = await successPage(sessionId);
  expect(result.status).toBe('complete');
  return { sessionId, token: result.token!, ...paid };
}

const p2 = (name: string, token: string) => requestOnHost(app, HOST, `/p2/${name}.json`, { token });
const versionsOf = async (name: string, token: string) => {
  const response = await p2(name, token);
  expect(response.status).toBe(200);
  return jsonOf<P2File>(response)
    .packages[name]!.map((entry) => entry.version)
    .sort();
};
async function expectRefused(name: string, token: string): Promise<void> {
  const response = await p2(name, token);
  expect([401, 403, 404]).toContain(response.status);
}

beforeAll(async () => {
  stripe = await startFakeStripe({ now: () => clock.now() });
  app = await startTestApp({
    clock,
    env: { ...stripe.env(), ...YEAR_LONG_SESSIONS },
  });
  webhookUrl = `${app.baseUrl}/api/stripe/connect-webhook`;
  seller = await signInSeller(app, { slug: 'acme' });
  await giveActivePlan(app, seller.user.id, new Date('2027-06-01T00:00:00Z'));
  await app.ctx.db.insert(brandSettings).values({ userId: seller.user.id, brandName: BRAND, emailFromName: BRAND });
  widget = await createPackage(app, seller.user, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-03-20T10:00:00Z' },
    { version: 'v2.0.0', releasedAt: '2026-05-01T10:00:00Z' },
  ]);
  service = await createPackage(app, seller.user, 'acme/service', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
  gadget = await createPackage(app, seller.user, 'acme/gadget', [
    { version: 'v0.1.0', releasedAt: '2026-01-10T10:00:00Z' },
  ]);
});

afterAll(async () => {
  await app?.close();
  await stripe?.close();
});

describe('the payout account', () => {
  let lifetimeId: string;

  it('is not connected until the seller starts onboarding, then pending with what Stripe still wants', async () => {
    expect(await payoutAccount()).toMatchObject({ state: 'not_connected', testMode: false, accountId: null });
    [{ id: lifetimeId }] = (await putTiers(widget.id, [
      { name: 'Lifetime', pricingType: 'one_time', updateMonths: 1, priceCents: 1999, currency: 'usd' },
    ])) as [PackagePrice];
    // Nothing to pay into: the buyer's checkout is refused, in words for a buyer, and records nothing.
    const refused = await onHost<{ message: string; code: string }>('/api/purchase/checkout', {
      packageId: widget.id,
      tierId: lifetimeId,
      email: 'early@example.com',
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: salesMessages.paymentsNotSetUp, code: 'CONFLICT' });

    const link = await seller.client.post('/api/sales/payout-account/onboarding-link', { returnPath: '/dashboard' });
    expect(link.status, await link.clone().text()).toBe(200);
    const { url } = (await link.json()) as { url: string };
    expect(url.startsWith(`${stripe.url}/connect/onboarding/`)).toBe(true);
    const [account] = [...stripe.accounts.values()];
    accountId = account!.id;
    expect(account).toMatchObject({ type: 'express', metadata: { sellerId: seller.user.id } });
    expect(await payoutAccount()).toMatchObject({ state: 'pending', reason: 'requirements.past_due', accountId });
    expect(await app.ctx.db.select().from(sales)).toEqual([]);
  });

  it('turns enabled, restricted with Stripe’s reason, and enabled again on account.updated', async () => {
    stripe.enableAccount(accountId);
    await send(connectEvent('account.updated', stripe.accounts.get(accountId)!));
    expect(await storedAccount()).toMatchObject({ chargesEnabled: true, payoutsEnabled: true, disabledReason: null });
    expect(await payoutAccount()).toMatchObject({ state: 'enabled', reason: null });

    stripe.restrictAccount(accountId, 'requirements.past_due');
    await send(connectEvent('account.updated', stripe.accounts.get(accountId)!));
    expect(await storedAccount()).toMatchObject({ chargesEnabled: false, disabledReason: 'requirements.past_due' });
    expect(await payoutAccount()).toMatchObject({ state: 'restricted', reason: 'requirements.past_due' });
    const refused = await onHost<{ message: string }>('/api/purchase/checkout', {
      packageId: widget.id,
      tierId: lifetimeId,
      email: 'early@example.com',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(salesMessages.paymentsNotSetUp);

    stripe.enableAccount(accountId);
    await send(connectEvent('account.updated', stripe.accounts.get(accountId)!));
    expect(await payoutAccount()).toMatchObject({ state: 'enabled', reason: null });
    expect(await app.ctx.db.select().from(sales)).toEqual([]);
  });

  it('refuses an event without a valid signature and changes nothing', async () => {
    stripe.restrictAccount(accountId, 'rejected.fraud');
    const forged = await stripe.deliver(webhookUrl, connectEvent('account.updated', stripe.accounts.get(accountId)!), {
      secret: 'whsec_not_ours',
    });
    expect(forged.status).toBe(400);
    expect(await storedAccount()).toMatchObject({ chargesEnabled: true, disabledReason: null });
    stripe.enableAccount(accountId);
  });
});

describe('a one-time purchase', () => {
  let tierId: string;
  let sessionId: string;
  let token: string;
  const buyer = 'buyer@example.com';

  beforeAll(async () => {
    const tiers = (await (await seller.client.get(tiersPath(widget.id))).json()) as PackagePrice[];
    tierId = tiers[0]!.id;
  });

  it('checks out on the seller’s account with an application fee of exactly 5%', async () => {
    sessionId = await startCheckout(widget.id, tierId, buyer);
    const session = stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 1999,
      currency: 'usd',
      customer_email: buyer,
      _account: accountId,
      _applicationFeeAmount: 100,
    });
    expect(await saleOf(sessionId)).toMatchObject({ status: 'pending', isTest: false, feeCents: 100 });
    expect((await successPage(sessionId)).status).toBe('pending');
  });

  it('grants once when the same webhook arrives 10 times at once, and mails the token in the seller’s brand', async () => {
    const { charge, session } = stripe.completeCheckout(sessionId);
    const event = connectEvent('checkout.session.completed', session);
    const responses = await Promise.all(Array.from({ length: 10 }, () => stripe.deliver(webhookUrl, event)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    // Other events about the same payment, and the success page polling meanwhile, change nothing more.
    await Promise.all([
      send(connectEvent('checkout.session.completed', session)),
      successPage(sessionId),
      successPage(sessionId),
    ]);

    const sold = await app.ctx.db.select().from(sales).where(eq(sales.sellerId, seller.user.id));
    expect(sold).toHaveLength(1);
    expect(sold[0]).toMatchObject({
      status: 'paid',
      amountCents: 1999,
      feeCents: 100,
      paymentIntentId: charge!.payment_intent,
      customerEmail: buyer,
    });
    expect(charge).toMatchObject({ amount: 1999, application_fee_amount: 100 });
    const held = await app.ctx.db.select().from(grants).where(eq(grants.packageId, widget.id));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ kind: 'purchase', status: 'active', endMode: 'updates' });
    expect(held[0]!.expiresAt).toEqual(new Date('2026-04-01T12:00:00Z'));

    const result = await successPage(sessionId);
    expect(result).toMatchObject({ status: 'complete', testMode: false, repositoryUrl: `http://${HOST}:${app.port}` });
    expect(result.token).toMatch(TOKEN_PATTERN);
    token = result.token!;
    const mail = mailsTo(app.dataDir, buyer);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain(token);
    expect(mail[0]!.body).toContain(BRAND);
    expect(mail[0]!.body).toContain(`http://${HOST}:${app.port}`);
  });

  it('installs every version, then after its update window only those released within it', async () => {
    expect(await versionsOf('acme/widget', token)).toEqual(['v1.0.0', 'v1.1.0', 'v2.0.0']);
    clock.set(new Date('2026-04-15T12:00:00Z'));
    expect(await versionsOf('acme/widget', token)).toEqual(['v1.0.0', 'v1.1.0']);
    const newer = await requestOnHost(app, HOST, '/api/composer/download/acme/widget/v2.0.0', { token });
    expect(newer.status).not.toBe(200);
    const older = await requestOnHost(app, HOST, '/api/composer/download/acme/widget/v1.1.0', { token });
    expect(older.status).toBe(200);
  });

  it('is revoked by a full refund: the next Composer request with the token is refused', async () => {
    const sale = await saleOf(sessionId);
    const charge = stripe.chargeFor(sale.paymentIntentId!)!;
    // A refund event whose charge Stripe shows unrefunded (a partial refund) leaves the purchase alone.
    await send(connectEvent('charge.refunded', charge));
    expect((await saleOf(sessionId)).status).toBe('paid');
    const refunded = stripe.refundCharge(charge.id);
    await send(connectEvent('charge.refunded', refunded));
    expect(await saleOf(sessionId)).toMatchObject({ status: 'refunded' });
    expect(await grantOf(sale.grantId!)).toMatchObject({ status: 'revoked' });
    await expectRefused('acme/widget', token);
  });
});

describe('the platform fee', () => {
  it('is 5% of the amount, half a cent rounding up, at odd amounts', async () => {
    const cases: Array<[number, number]> = [
      [50, 3], // 2.5 -> 3
      [70, 4], // 3.5 -> 4
      [109, 5], // 5.45 -> 5
      [1989, 99], // 99.45 -> 99
      [1990, 100], // 99.5 -> 100
      [12345, 617], // 617.25 -> 617
    ];
    const tiers = await putTiers(
      gadget.id,
      cases.map(([priceCents]) => ({
        name: `At ${priceCents}`,
        pricingType: 'one_time',
        updateMonths: 12,
        priceCents,
        currency: 'usd',
      })),
    );
    for (const [index, [priceCents, feeCents]] of cases.entries()) {
      const email = `fee-${priceCents}@example.com`;
      const { sessionId, charge } = await purchase(gadget.id, tiers[index]!.id, email);
      expect(stripe.sessions.get(sessionId)!._applicationFeeAmount).toBe(feeCents);
      expect(charge).toMatchObject({ amount: priceCents, application_fee_amount: feeCents });
      expect(await saleOf(sessionId)).toMatchObject({ status: 'paid', amountCents: priceCents, feeCents });
    }
  });
});

describe('a lost dispute', () => {
  it('revokes the purchase when the dispute closes lost, not while it is open', async () => {
    const tiers = (await (await seller.client.get(tiersPath(gadget.id))).json()) as PackagePrice[];
    const { sessionId, token, charge } = await purchase(gadget.id, tiers[0]!.id, 'disputer@example.com');
    expect(await versionsOf('acme/gadget', token)).toEqual(['v0.1.0']);
    const open = stripe.disputeCharge(charge!.id, 'under_review');
    await send(connectEvent('charge.dispute.closed', open));
    expect((await saleOf(sessionId)).status).toBe('paid');
    expect(await versionsOf('acme/gadget', token)).toEqual(['v0.1.0']);
    const lost = stripe.disputeCharge(charge!.id, 'lost');
    await send(connectEvent('charge.dispute.closed', lost));
    const sale = await saleOf(sessionId);
    expect(sale.status).toBe('disputed');
    expect(await grantOf(sale.grantId!)).toMatchObject({ status: 'revoked' });
    await expectRefused('acme/gadget', token);
  });

  it('a refund that overtakes its checkout’s event ends the purchase all the same', async () => {
    const tiers = (await (await seller.client.get(tiersPath(gadget.id))).json()) as PackagePrice[];
    const sessionId = await startCheckout(gadget.id, tiers[1]!.id, 'hasty@example.com');
    const { charge, session } = stripe.completeCheckout(sessionId);
    await send(connectEvent('charge.refunded', stripe.refundCharge(charge!.id)));
    const sale = await saleOf(sessionId);
    expect(sale.status).toBe('refunded');
    expect(await grantOf(sale.grantId!)).toMatchObject({ status: 'revoked' });
    await send(connectEvent('checkout.session.completed', session));
    expect((await saleOf(sessionId)).status).toBe('refunded');
    expect(await grantOf(sale.grantId!)).toMatchObject({ status: 'revoked' });
  });
});

describe('a subscription', () => {
  let monthlyId: string;
  let subscriberToken: string;
  const start = new Date('2026-04-15T12:00:00Z');
  const periodEnd = (periods: number) => new Date(start.getTime() + periods * 30 * DAY_MS);

  beforeAll(async () => {
    clock.set(start);
    [{ id: monthlyId }] = (await putTiers(service.id, [
      { name: 'Monthly', pricingType: 'subscription', interval: 'month', priceCents: 990, currency: 'usd' },
    ])) as [PackagePrice];
  });

  it('ends in the true state when its events arrive out of order', async () => {
    const sessionId = await startCheckout(service.id, monthlyId, 'subscriber@example.com');
    expect(stripe.sessions.get(sessionId)).toMatchObject({ mode: 'subscription', _applicationFeePercent: 5 });
    const { session, subscription, invoice, charge } = stripe.completeCheckout(sessionId);
    // Stripe's order is not guaranteed: the subscription and its first invoice before the checkout.
    await send(connectEvent('customer.subscription.updated', subscription));
    await send(connectEvent('invoice.paid', invoice));
    expect((await saleOf(sessionId)).status).toBe('paid');
    await send(connectEvent('customer.subscription.created', subscription));
    await send(connectEvent('checkout.session.completed', session));
    await send(connectEvent('invoice.paid', invoice));

    const sale = await saleOf(sessionId);
    expect(sale).toMatchObject({
      status: 'paid',
      subscriptionId: subscription.id,
      paymentIntentId: charge!.payment_intent,
      amountCents: 990,
      feeCents: 50,
    });
    expect(await app.ctx.db.select().from(sales).where(eq(sales.subscriptionId, subscription.id))).toHaveLength(1);
    expect(await grantOf(sale.grantId!)).toMatchObject({
      status: 'active',
      endMode: 'access',
      expiresAt: periodEnd(1),
    });
    expect(charge).toMatchObject({ amount: 990, application_fee_amount: 50 });
    subscriberToken = (await successPage(sessionId)).token!;
    expect(subscriberToken).toMatch(TOKEN_PATTERN);
  });

  it('is extended by each paid renewal, which is a payment with its own fee', async () => {
    const sale = (
      await app.ctx.db
        .select()
        .from(sales)
        .where(and(eq(sales.packageId, service.id), eq(sales.customerEmail, 'subscriber@example.com')))
    )[0]!;
    const token = subscriberToken;
    clock.set(new Date(periodEnd(1).getTime() - 60_000));
    const { invoice } = stripe.renewSubscription(sale.subscriptionId!);
    const event = connectEvent('invoice.paid', invoice);
    await Promise.all([send(event), send(event), send(connectEvent('invoice.paid', invoice))]);
    const renewals = await app.ctx.db
      .select()
      .from(sales)
      .where(and(eq(sales.subscriptionId, sale.subscriptionId!), eq(sales.kind, 'renewal')));
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: 'paid', amountCents: 990, feeCents: 50, invoiceId: invoice.id });
    expect((await grantOf(sale.grantId!)).expiresAt).toEqual(periodEnd(2));
    clock.set(new Date(periodEnd(1).getTime() + DAY_MS));
    expect(await versionsOf('acme/service', token)).toEqual(['v1.0.0']);
  });

  it('once cancelled, gives access until the period end and not after', async () => {
    const [sale] = await app.ctx.db
      .select()
      .from(sales)
      .where(and(eq(sales.customerEmail, 'subscriber@example.com'), eq(sales.kind, 'purchase')));
    const token = subscriberToken;
    const subscription = stripe.subscriptions.get(sale!.subscriptionId!)!;
    subscription.cancel_at_period_end = true;
    await send(connectEvent('customer.subscription.updated', subscription));
    expect((await grantOf(sale!.grantId!)).expiresAt).toEqual(periodEnd(2));
    expect(await versionsOf('acme/service', token)).toEqual(['v1.0.0']);
    clock.set(new Date(periodEnd(2).getTime() + 60_000));
    await expectRefused('acme/service', token);
    const ended = stripe.endSubscription(sale!.subscriptionId!);
    await send(connectEvent('customer.subscription.deleted', ended));
    expect((await grantOf(sale!.grantId!)).expiresAt!.getTime()).toBeLessThanOrEqual(clock.now().getTime());
    await expectRefused('acme/service', token);
  });

  it('unpaid, gives access until the end of the period last paid', async () => {
    const paidFrom = clock.now();
    const { token, subscription } = await purchase(service.id, monthlyId, 'late-payer@example.com');
    const [sale] = await app.ctx.db.select().from(sales).where(eq(sales.subscriptionId, subscription.id));
    const paidUntil = new Date(paidFrom.getTime() + 30 * DAY_MS);
    expect((await grantOf(sale!.grantId!)).expiresAt).toEqual(paidUntil);
    clock.set(new Date(paidUntil.getTime() + 60_000));
    const failed = stripe.failRenewal(subscription.id);
    await send(connectEvent('invoice.payment_failed', failed.invoice));
    await send(connectEvent('customer.subscription.updated', failed.subscription));
    expect((await grantOf(sale!.grantId!)).expiresAt).toEqual(paidUntil);
    await expectRefused('acme/service', token);
    const unpaid = stripe.subscriptions.get(subscription.id)!;
    unpaid.status = 'unpaid';
    await send(connectEvent('customer.subscription.updated', unpaid));
    expect((await grantOf(sale!.grantId!)).expiresAt).toEqual(paidUntil);
    await expectRefused('acme/service', token);
    // Paid after all: the renewal's invoice moves the access on to the new period's end.
    clock.set(new Date(paidUntil.getTime() + 2 * DAY_MS));
    const renewed = stripe.renewSubscription(subscription.id);
    await send(connectEvent('invoice.paid', renewed.invoice));
    expect((await grantOf(sale!.grantId!)).expiresAt!.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(await versionsOf('acme/service', token)).toEqual(['v1.0.0']);
  });
});
