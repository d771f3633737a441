import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import type { StripeKeyPair } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import type {
  CheckoutRequest,
  CheckoutSessionInfo,
  ConnectGateway,
  ConnectInvoice,
  PaymentEvent,
  PlanPriceRequest,
  ProviderSubscription,
  StripeGateway,
  SubscriptionState,
} from './payments.js';
import { callStripe } from './stripe-call.js';
import { StripeConnectGateway, toInvoice, verifyStripeEvent } from './stripe-connect.js';

// Stripe through its official library (docs.stripe.com/api). The library is pointed at STRIPE_API_URL by host,
// port and protocol, so that tests talk to a fake shaped like the real API. Keys never reach a log: errors are
// reduced to Stripe's own message and code.

/** Stripe's subscription statuses, by what they mean for the seller (docs.stripe.com/billing/subscriptions/overview). */
const stateByStatus: Record<string, SubscriptionState> = {
  active: 'active',
  trialing: 'active',
  past_due: 'inactive',
  unpaid: 'inactive',
  incomplete: 'inactive',
  paused: 'inactive',
  canceled: 'expired',
  incomplete_expired: 'expired',
};

const fromEpoch = (seconds: number | null | undefined): Date | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Products get ids of ours, so that finding a tier's product needs no search and two processes make one. */
export function productIdFor(tierId: string): string {
  return `packgate_tier_${tierId}`;
}

/** A price is immutable: its lookup key names everything it fixes, so a changed tier price gets a new one. */
export function priceLookupKeyFor(tier: PlanPriceRequest): string {
  return `packgate_${tier.tierId}_${tier.currency.toLowerCase()}_${tier.priceCents}_month`;
}

export function toProviderSubscription(subscription: Stripe.Subscription): ProviderSubscription {
  const item = subscription.items?.data?.[0];
  // Since API version 2025-03-31 the period lives on the items; older versions had it on the subscription.
  const periodEnd =
    item?.current_period_end ?? (subscription as unknown as { current_period_end?: number }).current_period_end;
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    state: stateByStatus[subscription.status] ?? 'inactive',
    providerStatus: subscription.status,
    itemId: item?.id ?? null,
    priceId: item?.price?.id ?? null,
    tierId: item?.price?.metadata?.tierId || subscription.metadata?.tierId || null,
    userId: subscription.metadata?.userId || null,
    currentPeriodEnd: fromEpoch(periodEnd),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endedAt: fromEpoch(subscription.ended_at),
  };
}

/** The subscription an event is about, wherever its type keeps it. */
function eventFacts(event: Stripe.Event): Pick<PaymentEvent, 'subscriptionId' | 'customerId' | 'userId' | 'invoiceId'> {
  const object = event.data.object as unknown as Record<string, unknown>;
  const customerId = idOf(object.customer as string | { id: string } | null);
  if (event.type.startsWith('checkout.session.')) {
    return {
      subscriptionId: idOf(object.subscription as string | { id: string } | null),
      customerId,
      userId: (object.client_reference_id as string | null) ?? null,
      invoiceId: null,
    };
  }
  if (event.type.startsWith('customer.subscription.')) {
    return { subscriptionId: idOf(object.id as string), customerId, userId: null, invoiceId: null };
  }
  if (event.type.startsWith('invoice.')) {
    // Since API version 2025-03-31 an invoice names its subscription under parent.subscription_details.
    const parent = object.parent as { subscription_details?: { subscription?: string | { id: string } } } | null;
    const subscription = parent?.subscription_details?.subscription ?? (object.subscription as string | null);
    return { subscriptionId: idOf(subscription), customerId, userId: null, invoiceId: idOf(object.id as string) };
  }
  return { subscriptionId: null, customerId, userId: null, invoiceId: null };
}

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.statusCode === 404;
}

export class StripePaymentsGateway implements StripeGateway {
  readonly kind = 'stripe' as const;
  readonly priceMode: 'test' | 'live';
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  readonly connect: ConnectGateway;

