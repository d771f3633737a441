import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, sendJson } from './fake-server.js';
import { readRequest } from './read-body.js';

// A fake Stripe shaped like its public REST API (docs.stripe.com/api) for what Packgate calls: customers,
// products, prices (lookup keys, list by product), Checkout Sessions, subscriptions (retrieve, update, cancel) and
// billing portal sessions; and Stripe Connect (docs.stripe.com/connect): Express accounts, Account Links (a hosted
// onboarding page), Checkout Sessions created on a connected account (`Stripe-Account` header) in payment mode with
// `payment_intent_data.application_fee_amount` or subscription mode with `subscription_data.application_fee_percent`
// and inline `price_data`, charges, refunds and disputes, and events carrying `account`. Objects made on a connected
// account are only found with that account's header, as on Stripe. Requests are form-encoded with bracketed keys (`line_items[0][price]`), answers are
// JSON, errors `{error: {type, code, message, param}}`. Objects follow the API version the stripe library pins
// (2025-03-31 and later: a subscription's period lives on its items, an invoice names its subscription under
// `parent.subscription_details`). Helpers play the customer's and Stripe's side: pay a checkout, fail a payment,
// end a subscription, and deliver events signed the way Stripe signs them (docs.stripe.com/webhooks/signature:
// `Stripe-Signature: t={unix time},v1={HMAC-SHA256 of "{t}.{body}" under the endpoint secret}`).

type StripeObject = Record<string, unknown> & { id: string };

export type FakeStripeRequest = { method: string; path: string; params: Record<string, unknown> };

export type FakeStripeEvent = {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  /** The connected account the event happened on (Connect events only). */
  account?: string;
  type: string;
  data: { object: StripeObject };
};

export type FakeStripe = {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** STRIPE_* settings pointing an app at this fake in sandbox mode (the test key pair). */
  env(): Record<string, string>;
  requests: FakeStripeRequest[];
  customers: Map<string, StripeObject>;
  products: Map<string, StripeObject>;
  prices: Map<string, StripeObject>;
  sessions: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  invoices: Map<string, StripeObject>;
  portalSessions: Map<string, StripeObject>;
  /**
   * Pays an open Checkout Session as the customer would: the session completes; in subscription mode the
   * subscription starts (subscription and invoice), in payment mode (Connect) a charge pays it (subscription and
   * invoice are then undefined).
   */
  completeCheckout(
    sessionId: string,
    options?: { paymentStatus?: 'paid' | 'unpaid' },
  ): { session: StripeObject; subscription: StripeObject; invoice: StripeObject; charge?: StripeObject };
  /** A renewal payment fails: the subscription turns past_due; answers the failed invoice. */
  failPayment(subscriptionId: string): { invoice: StripeObject; subscription: StripeObject };
  /** Ends a subscription as Stripe does at the end of a cancelled period (status canceled). */
  endSubscription(subscriptionId: string): StripeObject;
  /** An event as Stripe would send it about `object` (a copy of its current state); `account` for Connect events. */
  event(type: string, object: StripeObject, options?: { id?: string; account?: string }): FakeStripeEvent;
  accounts: Map<string, StripeObject>;
  charges: Map<string, StripeObject>;
  disputes: Map<string, StripeObject>;
  /** Onboarding finished: charges and payouts enabled, nothing due. */
  enableAccount(accountId: string): StripeObject;
  /** Stripe restricts the account (e.g. reason `requirements.past_due`): charges and payouts disabled. */
  restrictAccount(accountId: string, reason: string): StripeObject;
  /** A connected subscription's next period is paid: the period moves on, a paid `subscription_cycle` invoice. */
  renewSubscription(subscriptionId: string): { invoice: StripeObject; subscription: StripeObject };
  /**
   * A connected subscription's renewal fails: as on Stripe, the period moves on first, then its invoice stays open
   * and the subscription turns past_due (or `status`, e.g. unpaid after the retries).
   */
  failRenewal(subscriptionId: string, status?: string): { invoice: StripeObject; subscription: StripeObject };
  /** The seller refunds a charge in full. */
  refundCharge(chargeId: string): StripeObject;
  /** A dispute on a charge, opened or closed with `status` (lost, won, needs_response, ...). */
  disputeCharge(chargeId: string, status: string): StripeObject;
  /** The charge that paid a payment intent. */
  chargeFor(paymentIntentId: string): StripeObject | undefined;
  /** The Stripe-Signature header for a payload. */
  signatureHeader(payload: string, options?: { secret?: string; timestamp?: number }): string;
  /** POSTs an event to `endpoint` as Stripe does, signed (by default) with the endpoint's secret. */
  deliver(
    endpoint: string,
    event: FakeStripeEvent,
    options?: { secret?: string; timestamp?: number; signature?: string },
  ): Promise<Response>;
  close(): Promise<void>;
};

