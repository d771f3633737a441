import type { Plan } from '../../../contract/plans.js';
import type { ProviderSubscription, StripeGateway } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { platformSubscriptions } from '../../db/schema/index.js';
import {
  computeSubscriptionStatus,
  findSubscriptionBy,
  lockSubscription,
  updateSubscription,
  upsertSubscription,
} from '../subscriptions/subscriptions.service.js';
import * as repository from './billing.repository.js';

// Keeping the local record as Stripe has it (docs.stripe.com/billing/subscriptions/webhooks): a subscription or an
// invoice is fetched again rather than trusted from an event, and applied under the record's lock, so whatever
// order events and requests arrive in, the record ends as Stripe reports it.

/** Which price a tier is sold at: remembered per Stripe mode, made in Stripe the first time it is needed. */
export async function resolvePrice(ctx: AppContext, gateway: StripeGateway, tier: Plan): Promise<string> {
  const known = await repository.findTierPriceId(ctx.db, tier, gateway.priceMode);
  if (known) return known;
  const made = await gateway.findOrCreatePrice({
    tierId: tier.id,
    name: tier.name,
    priceCents: tier.priceCents,
    currency: tier.currency,
  });
  // Stripe's lookup key made both racing processes find the same price; either row is the right one.
  await repository.rememberTierPrice(ctx.db, {
    tierId: tier.id,
    mode: gateway.priceMode,
    priceCents: tier.priceCents,
    currency: tier.currency,
    productId: made.productId,
    priceId: made.priceId,
    createdAt: ctx.clock.now(),
  });
  return made.priceId;
}

export type ApplyOptions = {
  /** The seller, when the caller knows (a checkout's client_reference_id, the signed-in seller). */
  userId?: string | null;
  /** When the state was fetched from Stripe, by the wall clock: an older fetch never overwrites a newer one. */
  fetchedAt: Date;
  /** When the change happened (the event's time), for when access ended. */
  observedAt: Date;
};

/**
 * Makes the seller's record match a Stripe subscription: status (active/trialing → active, past_due, unpaid,
 * incomplete → inactive, canceled → expired), tier from the price, period end, cancellation. Answers the user id
 * the subscription belongs to, or undefined when it belongs to nobody here (or the state was older than ours).
 */
export async function applyProviderSubscription(
  ctx: AppContext,
  gateway: StripeGateway,
  subscription: ProviderSubscription,
  options: ApplyOptions,
): Promise<string | undefined> {
  const bySubscription = await findSubscriptionBy(
    ctx.db,
    platformSubscriptions.providerSubscriptionId,
    subscription.id,
  );
  const byCustomer = subscription.customerId
    ? await findSubscriptionBy(ctx.db, platformSubscriptions.providerCustomerId, subscription.customerId)
    : undefined;
  const userId = bySubscription?.userId ?? options.userId ?? subscription.userId ?? byCustomer?.userId;
  if (!userId) {
    ctx.log.warn({ subscriptionId: subscription.id }, 'Stripe subscription of no known seller; ignored');
    return undefined;
  }
  if (!(await repository.sellerExists(ctx.db, userId))) {
    ctx.log.warn({ subscriptionId: subscription.id, userId }, 'Stripe subscription of a deleted seller; ignored');
    return undefined;
  }
  const tierFromPrice =
    (subscription.priceId
      ? await repository.findTierIdForPrice(ctx.db, subscription.priceId, gateway.priceMode)
      : undefined) ?? subscription.tierId;
  const now = ctx.clock.now();

  return ctx.db.transaction(async (tx) => {
    const current = await lockSubscription(tx, userId);
    if (current?.providerSyncedAt && current.providerSyncedAt.getTime() > options.fetchedAt.getTime()) {
      return undefined;
    }
    const tierId = tierFromPrice ?? current?.tierId;
    if (!tierId) {
      ctx.log.warn({ subscriptionId: subscription.id, userId }, 'Stripe subscription with no known tier; ignored');
      return undefined;
    }
    const currentStatus = current
      ? computeSubscriptionStatus({ userType: 'seller', selectedTier: null }, current, now)
      : undefined;
    const providerIds = {
      providerCustomerId: subscription.customerId || current?.providerCustomerId || null,
      providerSubscriptionId: subscription.id,
      providerSyncedAt: options.fetchedAt,
      updatedAt: now,
    };
    if (current && subscription.state !== 'active') {
      // A late event about a replaced subscription must not end the one the seller pays for now.
      const isOtherSubscription =
        current.providerSubscriptionId !== null && current.providerSubscriptionId !== subscription.id;
      if (isOtherSubscription && currentStatus?.hasAccess) return undefined;
      // A first payment still pending (or failed) does not cut a running trial short.
      if (currentStatus?.subscriptionStatus === 'trial') {
        await updateSubscription(tx, userId, providerIds);
        return userId;
      }
    }
    const hadLostAccess = current && (current.status === 'inactive' || current.status === 'expired');
    const accessEndedAt =
      subscription.state === 'active'
        ? null
        : hadLostAccess && current.accessEndedAt
          ? current.accessEndedAt
          : subscription.state === 'expired'
            ? (subscription.endedAt ?? options.observedAt)
            : options.observedAt;
    const values = {
      status: subscription.state,
      tierId,
      currentPeriodEnd: subscription.currentPeriodEnd,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      accessEndedAt,
      ...providerIds,
    };
    await upsertSubscription(tx, { userId, ...values, createdAt: now }, values);
    if (current?.status !== values.status || current?.tierId !== tierId) {
      ctx.log.info(
        {
          userId,
          subscriptionId: subscription.id,
          status: values.status,
          stripeStatus: subscription.providerStatus,
          tierId,
        },
        'platform subscription updated from Stripe',
      );
    }
    return userId;
  });
}