  constructor(
    keys: StripeKeyPair,
    apiUrl: string,
    readonly sandboxMode: boolean,
    private readonly log: FastifyBaseLogger,
  ) {
    const url = new URL(apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    this.stripe = new Stripe(keys.secretKey, {
      host: url.hostname,
      port: url.port || (protocol === 'http' ? 80 : 443),
      protocol,
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Packgate' },
    });
    this.webhookSecret = keys.webhookSecret;
    this.priceMode = /^(sk|rk)_test_/.test(keys.secretKey) ? 'test' : 'live';
    // Connect events come to an endpoint of their own; its signing secret, when set, differs from the platform's.
    this.connect = new StripeConnectGateway(this.stripe, keys.connectWebhookSecret ?? keys.webhookSecret, log);
  }

  /** Runs a Stripe call, turning its failures into the app's errors (a seller reads them). */
  private call<T>(what: string, run: () => Promise<T>): Promise<T> {
    return callStripe(this.log, 'Stripe', what, run);
  }

  async findOrCreateCustomer(user: { id: string; email: string | null }): Promise<string> {
    return this.call('find or create customer', async () => {
      // A checkout abandoned before the local record kept the customer id must not leave a second customer.
      if (user.email) {
        const existing = await this.stripe.customers.list({ email: user.email, limit: 20 });
        const mine = existing.data.find((customer) => customer.metadata?.userId === user.id);
        if (mine) return mine.id;
      }
      const created = await this.stripe.customers.create({
        ...(user.email ? { email: user.email } : {}),
        metadata: { userId: user.id },
      });
      return created.id;
    });
  }

  async findOrCreatePrice(tier: PlanPriceRequest): Promise<{ productId: string; priceId: string }> {
    return this.call('find or create price', async () => {
      const productId = productIdFor(tier.tierId);
      let product: Stripe.Product | undefined;
      try {
        product = await this.stripe.products.retrieve(productId);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      if (!product) {
        product = await this.stripe.products.create({
          id: productId,
          name: tier.name,
          metadata: { tierId: tier.tierId },
        });
      } else if (product.name !== tier.name || !product.active) {
        product = await this.stripe.products.update(productId, { name: tier.name, active: true });
      }
      const lookupKey = priceLookupKeyFor(tier);
      const found = await this.stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
      const price =
        found.data[0] ??
        (await this.stripe.prices.create({
          product: product.id,
          unit_amount: tier.priceCents,
          currency: tier.currency.toLowerCase(),
          recurring: { interval: 'month' },
          lookup_key: lookupKey,
          metadata: { tierId: tier.tierId },
        }));
      return { productId: product.id, priceId: price.id };
    });
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<string> {
    const session = await this.call('create checkout session', () =>
      this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: request.customerId,
        line_items: [{ price: request.priceId, quantity: 1 }],
        client_reference_id: request.userId,
        metadata: { userId: request.userId, tierId: request.tierId },
        subscription_data: { metadata: { userId: request.userId, tierId: request.tierId } },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      }),
    );
    if (!session.url) throw new AppError('UNAVAILABLE', 'The payment provider did not return a checkout page.');
    return session.url;
  }

  async retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionInfo | undefined> {
    return this.call('retrieve checkout session', async () => {
      let session: Stripe.Checkout.Session;
      try {
        session = await this.stripe.checkout.sessions.retrieve(sessionId);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      return {
        id: session.id,
        userId: session.client_reference_id,
        isComplete: session.status === 'complete',
        isPaid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
        subscriptionId: idOf(session.subscription),
        customerId: idOf(session.customer),
      };
    });
  }

  async retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription> {
    const subscription = await this.call('retrieve subscription', () =>
      this.stripe.subscriptions.retrieve(subscriptionId),
    );
    return toProviderSubscription(subscription);
  }

  async retrieveInvoice(invoiceId: string): Promise<ConnectInvoice> {
    return this.call('retrieve invoice', async () => toInvoice(await this.stripe.invoices.retrieve(invoiceId)));
  }

  async changeSubscriptionPrice(subscriptionId: string, priceId: string): Promise<ProviderSubscription> {
    return this.call('change subscription price', async () => {
      const current = toProviderSubscription(await this.stripe.subscriptions.retrieve(subscriptionId));
      // Replacing the item's price keeps the subscription, its billing cycle and Stripe's default proration.
      const updated = await this.stripe.subscriptions.update(subscriptionId, {
        items: [current.itemId ? { id: current.itemId, price: priceId } : { price: priceId }],
        cancel_at_period_end: false,
      });
      return toProviderSubscription(updated);
    });
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean): Promise<ProviderSubscription> {
    const updated = await this.call('update subscription', () =>
      this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancelAtPeriodEnd }),
    );
    return toProviderSubscription(updated);
  }

  async cancelNow(subscriptionId: string): Promise<ProviderSubscription> {
    const canceled = await this.call('cancel subscription', () => this.stripe.subscriptions.cancel(subscriptionId));
    return toProviderSubscription(canceled);
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await this.call('create portal session', () =>
      this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
    );
    return session.url;
  }

  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent {
    const event = verifyStripeEvent(this.stripe, rawBody, signature, this.webhookSecret, 'endpoint');
    return { id: event.id, type: event.type, created: new Date(event.created * 1000), ...eventFacts(event) };
  }
}
