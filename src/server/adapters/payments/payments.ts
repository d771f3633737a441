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
  /** The invoice an `invoice.*` event is about. */
  invoiceId: string | null;
};

export type CheckoutRequest = {
  customerId: string;
  priceId: string;
  userId: string;
  tierId: string;
  successUrl: string;
  cancelUrl: string;
};

export type PlanPriceRequest = { tierId: string; name: string; priceCents: number; currency: string };

export interface StripeGateway {
  readonly kind: 'stripe';
  readonly sandboxMode: boolean;
  /** Stripe keeps test and live objects apart: prices are remembered per mode. */
  readonly priceMode: 'test' | 'live';
  findOrCreateCustomer(user: { id: string; email: string | null }): Promise<string>;
  findOrCreatePrice(tier: PlanPriceRequest): Promise<{ productId: string; priceId: string }>;
  createCheckoutSession(request: CheckoutRequest): Promise<string>;
  /** Undefined when Stripe does not know the session. */
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionInfo | undefined>;
  retrieveSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  /** An invoice of the platform's own account (a seller's plan), in the shape a connected account's has. */
  retrieveInvoice(invoiceId: string): Promise<ConnectInvoice>;
  changeSubscriptionPrice(subscriptionId: string, priceId: string): Promise<ProviderSubscription>;
  setCancelAtPeriodEnd(subscriptionId: string, cancelAtPeriodEnd: boolean): Promise<ProviderSubscription>;
  cancelNow(subscriptionId: string): Promise<ProviderSubscription>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  /** Verifies Stripe-Signature over the raw body; throws a 400 AppError for a bad signature or a stale timestamp. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent;
  /** Sellers' connected accounts (Stripe Connect). */
  readonly connect: ConnectGateway;
}

export interface BillingOff {
  readonly kind: 'off';
  readonly sandboxMode: boolean;
}

export type Payments = StripeGateway | BillingOff;

// ---- Stripe Connect (issue 11): sellers' Express accounts, Checkout on them, and what their events are about ----

/** A seller's connected account as Stripe reports it now. */
export type ConnectAccount = {
  id: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** requirements.disabled_reason: why Stripe restricted the account. */
  disabledReason: string | null;
};

export type ConnectCheckoutRequest = {
  account: string;
  mode: 'payment' | 'subscription';
  productName: string;
  amountCents: number;
  currency: string;
  interval: 'month' | 'year' | null;
  trialDays: number | null;
  /** One-time payments: the fee in cents (payment_intent_data.application_fee_amount). */
  applicationFeeCents: number | null;
  /** Subscriptions: the fee in percent of each invoice (subscription_data.application_fee_percent). */
  applicationFeePercent: number | null;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
};

export type ConnectCheckoutSession = {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  /** Paid, or complete without a payment being due (a trial). */
  isPaid: boolean;
  amountTotal: number | null;
  currency: string | null;
  customerEmail: string | null;
  paymentIntentId: string | null;
  subscriptionId: string | null;
  /** Subscription mode: the first invoice, whose payment is the purchase's. */
  invoiceId: string | null;
  metadata: Record<string, string>;
};

export type ConnectSubscription = {
  id: string;
  status: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  endedAt: Date | null;
  cancelAtPeriodEnd: boolean;
  /** What the checkout put on it (subscription_data.metadata): names the sale. */
  metadata: Record<string, string>;
};

export type ConnectInvoice = {
  id: string;
  status: string;
  amountPaid: number;
  currency: string;
  subscriptionId: string | null;
  /** subscription_create (the checkout's own first invoice), subscription_cycle (a renewal), ... */
  billingReason: string | null;
  paymentIntentId: string | null;
  paidAt: Date | null;
  /** The subscription's metadata as the invoice carries it (parent.subscription_details.metadata). */
  subscriptionMetadata: Record<string, string>;
};

export type ConnectCharge = {
  id: string;
  paymentIntentId: string | null;
  amount: number;
  amountRefunded: number;
  refunded: boolean;
};

export type ConnectDispute = { id: string; chargeId: string | null; paymentIntentId: string | null; status: string };

/** A verified Connect event: which account it came from and which object it is about. */
export type ConnectEvent = { id: string; type: string; created: Date; account: string | null; objectId: string | null };

export interface ConnectGateway {
  createAccount(seller: { sellerId: string; email: string | null }): Promise<ConnectAccount>;
  retrieveAccount(accountId: string): Promise<ConnectAccount>;
  /** An Account Link for Express onboarding: a one-time URL. */
  createAccountLink(accountId: string, refreshUrl: string, returnUrl: string): Promise<string>;
  createCheckoutSession(request: ConnectCheckoutRequest): Promise<ConnectCheckoutSession>;
  /** Undefined when Stripe does not know the session on that account. */
  retrieveCheckoutSession(accountId: string, sessionId: string): Promise<ConnectCheckoutSession | undefined>;
  findCheckoutSessionByPaymentIntent(
    accountId: string,
    paymentIntentId: string,
  ): Promise<ConnectCheckoutSession | undefined>;
  retrieveSubscription(accountId: string, subscriptionId: string): Promise<ConnectSubscription>;
  retrieveInvoice(accountId: string, invoiceId: string): Promise<ConnectInvoice>;
  retrieveCharge(accountId: string, chargeId: string): Promise<ConnectCharge>;
  retrieveDispute(accountId: string, disputeId: string): Promise<ConnectDispute>;
  /** Verifies Stripe-Signature over the raw body; throws a 400 AppError for a bad signature or a stale timestamp. */
  parseEvent(rawBody: Buffer, signature: string | undefined): ConnectEvent;
}