/** Fetches a subscription from Stripe and applies it; the fetch time orders concurrent appliers. */
export async function syncProviderSubscription(
  ctx: AppContext,
  gateway: StripeGateway,
  subscriptionId: string,
  options: Omit<ApplyOptions, 'fetchedAt'>,
): Promise<string | undefined> {
  // Wall-clock time, not ctx.clock: this orders real requests to Stripe, not business time.
  const fetchedAt = new Date();
  const subscription = await gateway.retrieveSubscription(subscriptionId);
  return applyProviderSubscription(ctx, gateway, subscription, { ...options, fetchedAt });
}

/** Runs a change in Stripe and applies the subscription Stripe answers with. */
export async function applyChange(
  ctx: AppContext,
  gateway: StripeGateway,
  userId: string,
  change: () => Promise<ProviderSubscription>,
): Promise<void> {
  const fetchedAt = new Date();
  const subscription = await change();
  await applyProviderSubscription(ctx, gateway, subscription, { userId, fetchedAt, observedAt: ctx.clock.now() });
}

/**
 * Records a platform invoice as paid when Stripe, asked again, reports it paid with money taken: the admin's
 * Platform Revenue counts it. An open or void invoice, or a trial's invoice of 0, records nothing. Answers whether
 * this call recorded it.
 */
export async function recordPaidInvoice(
  ctx: AppContext,
  gateway: StripeGateway,
  invoiceId: string,
  userId: string | undefined,
): Promise<boolean> {
  const invoice = await gateway.retrieveInvoice(invoiceId);
  if (invoice.status !== 'paid' || invoice.amountPaid <= 0) return false;
  const owner =
    userId ??
    (invoice.subscriptionId
      ? (await findSubscriptionBy(ctx.db, platformSubscriptions.providerSubscriptionId, invoice.subscriptionId))?.userId
      : undefined);
  const recorded = await repository.recordPlatformInvoice(ctx.db, {
    id: invoice.id,
    userId: owner ?? null,
    amountPaidCents: invoice.amountPaid,
    currency: invoice.currency,
    paidAt: invoice.paidAt ?? ctx.clock.now(),
  });
  if (recorded) {
    ctx.log.info(
      { invoiceId: invoice.id, userId: owner, amountPaidCents: invoice.amountPaid },
      'platform invoice paid',
    );
  }
  return recorded;
}
