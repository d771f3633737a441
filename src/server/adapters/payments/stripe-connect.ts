import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { AppError } from '../../lib/app-error.js';
import type {
  ConnectAccount,
  ConnectCharge,
  ConnectCheckoutRequest,
  ConnectCheckoutSession,
  ConnectDispute,
  ConnectEvent,
  ConnectGateway,
  ConnectInvoice,
  ConnectSubscription,
} from './payments.js';
import { callStripe } from './stripe-call.js';

// Stripe Connect through the official library (docs.stripe.com/connect): Express accounts and Account Links for
// onboarding, Checkout Sessions created on the seller's account (the `Stripe-Account` header: the library's
// `stripeAccount` option) with the platform's application fee, and the objects Connect events are about, always
// read again from Stripe so that a late or repeated event never decides the state by itself.

const fromEpoch = (seconds: unknown): Date | null => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

const idOf = (value: unknown): string | null =>
  value == null ? null : typeof value === 'string' ? value : ((value as { id?: string }).id ?? null);

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.statusCode === 404;
}

export function toConnectAccount(account: Stripe.Account): ConnectAccount {
  return {
    id: account.id,
    chargesEnabled: Boolean(account.charges_enabled),
    payoutsEnabled: Boolean(account.payouts_enabled),
    detailsSubmitted: Boolean(account.details_submitted),
    disabledReason: account.requirements?.disabled_reason ?? null,
  };
}

function toCheckoutSession(session: Stripe.Checkout.Session): ConnectCheckoutSession {
  return {
    id: session.id,
    url: session.url ?? null,
    status: (session.status ?? 'open') as ConnectCheckoutSession['status'],
    isPaid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
    customerEmail: session.customer_details?.email ?? session.customer_email ?? null,
    paymentIntentId: idOf(session.payment_intent),
    subscriptionId: idOf(session.subscription),
    invoiceId: idOf(session.invoice),
    metadata: { ...(session.metadata ?? {}) },
  };
}

function toSubscription(subscription: Stripe.Subscription): ConnectSubscription {
  const item = subscription.items?.data?.[0] as unknown as Record<string, unknown> | undefined;
  const legacy = subscription as unknown as Record<string, unknown>;
  return {
    id: subscription.id,
    status: subscription.status,
    // Since API version 2025-03-31 the period lives on the items.
    currentPeriodStart: fromEpoch(item?.current_period_start ?? legacy.current_period_start),
    currentPeriodEnd: fromEpoch(item?.current_period_end ?? legacy.current_period_end),
    endedAt: fromEpoch(subscription.ended_at),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    metadata: { ...(subscription.metadata ?? {}) },
  };
}

export function toInvoice(invoice: Stripe.Invoice): ConnectInvoice {
  const raw = invoice as unknown as Record<string, unknown>;
  const parent = raw.parent as
    | { subscription_details?: { subscription?: unknown; metadata?: Record<string, string> | null } }
    | null
    | undefined;
  // Since API version 2025-03-31 an invoice's payments are listed under `payments` (InvoicePayment objects).
  const payments = (raw.payments as { data?: Array<{ payment?: { payment_intent?: unknown } }> } | undefined)?.data;
  const paymentIntent = payments?.find((entry) => entry.payment?.payment_intent)?.payment?.payment_intent;
  return {
    id: invoice.id ?? '',
    status: invoice.status ?? 'draft',
    amountPaid: invoice.amount_paid ?? 0,
    currency: invoice.currency,
    subscriptionId: idOf(parent?.subscription_details?.subscription ?? raw.subscription),
    billingReason: invoice.billing_reason ?? null,
    paymentIntentId: idOf(paymentIntent ?? raw.payment_intent),
    paidAt: fromEpoch((raw.status_transitions as { paid_at?: number } | undefined)?.paid_at ?? null),
    subscriptionMetadata: { ...(parent?.subscription_details?.metadata ?? {}) },
  };
}

export class StripeConnectGateway implements ConnectGateway {
  constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  private call<T>(what: string, run: () => Promise<T>): Promise<T> {
    return callStripe(this.log, 'Stripe Connect', what, run);
  }

  createAccount(seller: { sellerId: string; email: string | null }): Promise<ConnectAccount> {
    return this.call('create account', async () =>
      toConnectAccount(
        await this.stripe.accounts.create({
          type: 'express',
          ...(seller.email ? { email: seller.email } : {}),
          metadata: { sellerId: seller.sellerId },
        }),
      ),
    );
  }

  retrieveAccount(accountId: string): Promise<ConnectAccount> {
    return this.call('retrieve account', async () => toConnectAccount(await this.stripe.accounts.retrieve(accountId)));
  }

