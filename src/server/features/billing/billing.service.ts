import {
  BILLING_PATH,
  BILLING_SUCCESS_PATH,
  type BillingOverview,
  type CancelSubscriptionInput,
  type CancelSubscriptionResponse,
  type CreateSubscriptionInput,
  type CustomerPortalInput,
  type RedirectUrlResponse,
  type StripeConfigResponse,
  type VerifyCheckoutInput,
  type VerifyCheckoutResponse,
} from '../../../contract/billing.js';
import type { Plan } from '../../../contract/plans.js';
import { SELECT_TIER_MESSAGE } from '../../../contract/subscriptions.js';
import { missingStripeVariables, resolveSandboxMode } from '../../adapters/payments/create-payments.js';
import type { Payments } from '../../adapters/payments/payments.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { findPlan } from '../plans/plans.service.js';
import { findStoredSandboxMode } from '../shared/settings/platform-settings.service.js';
import {
  computeSubscriptionStatus,
  findSubscription,
  getSubscriptionStatus,
  type PlanAccount,
  type PlatformSubscription,
  repositoryStanding,
  setCustomerIfMissing,
  updateSubscription,
  upsertSubscription,
} from '../subscriptions/subscriptions.service.js';
import { addOneMonth, runningPeriodEnd } from './billing-periods.js';
import { applyChange, resolvePrice, syncProviderSubscription } from './provider-sync.js';

// Paying for the platform (spec seller-app §4 and §7, spec admin §4): the commands behind the billing routes. With
// Stripe the local subscription record follows what Stripe reports (provider-sync.ts: after checkout, on each
// webhook, after each change made here); with billing off the record is the whole truth and choosing a plan
// activates it at once (billing-periods.ts rolls its periods). Queries live in billing.repository.ts.

/** The account row's fields billing reads: its plan and the e-mail address Stripe bills. */
export type BillingAccount = PlanAccount & { email: string | null };

const CANCEL_URL_PATH = '/subscribe?cancelled=true';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * A return address for Stripe's pages, on the app's own origin only: anything else would make Packgate's
 * checkout an open redirect. Root-relative paths are resolved against PUBLIC_URL.
 */
export function sameOriginUrl(ctx: AppContext, value: string | undefined, fallbackPath: string): string {
  const base = new URL(ctx.config.publicUrl);
  if (!value) return new URL(fallbackPath, base).toString();
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new AppError('VALIDATION_FAILED', `Invalid return address: ${value}`);
  }
  if (url.origin !== base.origin) {
    throw new AppError('VALIDATION_FAILED', `Return addresses must be on ${base.origin}.`, {
      suggestion: 'Send a path of this app, such as /billing?success=true.',
    });
  }
  return url.toString();
}

/** Stripe replaces {CHECKOUT_SESSION_ID} when it sends the browser back; the braces must stay unencoded. */
function withSessionIdPlaceholder(successUrl: string): string {
  const url = new URL(successUrl);
  url.hash = '';
  url.searchParams.delete('session_id');
  const text = url.toString();
  return `${text}${url.search ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`;
}

async function requirePlan(ctx: AppContext, tierId: string | undefined): Promise<Plan> {
  const tier = tierId ? await findPlan(ctx, tierId) : undefined;
  if (!tier) {
    throw new AppError('VALIDATION_FAILED', SELECT_TIER_MESSAGE, {
      title: tierId ? 'Unknown Tier' : 'Tier Required',
      suggestion: tierId ? `There is no tier "${tierId}"; choose one of the plans shown.` : 'Choose one of the plans.',
    });
  }
  return tier;
}

function refuseAdmins(user: BillingAccount): void {
  if (user.userType === 'admin') {
    throw new AppError('BAD_REQUEST', 'Administrators have full access without a subscription.', {
      suggestion: 'Impersonate a seller to see their billing.',
    });
  }
}

/** Billing off: the chosen plan runs at once; a plan already running changes tier and keeps its period. */
async function activateWithoutBilling(
  ctx: AppContext,
  user: BillingAccount,
  tier: Plan,
  current: PlatformSubscription | undefined,
): Promise<void> {
  const now = ctx.clock.now();
  const isRunning =
    current !== undefined && computeSubscriptionStatus(user, current, now).subscriptionStatus === 'active';
  const values = isRunning
    ? { tierId: tier.id, cancelAtPeriodEnd: false, updatedAt: now }
    : {
        status: 'active' as const,
        tierId: tier.id,
        currentPeriodEnd: addOneMonth(now),
        cancelAtPeriodEnd: false,
        accessEndedAt: null,
        updatedAt: now,
      };
  await upsertSubscription(
    ctx.db,
    { userId: user.id, status: 'active', currentPeriodEnd: addOneMonth(now), ...values, createdAt: now },
    values,
  );
  ctx.log.info({ userId: user.id, tierId: tier.id, billing: 'off' }, 'plan activated without billing');
}

