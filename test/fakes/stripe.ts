import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake Stripe shaped like its public REST API (docs.stripe.com/api) for what Packgate calls: customers,
// products, prices (lookup keys, list by product), Checkout Sessions, subscriptions (retrieve, update, cancel) and
// billing portal sessions. Requests are form-encoded with bracketed keys (`line_items[0][price]`), answers are
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
  /** Pays an open Checkout Session as the customer would: the subscription starts, the session completes. */
  completeCheckout(
    sessionId: string,
    options?: { paymentStatus?: 'paid' | 'unpaid' },
  ): { session: StripeObject; subscription: StripeObject; invoice: StripeObject };
  /** A renewal payment fails: the subscription turns past_due; answers the failed invoice. */
  failPayment(subscriptionId: string): { invoice: StripeObject; subscription: StripeObject };
  /** Ends a subscription as Stripe does at the end of a cancelled period (status canceled). */
  endSubscription(subscriptionId: string): StripeObject;
  /** An event as Stripe would send it about `object` (a copy of its current state). */
  event(type: string, object: StripeObject, options?: { id?: string }): FakeStripeEvent;
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
  let baseUrl = '';

  const list = (url: string, data: StripeObject[]) => ({ object: 'list', data, has_more: false, url });
  const clone = <T>(value: T): T => structuredClone(value);
  const metadataOf = (value: unknown) => (value && typeof value === 'object' ? (value as Record<string, string>) : {});
  const get = <T extends StripeObject>(map: Map<string, T>, kind: string, id: string): T => {
    const found = map.get(id);
    if (!found) throw missing(kind, id);
    return found;
  };

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

  function createCheckoutSession(params: Record<string, unknown>): StripeObject {
    if (params.mode !== 'subscription') throw invalid('Only subscription mode is faked.', 'mode');
    const lineItems = (params.line_items as Array<{ price?: string; quantity?: string }>) ?? [];
    if (lineItems.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    for (const item of lineItems) {
      const price = get(prices, 'price', item.price ?? '');
      if (!price.recurring) throw invalid('Subscription mode needs recurring prices.', 'line_items');
    }
    if (!params.success_url) throw invalid('Missing required param: success_url.', 'success_url');
    if (params.customer) get(customers, 'customer', params.customer as string);
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
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
    };
    sessions.set(id, session);
    return session;
  }

  /** What the API answers for a session: without the fake's own bookkeeping. */
  function presentSession(session: StripeObject): StripeObject {
    const { _lineItems, _subscriptionMetadata, ...visible } = session;
    return clone(visible as StripeObject);
  }

  function newInvoice(subscription: StripeObject, status: 'paid' | 'open'): StripeObject {
    const item = itemsOf(subscription)[0]!;
    const price = item.price as StripeObject;
    const invoice: StripeObject = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status,
      amount_due: price.unit_amount,
      amount_paid: status === 'paid' ? price.unit_amount : 0,
      currency: price.currency,
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
      current_period_end: start + MONTH_SECONDS,
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
    const session = get(sessions, 'checkout session', sessionId);
    if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}`);
    const customerId =
      (session.customer as string | null) ?? createCustomer({ email: session.customer_email ?? undefined }).id;
    const id = newId('sub');
    const lineItems = session._lineItems as Array<{ price: string }>;
    const paid = (options.paymentStatus ?? 'paid') === 'paid';
    const subscription: StripeObject = {
      id,
      object: 'subscription',
      customer: customerId,
      status: paid ? 'active' : 'incomplete',
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
    subscriptions.set(id, subscription);
    const invoice = newInvoice(subscription, paid ? 'paid' : 'open');
    Object.assign(session, {
      status: 'complete',
      payment_status: paid ? 'paid' : 'unpaid',
      customer: customerId,
      subscription: id,
      invoice: invoice.id,
    });
    return { session: presentSession(session), subscription: clone(subscription), invoice: clone(invoice) };
  }

  function route(method: string, path: string, params: Record<string, unknown>): unknown {
    // The id in `/v1/{collection}/{id}` paths, when the path is one.
    const idIn = (collection: string) => new RegExp(`^/v1/${collection}/([^/]+)$`).exec(path)?.[1];
    const customerId = idIn('customers');
    const productId = idIn('products');
    const priceId = idIn('prices');
    const sessionId = idIn('checkout/sessions');
    const subscriptionId = idIn('subscriptions');

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
    if (subscriptionId && method === 'GET') return get(subscriptions, 'subscription', subscriptionId);
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
    readBody(request)
      .then((body) => {
        const url = new URL(request.url ?? '/', baseUrl);
        if (page(request, response, url)) return;
        const params = { ...parseStripeForm(url.search.slice(1)), ...parseStripeForm(body) };
        const method = request.method ?? 'GET';
        requests.push({ method, path: url.pathname, params });
        if (request.headers.authorization !== `Bearer ${secretKey}`) {
          throw new StripeApiError(401, {
            type: 'invalid_request_error',
            message: 'Invalid API Key provided.',
          });
        }
        const answer = route(method, url.pathname, params);
        json(response, 200, answer);
      })
      .catch((error: Error) => {
        if (error instanceof StripeApiError) return json(response, error.status, { error: error.body });
        json(response, 500, { error: { type: 'api_error', message: error.message } });
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
        type,
        data: { object: clone(object) },
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
