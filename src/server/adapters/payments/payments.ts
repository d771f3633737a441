// The payments edge. Two implementations, chosen at start-up (create-payments.ts):
// - billing off (the embedded default): no provider; choosing a plan activates it at once, without a charge;
// - Stripe (STRIPE_* settings): Checkout, the customer portal, subscriptions and signed webhooks.
// Services branch on `kind`: what billing off does is a change of the local record, which is theirs to make.

/** What a provider subscription means for the seller's access. */
export type SubscriptionState = 'active' | 'inactive' | 'expired';

/** A provider subscription as the provider reports it now; the local record is made to match it. */
export type ProviderSubscription = {
  id: string;
  customerId: string;
  state: SubscriptionState;
  /** The provider's own status (active, trialing, past_due, canceled, ...), for logs. */
  providerStatus: string;
  itemId: string | null;
  priceId: string | null;
  /** The tier the price was made for (price metadata), when the provider knows it. */
  tierId: string | null;
  /** The seller the subscription was started for (subscription metadata). */
  userId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** When a canceled subscription ended. */
  endedAt: Date | null;
};

export type CheckoutSessionInfo = {
  id: string;
  /** client_reference_id: the seller who started the checkout. */
  userId: string | null;
  isComplete: boolean;
  /** Paid, or complete without a payment being due. */
  isPaid: boolean;
  subscriptionId: string | null;
  customerId: string | null;
};

/** A verified webhook event, reduced to what decides which subscription to look at again. */
export type PaymentEvent = {
  id: string;
  type: string;
  created: Date;
  subscriptionId: string | null;
  customerId: string | null;
  /** client_reference_id of a completed checkout. */
  userId: string | null;
};

export type CheckoutRequest = {
  customerId: string;
  priceId: string;
  userId: string;
  tierId: string;
  successUrl: string;
  cancelUrl: string;
};

export type TierPriceRequest = { tierId: string; name: string; priceCents: number; currency: string };

export interface StripeGateway {
  readonly kind: 'stripe';
  readonly sandboxMode: boolean;
  /** Stripe keeps test and live objects apart: prices are remembered per mode. */
  readonly priceMode: 'test' | 'live';
  findOrCreateCustomer(user: { id: string; email: string | null }): Promise<string>;
  findOrCreatePrice(tier: TierPriceRequest): Promise<{ productId: string; priceId: string }>;
  createCheckoutSession(request: CheckoutRequest): Promise<string>;
  /** Undefined when Stripe does not know the session. */
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionInfo | undefined>;
  retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  changeSubscriptionPrice(subscriptionId: string, priceId: string): Promise<ProviderSubscription>;
  setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean): Promise<ProviderSubscription>;
  cancelNow(subscriptionId: string): Promise<ProviderSubscription>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  /** Verifies Stripe-Signature over the raw body; throws a 400 AppError for a bad signature or a stale timestamp. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent;
}

export interface BillingOff {
  readonly kind: 'off';
  readonly sandboxMode: boolean;
}

export type Payments = StripeGateway | BillingOff;