/** True when Stripe still bills this record's subscription (a change of plan edits it; no second checkout). */
function hasOpenStripeSubscription(current: PlatformSubscription | undefined): current is PlatformSubscription & {
  providerSubscriptionId: string;
} {
  return current?.providerSubscriptionId != null && (current.status === 'active' || current.status === 'inactive');
}

/**
 * POST /api/platform-subscription/create: a Stripe Checkout page for the tier; or, when Stripe already bills the
 * seller, the plan change (or the end of a pending cancellation) applied at once; or, with billing off, the plan
 * activated at once. Answers where to send the browser.
 */
export async function createSubscription(
  ctx: AppContext,
  payments: Payments,
  user: BillingAccount,
  input: CreateSubscriptionInput,
): Promise<RedirectUrlResponse> {
  refuseAdmins(user);
  const tier = await requirePlan(ctx, input?.tier);
  const successUrl = sameOriginUrl(ctx, input?.successUrl, BILLING_SUCCESS_PATH);
  const cancelUrl = sameOriginUrl(ctx, input?.cancelUrl, CANCEL_URL_PATH);
  const current = await findSubscription(ctx, user.id);

  if (payments.kind === 'off') {
    await activateWithoutBilling(ctx, user, tier, current);
    return { url: BILLING_SUCCESS_PATH };
  }

  if (hasOpenStripeSubscription(current)) {
    const subscriptionId = current.providerSubscriptionId;
    if (current.tierId !== tier.id) {
      const priceId = await resolvePrice(ctx, payments, tier);
      await applyChange(ctx, payments, user.id, () => payments.changeSubscriptionPrice(subscriptionId, priceId));
      ctx.log.info({ userId: user.id, from: current.tierId, to: tier.id }, 'plan changed');
      return { url: BILLING_SUCCESS_PATH };
    }
    if (current.cancelAtPeriodEnd) {
      await applyChange(ctx, payments, user.id, () => payments.setCancelAtPeriodEnd(subscriptionId, false));
      return { url: BILLING_SUCCESS_PATH };
    }
    // Same plan, payment failing: the portal is where the card is updated.
    if (current.status === 'inactive' && current.providerCustomerId) {
      const returnUrl = sameOriginUrl(ctx, undefined, BILLING_PATH);
      return { url: await payments.createPortalSession(current.providerCustomerId, returnUrl) };
    }
    return { url: BILLING_SUCCESS_PATH };
  }

  const priceId = await resolvePrice(ctx, payments, tier);
  const customerId = current?.providerCustomerId ?? (await payments.findOrCreateCustomer(user));
  if (current && !current.providerCustomerId) await setCustomerIfMissing(ctx.db, user.id, customerId);
  const url = await payments.createCheckoutSession({
    customerId,
    priceId,
    userId: user.id,
    tierId: tier.id,
    successUrl: withSessionIdPlaceholder(successUrl),
    cancelUrl,
  });
  ctx.log.info({ userId: user.id, tierId: tier.id }, 'checkout started');
  return { url };
}

/**
 * POST /api/platform-subscription/verify-checkout: on return from Checkout, a complete and paid session applies
 * its subscription at once (the webhook may come later). Without a session id (billing off, a plan change) it
 * reports whether the plan is active.
 */
export async function verifyCheckout(
  ctx: AppContext,
  payments: Payments,
  user: BillingAccount,
  input: VerifyCheckoutInput,
): Promise<VerifyCheckoutResponse> {
  const sessionId = input?.sessionId || undefined;
  if (payments.kind === 'stripe' && sessionId && user.userType !== 'admin') {
    const session = await payments.retrieveCheckoutSession(sessionId);
    // Another seller's session is as unknown as a made-up one.
    if (!session || session.userId !== user.id) throw new AppError('NOT_FOUND', 'Checkout session not found.');
    if (!(session.isComplete && session.isPaid && session.subscriptionId)) {
      return { success: false, status: await getSubscriptionStatus(ctx, user) };
    }
    await syncProviderSubscription(ctx, payments, session.subscriptionId, {
      userId: user.id,
      observedAt: ctx.clock.now(),
    });
  }
  const status = await getSubscriptionStatus(ctx, user);
  return { success: user.userType !== 'admin' && status.subscriptionStatus === 'active', status };
}

/** POST /api/platform-subscription/customer-portal: Stripe's billing portal; billing off has only /billing. */
export async function openCustomerPortal(
  ctx: AppContext,
  payments: Payments,
  user: BillingAccount,
  input: CustomerPortalInput,
): Promise<RedirectUrlResponse> {
  const returnUrl = sameOriginUrl(ctx, input?.returnUrl, BILLING_PATH);
  if (payments.kind === 'off') return { url: BILLING_PATH };
  refuseAdmins(user);
  const current = await findSubscription(ctx, user.id);
  if (!current?.providerCustomerId) {
    throw new AppError('BAD_REQUEST', 'There is no billing account yet.', {
      title: 'No Billing Account',
      suggestion: 'Subscribe to a plan first; the billing portal then shows its invoices and payment method.',
    });
  }
  return { url: await payments.createPortalSession(current.providerCustomerId, returnUrl) };
}