const API_VERSION = '2026-10-28.endive';
const MONTH_SECONDS = 30 * 24 * 3600;
const YEAR_SECONDS = 365 * 24 * 3600;
const DAY_SECONDS = 24 * 3600;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding: `a[b][0][c]=v` → {a: {b: [{c: 'v'}]}}; `a[]=x` appends. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, index) => {
      const isLast = index === parts.length - 1;
      const nextIsIndex = !isLast && /^\d*$/.test(parts[index + 1]!);
      const key: string | number = Array.isArray(node) ? (part === '' ? node.length : Number(part)) : part;
      const container = node as Record<string | number, unknown>;
      if (isLast) {
        container[key] = value;
        return;
      }
      container[key] ??= nextIsIndex ? [] : {};
      node = container[key] as Record<string, unknown> | unknown[];
    });
  }
  return root;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string },
  ) {
    super(body.message);
  }
}

const missing = (kind: string, id: string, param = 'id') =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });

const invalid = (message: string, param?: string) =>
  new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_invalid', message, param });

export async function startFakeStripe(options: { now?: () => Date } = {}): Promise<FakeStripe> {
  const nowSeconds = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const secretKey = `sk_test_fake_${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_fake_${randomBytes(16).toString('hex')}`;
  const requests: FakeStripeRequest[] = [];
  const customers = new Map<string, StripeObject>();
  const products = new Map<string, StripeObject>();
  const prices = new Map<string, StripeObject>();
  const sessions = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const invoices = new Map<string, StripeObject>();
  const portalSessions = new Map<string, StripeObject>();
  const accounts = new Map<string, StripeObject>();
  const accountLinks = new Map<string, StripeObject>();
  const charges = new Map<string, StripeObject>();
  const disputes = new Map<string, StripeObject>();
  let baseUrl = '';
  /** The connected account a request acts on (its Stripe-Account header), undefined for the platform. */
  let requestAccount: string | undefined;

  const list = (url: string, data: StripeObject[]) => ({ object: 'list', data, has_more: false, url });
  const clone = <T>(value: T): T => structuredClone(value);
  const metadataOf = (value: unknown) => (value && typeof value === 'object' ? (value as Record<string, string>) : {});
  const get = <T extends StripeObject>(map: Map<string, T>, kind: string, id: string): T => {
    const found = map.get(id);
    // An object of a connected account exists only for requests made on that account, and the other way round.
    if (!found || (found._account as string | undefined) !== requestAccount) throw missing(kind, id);
    return found;
  };
  /** What the API answers for an object: without the fake's own bookkeeping (keys starting with `_`). */
  const present = (object: StripeObject): StripeObject =>
    clone(Object.fromEntries(Object.entries(object).filter(([key]) => !key.startsWith('_'))) as StripeObject);

  function itemsOf(subscription: StripeObject): Array<Record<string, unknown>> {
    return (subscription.items as { data: Array<Record<string, unknown>> }).data;
  }

  function createCustomer(params: Record<string, unknown>): StripeObject {
    const customer: StripeObject = {
      id: newId('cus'),
      object: 'customer',
      email: (params.email as string) ?? null,
      name: (params.name as string) ?? null,
      metadata: metadataOf(params.metadata),
      created: nowSeconds(),
      livemode: false,
    };
    customers.set(customer.id, customer);
    return customer;
  }

  function createProduct(params: Record<string, unknown>): StripeObject {
    const id = (params.id as string) || newId('prod');
    if (products.has(id)) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'resource_already_exists',
        message: 'Product already exists.',
        param: 'id',
      });
    }
    if (!params.name) throw invalid('Missing required param: name.', 'name');
    const product: StripeObject = {
      id,
      object: 'product',
      name: params.name,
      active: params.active !== 'false',
      metadata: metadataOf(params.metadata),
      created: nowSeconds(),
      updated: nowSeconds(),
      livemode: false,
    };
    products.set(id, product);
    return product;
  }

  function createPrice(params: Record<string, unknown>): StripeObject {
    const productId = params.product as string;
    if (!productId) throw invalid('Missing required param: product.', 'product');
    get(products, 'product', productId);
    const lookupKey = (params.lookup_key as string) ?? null;
    if (lookupKey && [...prices.values()].some((price) => price.lookup_key === lookupKey)) {
      throw invalid(`A price (\`${lookupKey}\`) already uses that lookup key.`, 'lookup_key');
    }
    const recurring = params.recurring as { interval?: string; interval_count?: string } | undefined;
    const price: StripeObject = {
      id: newId('price'),
      object: 'price',
      active: true,
      currency: String(params.currency ?? '').toLowerCase(),
      unit_amount: Number(params.unit_amount),
      product: productId,
      lookup_key: lookupKey,
      metadata: metadataOf(params.metadata),
      recurring: recurring
        ? { interval: recurring.interval ?? 'month', interval_count: Number(recurring.interval_count ?? 1) }
        : null,
      type: recurring ? 'recurring' : 'one_time',
      created: nowSeconds(),
      livemode: false,
    };
    prices.set(price.id, price);
    return price;
  }

  type LineItemParams = {
    price?: string;
    quantity?: string;
    price_data?: {
      currency?: string;
      unit_amount?: string;
      product_data?: { name?: string };
      recurring?: { interval?: string };
    };
  };

  /** `price_data` makes a one-off product and price on the account, as Stripe does. */
  function priceForLineItem(item: LineItemParams): string {
    if (item.price) return item.price;
    const data = item.price_data;
    if (!data) throw invalid('Each line item needs price or price_data.', 'line_items');
    const unitAmount = Number(data.unit_amount);
    if (!Number.isInteger(unitAmount) || unitAmount < 0) throw invalid('Invalid integer: unit_amount.', 'unit_amount');
    const product = createProduct({ name: data.product_data?.name });
    product._account = requestAccount;
    const price = createPrice({
      product: product.id,
      currency: data.currency,
      unit_amount: String(unitAmount),
      ...(data.recurring ? { recurring: data.recurring } : {}),
    });
    price._account = requestAccount;
    return price.id;
  }

  function createCheckoutSession(params: Record<string, unknown>): StripeObject {
    const mode = params.mode as string;
    if (mode !== 'subscription' && mode !== 'payment')
      throw invalid('Only payment and subscription modes are faked.', 'mode');
    const rawItems = (params.line_items as LineItemParams[]) ?? [];
    if (rawItems.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    const lineItems = rawItems.map((item) => ({ price: priceForLineItem(item), quantity: item.quantity }));
    let amountTotal = 0;
    let currency: string | null = null;
    for (const item of lineItems) {
      const price = get(prices, 'price', item.price ?? '');
      if (mode === 'subscription' && !price.recurring)
        throw invalid('Subscription mode needs recurring prices.', 'line_items');
      if (mode === 'payment' && price.recurring) throw invalid('Payment mode needs one-time prices.', 'line_items');
      amountTotal += Number(price.unit_amount) * Number(item.quantity ?? 1);
      currency = price.currency as string;
    }
    const paymentIntentData = params.payment_intent_data as { application_fee_amount?: string } | undefined;
    const subscriptionData = params.subscription_data as
      | { application_fee_percent?: string; trial_period_days?: string }
      | undefined;
    if (paymentIntentData?.application_fee_amount !== undefined && !requestAccount) {
      throw invalid('Can only apply an application_fee_amount when the request is made on behalf of another account.');
    }
    if (subscriptionData?.application_fee_percent !== undefined && !requestAccount) {
      throw invalid('Can only apply an application_fee_percent when the request is made on behalf of another account.');
    }
    if (requestAccount) {
      // An account is the platform's object: found by id, whichever account header the request carries.
      const account = accounts.get(requestAccount);
      if (!account) throw missing('account', requestAccount);
      if (!account.charges_enabled) throw invalid('The account cannot currently make live charges.');
    }
    if (!params.success_url) throw invalid('Missing required param: success_url.', 'success_url');
    if (params.customer) get(customers, 'customer', params.customer as string);
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const trialDays = Number(subscriptionData?.trial_period_days ?? 0);
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      mode,
      amount_total: trialDays > 0 ? 0 : amountTotal,
      currency,
      payment_intent: null,
      status: 'open',
      payment_status: 'unpaid',
      url: `${baseUrl}/checkout/${id}`,
      customer: (params.customer as string) ?? null,
      customer_email: (params.customer_email as string) ?? null,
      client_reference_id: (params.client_reference_id as string) ?? null,
      metadata: metadataOf(params.metadata),
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      subscription: null,
      invoice: null,
      created: nowSeconds(),
      expires_at: nowSeconds() + 24 * 3600,
      livemode: false,
      // Kept for completing the checkout; Stripe does not return these on the session.
      _lineItems: lineItems.map((item) => ({ price: item.price, quantity: Number(item.quantity ?? 1) })),
      _subscriptionMetadata: metadataOf((params.subscription_data as { metadata?: unknown } | undefined)?.metadata),
      _account: requestAccount,
      _applicationFeeAmount:
        paymentIntentData?.application_fee_amount !== undefined
          ? Number(paymentIntentData.application_fee_amount)
          : null,
      _applicationFeePercent:
        subscriptionData?.application_fee_percent !== undefined
          ? Number(subscriptionData.application_fee_percent)
          : null,
      _trialDays: trialDays,
    };
    sessions.set(id, session);
    return session;
  }

  /** What the API answers for a session: without the fake's own bookkeeping. */
  function presentSession(session: StripeObject): StripeObject {
    return present(session);
  }

  function newCharge(amount: number, currency: string, account: string | undefined, fee: number | null): StripeObject {
    const paymentIntentId = newId('pi');
    const charge: StripeObject = {
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_refunded: 0,
      refunded: false,
      currency,
      paid: true,
      status: 'succeeded',
      payment_intent: paymentIntentId,
      application_fee_amount: fee,
      disputed: false,
      created: nowSeconds(),
      livemode: false,
      _account: account,
    };
    charges.set(charge.id, charge);
    return charge;
  }

  function newInvoice(
    subscription: StripeObject,
    status: 'paid' | 'open',
    billingReason = 'subscription_create',
  ): StripeObject {
    const item = itemsOf(subscription)[0]!;
    const price = item.price as StripeObject;
    const amount = subscription.status === 'trialing' ? 0 : Number(price.unit_amount);
    const percent = subscription.application_fee_percent as number | null | undefined;
    const charge =
      status === 'paid' && amount > 0
        ? newCharge(
            amount,
            price.currency as string,
            subscription._account as string | undefined,
            percent == null ? null : Math.round((amount * percent) / 100),
          )
        : null;
    const invoice: StripeObject = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status,
      billing_reason: billingReason,
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      currency: price.currency,
      payments: {
        object: 'list',
        data: charge
          ? [{ object: 'invoice_payment', payment: { type: 'payment_intent', payment_intent: charge.payment_intent } }]
          : [],
        has_more: false,
      },
      status_transitions: { paid_at: status === 'paid' ? nowSeconds() : null },
      _account: subscription._account,
      attempt_count: 1,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: clone(subscription.metadata) },
      },
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      created: nowSeconds(),
      livemode: false,
    };
    invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  function updateSubscription(id: string, params: Record<string, unknown>): StripeObject {
    const subscription = get(subscriptions, 'subscription', id);
    if (subscription.status === 'canceled') {
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const items = params.items as Array<{ id?: string; price?: string }> | undefined;
    for (const change of items ?? []) {
      const price = clone(get(prices, 'price', change.price ?? ''));
      const existing = itemsOf(subscription).find((item) => item.id === change.id);
      if (change.id && !existing) throw missing('subscription item', change.id, 'items');
      if (existing) existing.price = price;
      else itemsOf(subscription).push(newItem(subscription.id, price));
    }
    if (params.cancel_at_period_end !== undefined) {
      subscription.cancel_at_period_end = params.cancel_at_period_end === 'true';
      const periodEnd = itemsOf(subscription)[0]?.current_period_end ?? null;
      subscription.cancel_at = subscription.cancel_at_period_end ? periodEnd : null;
      subscription.canceled_at = subscription.cancel_at_period_end ? nowSeconds() : null;
    }
    if (params.metadata)
      subscription.metadata = { ...metadataOf(subscription.metadata), ...metadataOf(params.metadata) };
    return subscription;
  }

  function newItem(subscriptionId: string, price: StripeObject): Record<string, unknown> {
    const start = nowSeconds();
    return {
      id: newId('si'),
      object: 'subscription_item',
      price,
      quantity: 1,
      subscription: subscriptionId,
      current_period_start: start,
      current_period_end:
        start + ((price.recurring as { interval?: string } | null)?.interval === 'year' ? YEAR_SECONDS : MONTH_SECONDS),
      metadata: {},
      created: start,
    };
  }

  function cancelSubscription(id: string): StripeObject {
    const subscription = get(subscriptions, 'subscription', id);
    if (subscription.status === 'canceled') {
      throw invalid(`This subscription has already been canceled: ${id}`);
    }
    subscription.status = 'canceled';
    subscription.canceled_at = nowSeconds();
    subscription.ended_at = nowSeconds();
    return subscription;
  }

  function createPortalSession(params: Record<string, unknown>): StripeObject {
    const customer = params.customer as string;
    if (!customer) throw invalid('Missing required param: customer.', 'customer');
    get(customers, 'customer', customer);
    const session: StripeObject = {
      id: newId('bps'),
      object: 'billing_portal.session',
      customer,
      return_url: (params.return_url as string) ?? null,
      url: `${baseUrl}/portal/${randomBytes(8).toString('hex')}`,
      created: nowSeconds(),
      livemode: false,
    };
    portalSessions.set(session.id, session);
    return session;
  }

  function completeCheckout(sessionId: string, options: { paymentStatus?: 'paid' | 'unpaid' } = {}) {
    const found = sessions.get(sessionId);
    if (!found) throw missing('checkout session', sessionId);
    // The helper plays the buyer: it acts on whichever account the session belongs to.
    return onAccountOf(found, () => completeCheckoutOnAccount(found, options));
  }

  /** Runs `act` as the account `object` belongs to, as a helper playing a buyer or Stripe itself does. */
  function onAccountOf<T>(object: StripeObject, act: () => T): T {
    const previousAccount = requestAccount;
    requestAccount = object._account as string | undefined;
    try {
      return act();
    } finally {
      requestAccount = previousAccount;
    }
  }

  /** A subscription's renewal, paid or not: every item moves to its next period and the cycle is invoiced. */
  function startNextPeriod(subscriptionId: string, status: string, invoiceStatus: 'paid' | 'open') {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw missing('subscription', subscriptionId);
    return onAccountOf(subscription, () => {
      for (const item of itemsOf(subscription)) {
        const interval = (item.price as { recurring?: { interval?: string } }).recurring?.interval;
        const length = interval === 'year' ? YEAR_SECONDS : MONTH_SECONDS;
        item.current_period_start = item.current_period_end;
        item.current_period_end = Number(item.current_period_end) + length;
      }
      subscription.status = status;
      const invoice = newInvoice(subscription, invoiceStatus, 'subscription_cycle');
      return { invoice: present(invoice), subscription: present(subscription) };
    });
  }

  function completeCheckoutOnAccount(session: StripeObject, options: { paymentStatus?: 'paid' | 'unpaid' }) {
    const sessionId = session.id;
    if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}`);
    if (session.mode === 'payment') {
      const paid = (options.paymentStatus ?? 'paid') === 'paid';
      const charge = paid
        ? newCharge(
            Number(session.amount_total),
            session.currency as string,
            session._account as string | undefined,
            session._applicationFeeAmount as number | null,
          )
        : null;
      Object.assign(session, {
        status: paid ? 'complete' : 'open',
        payment_status: paid ? 'paid' : 'unpaid',
        payment_intent: charge?.payment_intent ?? null,
        customer_details: { email: session.customer_email ?? 'buyer@example.com' },
      });
      return {
        session: presentSession(session),
        subscription: undefined as unknown as StripeObject,
        invoice: undefined as unknown as StripeObject,
        charge: charge ? present(charge) : undefined,
      };
    }
    const customerId =
      (session.customer as string | null) ??
      Object.assign(createCustomer({ email: session.customer_email ?? undefined }), { _account: requestAccount }).id;
    const id = newId('sub');
    const lineItems = session._lineItems as Array<{ price: string }>;
    const paid = (options.paymentStatus ?? 'paid') === 'paid';
    const trialDays = Number(session._trialDays ?? 0);
    const subscription: StripeObject = {
      id,
      object: 'subscription',
      customer: customerId,
      status: !paid ? 'incomplete' : trialDays > 0 ? 'trialing' : 'active',
      application_fee_percent: session._applicationFeePercent ?? null,
      trial_end: trialDays > 0 ? nowSeconds() + trialDays * DAY_SECONDS : null,
      _account: session._account,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      collection_method: 'charge_automatically',
      created: nowSeconds(),
      start_date: nowSeconds(),
      metadata: clone(session._subscriptionMetadata as Record<string, string>),
      items: {
        object: 'list',
        data: lineItems.map((item) => newItem(id, clone(get(prices, 'price', item.price)))),
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      latest_invoice: null,
      livemode: false,
    };
    if (trialDays > 0) {
      for (const item of itemsOf(subscription)) item.current_period_end = nowSeconds() + trialDays * DAY_SECONDS;
    }
    subscriptions.set(id, subscription);
    const invoice = newInvoice(subscription, paid ? 'paid' : 'open');
    Object.assign(session, {
      status: 'complete',
      payment_status: !paid ? 'unpaid' : trialDays > 0 ? 'no_payment_required' : 'paid',
      customer: customerId,
      customer_details: { email: session.customer_email ?? 'buyer@example.com' },
      subscription: id,
      invoice: invoice.id,
    });
    const chargeIntent = (invoice.payments as { data: Array<{ payment: { payment_intent: string } }> }).data[0]?.payment
      .payment_intent;
    const charge = chargeIntent
      ? [...charges.values()].find((entry) => entry.payment_intent === chargeIntent)
      : undefined;
    return {
      session: presentSession(session),
      subscription: present(subscription),
      invoice: present(invoice),
      charge: charge ? present(charge) : undefined,
    };
  }

  function createAccount(params: Record<string, unknown>): StripeObject {
    if (requestAccount) throw invalid('Only a platform can create connected accounts.');
    const account: StripeObject = {
      id: `acct_${randomBytes(8).toString('hex')}`,
      object: 'account',
      type: (params.type as string) ?? 'express',
      email: (params.email as string) ?? null,
      country: (params.country as string) ?? 'US',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      requirements: {
        currently_due: ['external_account', 'tos_acceptance.date'],
        disabled_reason: 'requirements.past_due',
      },
      metadata: metadataOf(params.metadata),
      created: nowSeconds(),
    };
    accounts.set(account.id, account);
    return account;
  }

  function enableAccount(accountId: string): StripeObject {
    const account = accounts.get(accountId);
    if (!account) throw missing('account', accountId);
    Object.assign(account, {
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      requirements: { currently_due: [], disabled_reason: null },
    });
    return clone(account);
  }

  function createAccountLink(params: Record<string, unknown>): StripeObject {
    const accountId = params.account as string;
    if (!accountId) throw invalid('Missing required param: account.', 'account');
    if (!accounts.has(accountId)) throw missing('account', accountId, 'account');
    if (!params.return_url) throw invalid('Missing required param: return_url.', 'return_url');
    const key = randomBytes(8).toString('hex');
    const link: StripeObject = {
      id: key,
      object: 'account_link',
      url: `${baseUrl}/connect/onboarding/${key}`,
      created: nowSeconds(),
      expires_at: nowSeconds() + 300,
      _account: accountId,
      _returnUrl: params.return_url,
    };
    accountLinks.set(key, link);
    return link;
  }

  function retrieveAccount(accountId: string): StripeObject {
    const account = accounts.get(accountId);
    if (!account) throw missing('account', accountId);
    return account;
  }

  function route(method: string, path: string, params: Record<string, unknown>): unknown {
    // The id in `/v1/{collection}/{id}` paths, when the path is one.
    const idIn = (collection: string) => new RegExp(`^/v1/${collection}/([^/]+)$`).exec(path)?.[1];
    const customerId = idIn('customers');
    const productId = idIn('products');
    const priceId = idIn('prices');
    const sessionId = idIn('checkout/sessions');
    const subscriptionId = idIn('subscriptions');

    const accountId = idIn('accounts');
    const chargeId = idIn('charges');
    const disputeId = idIn('disputes');
    const invoiceId = idIn('invoices');
    if (method === 'POST' && path === '/v1/accounts') return createAccount(params);
    if (accountId && method === 'GET') return retrieveAccount(accountId);
    if (method === 'GET' && path === '/v1/account') return retrieveAccount(requestAccount ?? '');
    if (method === 'POST' && path === '/v1/account_links') return present(createAccountLink(params));
    if (chargeId && method === 'GET') return present(get(charges, 'charge', chargeId));
    if (disputeId && method === 'GET') return present(get(disputes, 'dispute', disputeId));
    if (invoiceId && method === 'GET') return present(get(invoices, 'invoice', invoiceId));
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const found = [...sessions.values()].filter(
        (session) =>
          (session._account as string | undefined) === requestAccount &&
          (params.payment_intent === undefined || session.payment_intent === params.payment_intent),
      );
      return list('/v1/checkout/sessions', found.slice(0, Number(params.limit ?? 10)).map(present));
    }
    if (method === 'POST' && path === '/v1/customers') return createCustomer(params);
    if (method === 'GET' && path === '/v1/customers') {
      const email = params.email as string | undefined;
      const found = [...customers.values()].filter((customer) => !email || customer.email === email);
      return list('/v1/customers', found.slice(0, Number(params.limit ?? 10)));
    }
    if (customerId && method === 'GET') return get(customers, 'customer', customerId);
    if (method === 'POST' && path === '/v1/products') return createProduct(params);
    if (productId && method === 'GET') return get(products, 'product', decodeURIComponent(productId));
    if (productId && method === 'POST') {
      const product = get(products, 'product', decodeURIComponent(productId));
      if (params.name !== undefined) product.name = params.name;
      if (params.active !== undefined) product.active = params.active === 'true';
      if (params.metadata) product.metadata = { ...metadataOf(product.metadata), ...metadataOf(params.metadata) };
      product.updated = nowSeconds();
      return product;
    }
    if (method === 'POST' && path === '/v1/prices') return createPrice(params);
    if (method === 'GET' && path === '/v1/prices') {
      const lookupKeys = params.lookup_keys as string[] | undefined;
      const found = [...prices.values()].filter(
        (price) =>
          (!lookupKeys || lookupKeys.includes(price.lookup_key as string)) &&
          (params.product === undefined || price.product === params.product) &&
          (params.active === undefined || String(price.active) === params.active),
      );
      return list('/v1/prices', found.slice(0, Number(params.limit ?? 10)));
    }
    if (priceId && method === 'GET') return get(prices, 'price', priceId);
    if (method === 'POST' && path === '/v1/checkout/sessions') return presentSession(createCheckoutSession(params));
    if (sessionId && method === 'GET') return presentSession(get(sessions, 'checkout.session', sessionId));
    if (subscriptionId && method === 'GET') return present(get(subscriptions, 'subscription', subscriptionId));
    if (subscriptionId && method === 'POST') return updateSubscription(subscriptionId, params);
    if (subscriptionId && method === 'DELETE') return cancelSubscription(subscriptionId);
    if (method === 'POST' && path === '/v1/billing_portal/sessions') return createPortalSession(params);
    throw new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  /** The hosted pages a browser meets: Checkout (pay or cancel) and the portal (go back). */
  function page(request: IncomingMessage, response: ServerResponse, url: URL): boolean {
    const checkoutId = /^\/checkout\/([^/]+)$/.exec(url.pathname)?.[1];
    const payId = /^\/checkout\/([^/]+)\/pay$/.exec(url.pathname)?.[1];
    const onboardingId = /^\/connect\/onboarding\/([^/]+)$/.exec(url.pathname)?.[1];
    if (onboardingId && request.method === 'GET') {
      const link = accountLinks.get(onboardingId);
      if (!link) return notFoundPage(response);
      // The seller fills Stripe's forms: onboarding completes and Stripe sends them back.
      enableAccount(link._account as string);
      response.writeHead(303, { location: String(link._returnUrl) }).end();
      return true;
    }
    if (checkoutId && request.method === 'GET') {
      const session = sessions.get(checkoutId);
      if (!session) return notFoundPage(response);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>
<a href="${String(session.cancel_url ?? '/')}">Cancel</a>`,
      );
      return true;
    }
    if (payId && request.method === 'POST') {
      const session = sessions.get(payId);
      if (!session) return notFoundPage(response);
      if (session.status === 'open') completeCheckout(session.id);
      const location = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id);
      response.writeHead(303, { location }).end();
      return true;
    }
    if (/^\/portal\/[^/]+$/.test(url.pathname) && request.method === 'GET') {
      const session = [...portalSessions.values()].find((entry) => entry.url === `${baseUrl}${url.pathname}`);
      if (!session) return notFoundPage(response);
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><title>Fake Stripe billing portal</title><h1>Billing portal</h1><a href="${String(session.return_url)}">Return</a>`,
        );
      return true;
    }
    return false;
  }

  function notFoundPage(response: ServerResponse): true {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return true;
  }

  const server = createServer((request, response) => {
    readRequest(request, baseUrl)
      .then(({ url, body }) => {
        if (page(request, response, url)) return;
        const params = { ...parseStripeForm(url.search.slice(1)), ...parseStripeForm(body) };
        const method = request.method ?? 'GET';
        requests.push({ method, path: url.pathname, params });
        const accountHeader = request.headers['stripe-account'];
        requestAccount = typeof accountHeader === 'string' && accountHeader !== '' ? accountHeader : undefined;
        if (request.headers.authorization !== `Bearer ${secretKey}`) {
          throw new StripeApiError(401, {
            type: 'invalid_request_error',
            message: 'Invalid API Key provided.',
          });
        }
        const answer = route(method, url.pathname, params);
        sendJson(response, 200, answer);
      })
      .catch((error: Error) => {
        if (error instanceof StripeApiError) return sendJson(response, error.status, { error: error.body });
        sendJson(response, 500, { error: { type: 'api_error', message: error.message } });
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function signatureHeader(payload: string, signOptions: { secret?: string; timestamp?: number } = {}): string {
    // The timestamp is the real time: Stripe's library compares it with its own clock (five minutes' tolerance).
    const timestamp = signOptions.timestamp ?? Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', signOptions.secret ?? webhookSecret)
      .update(`${timestamp}.${payload}`)
      .digest('hex');
    return `t=${timestamp},v1=${signature}`;
  }

  return {
    url: baseUrl,
    secretKey,
    webhookSecret,
    env: () => ({
      STRIPE_TEST_SECRET_KEY: secretKey,
      STRIPE_TEST_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: baseUrl,
    }),
    requests,
    accounts,
    charges,
    disputes,
    enableAccount,
    restrictAccount(accountId, reason) {
      const account = accounts.get(accountId);
      if (!account) throw missing('account', accountId);
      Object.assign(account, {
        charges_enabled: false,
        payouts_enabled: false,
        requirements: { currently_due: ['individual.verification.document'], disabled_reason: reason },
      });
      return clone(account);
    },
    renewSubscription: (subscriptionId) => startNextPeriod(subscriptionId, 'active', 'paid'),
    failRenewal: (subscriptionId, status = 'past_due') => startNextPeriod(subscriptionId, status, 'open'),
    refundCharge(chargeId) {
      const charge = charges.get(chargeId);
      if (!charge) throw missing('charge', chargeId);
      Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
      return present(charge);
    },
    disputeCharge(chargeId, status) {
      const charge = charges.get(chargeId);
      if (!charge) throw missing('charge', chargeId);
      charge.disputed = true;
      const existing = [...disputes.values()].find((dispute) => dispute.charge === chargeId);
      const dispute: StripeObject = existing ?? {
        id: newId('dp'),
        object: 'dispute',
        charge: chargeId,
        payment_intent: charge.payment_intent,
        amount: charge.amount,
        currency: charge.currency,
        reason: 'fraudulent',
        created: nowSeconds(),
        livemode: false,
        _account: charge._account,
      };
      dispute.status = status;
      disputes.set(dispute.id, dispute);
      return present(dispute);
    },
    chargeFor(paymentIntentId) {
      const charge = [...charges.values()].find((entry) => entry.payment_intent === paymentIntentId);
      return charge ? present(charge) : undefined;
    },
    customers,
    products,
    prices,
    sessions,
    subscriptions,
    invoices,
    portalSessions,
    completeCheckout,
    failPayment(subscriptionId) {
      const subscription = get(subscriptions, 'subscription', subscriptionId);
      subscription.status = 'past_due';
      const invoice = newInvoice(subscription, 'open');
      return { invoice: clone(invoice), subscription: clone(subscription) };
    },
    endSubscription(subscriptionId) {
      const subscription = get(subscriptions, 'subscription', subscriptionId);
      subscription.status = 'canceled';
      subscription.ended_at = nowSeconds();
      subscription.canceled_at ??= nowSeconds();
      return clone(subscription);
    },
    event(type, object, eventOptions = {}) {
      return {
        id: eventOptions.id ?? newId('evt'),
        object: 'event',
        api_version: API_VERSION,
        created: nowSeconds(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        ...(eventOptions.account ? { account: eventOptions.account } : {}),
        type,
        data: { object: present(object) },
      };
    },
    signatureHeader,
    async deliver(endpoint, event, deliverOptions = {}) {
      const payload = JSON.stringify(event, null, 2);
      return fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': deliverOptions.signature ?? signatureHeader(payload, deliverOptions),
        },
        body: payload,
      });
    },
    close: () => closeServer(server),
  };
}