  createAccountLink(accountId: string, refreshUrl: string, returnUrl: string): Promise<string> {
    return this.call('create account link', async () => {
      const link = await this.stripe.accountLinks.create({
        account: accountId,
        refresh_url: refreshUrl,
        return_url: returnUrl,
        type: 'account_onboarding',
      });
      return link.url;
    });
  }

  createCheckoutSession(request: ConnectCheckoutRequest): Promise<ConnectCheckoutSession> {
    return this.call('create checkout session', async () => {
      const isSubscription = request.mode === 'subscription';
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: request.mode,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency,
                unit_amount: request.amountCents,
                product_data: { name: request.productName },
                ...(isSubscription && request.interval ? { recurring: { interval: request.interval } } : {}),
              },
            },
          ],
          ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
          metadata: request.metadata,
          ...(isSubscription
            ? {
                subscription_data: {
                  metadata: request.metadata,
                  ...(request.applicationFeePercent !== null
                    ? { application_fee_percent: request.applicationFeePercent }
                    : {}),
                  ...(request.trialDays ? { trial_period_days: request.trialDays } : {}),
                },
              }
            : {
                payment_intent_data: {
                  metadata: request.metadata,
                  ...(request.applicationFeeCents !== null
                    ? { application_fee_amount: request.applicationFeeCents }
                    : {}),
                },
              }),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { stripeAccount: request.account },
      );
      return toCheckoutSession(session);
    });
  }

  retrieveCheckoutSession(accountId: string, sessionId: string): Promise<ConnectCheckoutSession | undefined> {
    return this.call('retrieve checkout session', async () => {
      try {
        return toCheckoutSession(
          await this.stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId }),
        );
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    });
  }

  findCheckoutSessionByPaymentIntent(
    accountId: string,
    paymentIntentId: string,
  ): Promise<ConnectCheckoutSession | undefined> {
    return this.call('list checkout sessions', async () => {
      const found = await this.stripe.checkout.sessions.list(
        { payment_intent: paymentIntentId, limit: 1 },
        { stripeAccount: accountId },
      );
      const session = found.data[0];
      return session ? toCheckoutSession(session) : undefined;
    });
  }

  retrieveSubscription(accountId: string, subscriptionId: string): Promise<ConnectSubscription> {
    return this.call('retrieve subscription', async () =>
      toSubscription(await this.stripe.subscriptions.retrieve(subscriptionId, {}, { stripeAccount: accountId })),
    );
  }

  retrieveInvoice(accountId: string, invoiceId: string): Promise<ConnectInvoice> {
    return this.call('retrieve invoice', async () =>
      toInvoice(await this.stripe.invoices.retrieve(invoiceId, { expand: ['payments'] }, { stripeAccount: accountId })),
    );
  }

  retrieveCharge(accountId: string, chargeId: string): Promise<ConnectCharge> {
    return this.call('retrieve charge', async () => {
      const charge = await this.stripe.charges.retrieve(chargeId, {}, { stripeAccount: accountId });
      return {
        id: charge.id,
        paymentIntentId: idOf(charge.payment_intent),
        amount: charge.amount,
        amountRefunded: charge.amount_refunded,
        refunded: charge.refunded,
      };
    });
  }

  retrieveDispute(accountId: string, disputeId: string): Promise<ConnectDispute> {
    return this.call('retrieve dispute', async () => {
      const dispute = await this.stripe.disputes.retrieve(disputeId, {}, { stripeAccount: accountId });
      return {
        id: dispute.id,
        chargeId: idOf(dispute.charge),
        paymentIntentId: idOf(dispute.payment_intent),
        status: dispute.status,
      };
    });
  }

  parseEvent(rawBody: Buffer, signature: string | undefined): ConnectEvent {
    const event = verifyStripeEvent(this.stripe, rawBody, signature, this.webhookSecret, 'Connect endpoint');
    const object = event.data.object as unknown as { id?: string };
    return {
      id: event.id,
      type: event.type,
      created: new Date(event.created * 1000),
      account: event.account ?? null,
      objectId: object.id ?? null,
    };
  }
}

/**
 * The event of a Stripe webhook delivery, after checking its signature: the HMAC over the exact bytes, and no
 * timestamp older than five minutes (replays). `endpoint` names the Stripe endpoint in the suggestion.
 */
export function verifyStripeEvent(
  stripe: Stripe,
  rawBody: Buffer,
  signature: string | undefined,
  webhookSecret: string,
  endpoint: string,
): Stripe.Event {
  if (!signature) {
    throw new AppError('BAD_REQUEST', 'The Stripe-Signature header is missing.', { title: 'Invalid Signature' });
  }
  try {
    return stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
  } catch (error) {
    const message = error instanceof Error ? error.message : 'unreadable event';
    throw new AppError('BAD_REQUEST', `The webhook could not be verified: ${message}`, {
      title: 'Invalid Signature',
      suggestion: `Check that the ${endpoint}'s signing secret matches the configured webhook secret.`,
    });
  }
}