function noSubscriptionToCancel(): AppError {
  return new AppError('BAD_REQUEST', 'You have no active subscription to cancel.', {
    suggestion: 'A free trial ends by itself; nothing is charged.',
  });
}

/**
 * POST /api/platform-subscription/cancel: at the end of the paid period (the plan keeps running until then), or
 * at once.
 */
export async function cancelSubscription(
  ctx: AppContext,
  payments: Payments,
  user: BillingAccount,
  input: CancelSubscriptionInput,
): Promise<CancelSubscriptionResponse> {
  refuseAdmins(user);
  const immediately = input?.immediately ?? false;
  const now = ctx.clock.now();
  const current = await findSubscription(ctx, user.id);
  const before = computeSubscriptionStatus(user, current, now);

  if (payments.kind === 'off') {
    if (!current || before.subscriptionStatus !== 'active') throw noSubscriptionToCancel();
    const values = immediately
      ? { status: 'expired' as const, cancelAtPeriodEnd: false, currentPeriodEnd: now, accessEndedAt: now }
      : { cancelAtPeriodEnd: true, currentPeriodEnd: runningPeriodEnd(current.currentPeriodEnd ?? now, now) };
    await updateSubscription(ctx.db, user.id, { ...values, updatedAt: now });
  } else {
    if (!hasOpenStripeSubscription(current)) throw noSubscriptionToCancel();
    const subscriptionId = current.providerSubscriptionId;
    await applyChange(ctx, payments, user.id, () =>
      immediately ? payments.cancelNow(subscriptionId) : payments.setCancelAtPeriodEnd(subscriptionId, true),
    );
  }
  ctx.log.info({ userId: user.id, immediately }, 'subscription cancelled');
  const status = await getSubscriptionStatus(ctx, user);
  const endsAt = status.expiresAt ? dateFormat.format(new Date(status.expiresAt)) : undefined;
  const message =
    status.subscriptionStatus === 'active' && endsAt
      ? `Your subscription has been cancelled and stays active until ${endsAt}.`
      : 'Your subscription has been cancelled.';
  return { message, status };
}

/** GET /api/stripe/config: the payment mode this process runs in. */
export async function getStripeConfig(
  ctx: AppContext,
  payments: Payments,
  user: Pick<BillingAccount, 'userType'>,
): Promise<StripeConfigResponse> {
  const stored = resolveSandboxMode(await findStoredSandboxMode(ctx), ctx.config.stripe);
  return {
    sandboxMode: payments.sandboxMode,
    billingEnabled: payments.kind === 'stripe',
    restartRequired: stored !== payments.sandboxMode,
    // Which settings the deployment lacks is for admins: the Settings card says why billing is off.
    ...(user.userType === 'admin' && {
      missingEnvironmentVariables: {
        test: missingStripeVariables(true, ctx.config.stripe),
        live: missingStripeVariables(false, ctx.config.stripe),
      },
    }),
  };
}

/** GET /api/platform-subscription/billing: the /billing page. */
export async function getBillingOverview(
  ctx: AppContext,
  payments: Payments,
  user: BillingAccount,
): Promise<BillingOverview> {
  const now = ctx.clock.now();
  const current = user.userType === 'admin' ? undefined : await findSubscription(ctx, user.id);
  const status = computeSubscriptionStatus(user, current, now);
  const tier = current ? await findPlan(ctx, current.tierId) : undefined;
  let periodEnd = current?.currentPeriodEnd ?? null;
  if (payments.kind === 'off' && periodEnd && status.subscriptionStatus === 'active' && !current?.cancelAtPeriodEnd) {
    periodEnd = runningPeriodEnd(periodEnd, now);
  }
  const standing = repositoryStanding({ userType: user.userType, subscription: current }, now);
  return {
    billingEnabled: payments.kind === 'stripe',
    sandboxMode: payments.sandboxMode,
    subscriptionStatus: status.subscriptionStatus,
    plan: tier ? { id: tier.id, name: tier.name, priceCents: tier.priceCents, currency: tier.currency } : null,
    status: status.status,
    trialEndsAt: current?.trialEndsAt?.toISOString() ?? null,
    currentPeriodEnd: periodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: current?.cancelAtPeriodEnd ?? false,
    licenseHolderAccessUntil:
      standing.kind === 'grace'
        ? standing.until.toISOString()
        : standing.kind === 'closed'
          ? standing.endedAt.toISOString()
          : null,
    canManageBilling: payments.kind === 'stripe' && Boolean(current?.providerCustomerId),
    message: status.message,
  };
}
