import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPackage, requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import { type FakeDns, startFakeDns } from '../../../../test/fakes/dns.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../test/fakes/webhook-receiver.js';
import { createPackageRepository } from '../../../../test/support/git-fixtures.js';
import { callApiV1 } from '../../../../test/support/http-client.js';
import { readOutbox } from '../../../../test/support/outbox.js';
import { giveActivePlan, waitForSync } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../../../contract/webhooks.js';
import { webhookMessages } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { setPurchaseGrantTerms } from '../licenses/grants.service.js';
import {
  WEBHOOK_EXPIRY_SCAN_INTERVAL_MS,
  WEBHOOK_EXPIRY_SCAN_JOB,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
} from './webhook-delivery.js';

// Webhooks to the seller's systems (issue 14) over the real app and database: a receiver on loopback (allowed by
// WEBHOOK_ALLOWED_HOSTS) checks every request with the standardwebhooks reference library; DNS is a fake server
// (DNS_SERVERS). Retries are driven by moving the app's clock past each wait, never by waiting for it.

const clock = new TestClock(new Date('2026-03-01T12:00:00Z'));
let app: TestApp;
let dns: FakeDns;
let seller: SignedIn;
let token: string;
const receivers: WebhookReceiver[] = [];

const v1 = (method: string, pathname: string, body?: unknown) =>
  callApiV1(app.baseUrl, token, method, `/api/v1${pathname}`, body);

/** The Webhooks page's API (session + CSRF): the same service, without API v1's per-token rate limit. */
async function page(method: string, pathname: string, body?: unknown) {
  const response = await seller.client.request(method, `/api${pathname}`, { body });
  // biome-ignore lint/suspicious/noExplicitAny: answers of many endpoints, read field by field
  const json = (await response.json()) as any;
  return { status: response.status, body: json };
}

/** A token per test: API v1 allows 30 requests a minute per token. */
async function newToken(): Promise<string> {
  const created = await seller.client.post('/api/developer/tokens', { name: 'shop', permissions: ['*'] });
  return ((await created.json()) as CreatedApiToken).token;
}

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver({ now: () => app.clock.now() });
  receivers.push(started);
  return started;
}

async function register(target: WebhookReceiver, events: string[]): Promise<WebhookEndpointWithSecret> {
  const created = await v1('POST', '/webhooks', { url: target.url, events, description: 'shop' });
  expect(created.status).toBe(201);
  target.secret = created.body.data.secret;
  return created.body.data;
}

async function deliveries(endpointId: string): Promise<WebhookDelivery[]> {
  const listed = await page('GET', `/webhooks/${endpointId}/deliveries`);
  expect(listed.status).toBe(200);
  return listed.body;
}

/** Polls the endpoint's deliveries until `isDone` holds; throws at the bound. */
async function untilDeliveries(
  endpointId: string,
  isDone: (list: WebhookDelivery[]) => boolean,
  what: string,
): Promise<WebhookDelivery[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const list = await deliveries(endpointId);
    if (isDone(list)) return list;
    if (Date.now() > deadline) throw new Error(`deliveries never ${what}: ${JSON.stringify(list)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls until `find` answers something; throws at the bound. */
async function until<T>(find: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('never found');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function issueLicense(packageId: string, email: string, extra: Record<string, unknown> = {}) {
  const issued = await v1('POST', '/licenses', { packageId, email, sendEmail: false, ...extra });
  expect(issued.status).toBe(201);
  return issued.body.data.license as { id: string };
}

let widgetId: string;

beforeAll(async () => {
  dns = await startFakeDns();
  app = await startTestApp({
    clock,
    env: {
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      DNS_SERVERS: dns.server,
      ...YEAR_LONG_SESSIONS,
    },
    jobTimings: { pollMs: 20 },
  });
  seller = await signInSeller(app, { slug: 'acme' });
  // A paying seller: the clock moves past a trial's end here.
  await giveActivePlan(app, seller.user.id, new Date('2028-03-01T00:00:00Z'));
  widgetId = (
    await createPackage(app, seller.user, 'acme/widget', [{ version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' }])
  ).id;
});

beforeEach(async () => {
  token = await newToken();
});

afterAll(async () => {
  for (const started of receivers) await started.close();
  await app?.close();
  await dns?.close();
});

describe('webhook endpoints', () => {
  it('registers an endpoint through API v1 and shows its whsec_ secret once', async () => {
    const target = await receiver();
    const endpoint = await register(target, ['license.created']);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url: target.url, events: ['license.created'], isEnabled: true });

    const listed = await v1('GET', '/webhooks');
    const found = (listed.body.data as WebhookEndpoint[]).find((each) => each.id === endpoint.id);
    expect(found).toBeDefined();
    expect(found).not.toHaveProperty('secret');

    const rotated = await v1('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);
    expect((await v1('DELETE', `/webhooks/${endpoint.id}`)).status).toBe(200);
    expect((await v1('GET', `/webhooks/${endpoint.id}`)).status).toBe(404);
    const trail = (await v1('GET', '/audit-events')).body.data as { action: string; targetId: string }[];
    expect(
      trail
        .filter((event) => event.targetId === endpoint.id)
        .map((event) => event.action)
        .sort(),
    ).toEqual(['webhook.created', 'webhook.deleted', 'webhook.secret_rotated']);
  });

  it('refuses private, loopback, link-local and non-http targets at registration, also behind DNS', async () => {
    dns.records.set('intranet.example.test', { a: '10.0.0.7' });
    dns.records.set('metadata.example.test', { a: '169.254.169.254' });
    const refused = [
      'http://10.1.2.3/hook',
      'http://192.168.1.1/hook',
      'http://172.16.0.1/hook',
      'http://127.0.0.2/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/hook',
      'http://224.0.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::1]/hook',
      'http://[fc00::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:10.0.0.1]/hook',
      'http://intranet.example.test/hook',
      'http://metadata.example.test/hook',
    ];
    for (const url of refused) {
      const answer = await page('POST', '/webhooks', { url, events: ['license.created'] });
      expect({ url, status: answer.status, message: answer.body.message }).toEqual({
        url,
        status: 400,
        message: 'The webhook URL must point to a public internet address',
      });
    }
    const ftp = await v1('POST', '/webhooks', { url: 'ftp://example.com/x', events: ['license.created'] });
    expect(ftp.body.message).toBe('The webhook URL must start with https:// or http://');
    const withPassword = await v1('POST', '/webhooks', { url: 'http://a:b@127.0.0.1/x', events: ['license.created'] });
    expect(withPassword.body.message).toBe('The webhook URL must not contain a user name or password');
    const unknownHost = await v1('POST', '/webhooks', {
      url: 'http://nowhere.example.test/',
      events: ['license.created'],
    });
    expect(unknownHost.body.message).toBe('The webhook URL’s host name could not be resolved');
    const noEvents = await v1('POST', '/webhooks', { url: 'http://127.0.0.1/x', events: [] });
    expect(noEvents.status).toBe(400);
  });

  it('works on the Webhooks page with the session and its CSRF token, and keeps to the limit', async () => {
    const other = await signInSeller(app);
    const target = await receiver();
    const page = await other.client.post('/api/webhooks', { url: target.url, events: ['license.revoked'] });
    expect(page.status).toBe(201);
    const withoutCsrf = await other.client.request('POST', '/api/webhooks', {
      body: { url: target.url, events: ['license.revoked'] },
      csrf: false,
    });
    expect(withoutCsrf.status).toBe(403);
    for (let n = 1; n < 10; n++) {
      expect((await other.client.post('/api/webhooks', { url: target.url, events: ['license.revoked'] })).status).toBe(
        201,
      );
    }
    const eleventh = await other.client.post('/api/webhooks', { url: target.url, events: ['license.revoked'] });
    expect(eleventh.status).toBe(409);
    expect(((await eleventh.json()) as { message: string }).message).toBe(
      'You can register up to 10 webhook endpoints.',
    );
    // Another seller's endpoints are not found through this seller's token.
    const listed = (await (await other.client.get('/api/webhooks')).json()) as WebhookEndpoint[];
    expect((await v1('GET', `/webhooks/${listed[0]!.id}`)).status).toBe(404);
  });
});

describe('deliveries', () => {
  it('delivers license.created signed by the Standard Webhooks scheme, retries after 500s, and has one effect per webhook-id', async () => {
    const target = await receiver();
    const endpoint = await register(target, ['license.created']);
    target.answers.push(500, 500);

    const license = await issueLicense(widgetId, 'retry@example.com');
    await target.waitForRequests(1);
    await untilDeliveries(
      endpoint.id,
      (list) => list[0]?.attempts.length === 1 && list[0].nextAttemptAt !== null,
      'failed once',
    );

    clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]);
    app.ctx.jobs.wake();
    await target.waitForRequests(2);
    await untilDeliveries(
      endpoint.id,
      (list) => list[0]?.attempts.length === 2 && list[0].nextAttemptAt !== null,
      'failed twice',
    );

    clock.advance(WEBHOOK_RETRY_DELAYS_MS[1]);
    app.ctx.jobs.wake();
    const [delivered] = await untilDeliveries(endpoint.id, (list) => list[0]?.status === 'delivered', 'delivered');

    expect(target.received.map((each) => [each.isVerified, each.answeredStatus])).toEqual([
      [true, 500],
      [true, 500],
      [true, 200],
    ]);
    // Every attempt carries the same webhook-id, each its own timestamp.
    expect(new Set(target.received.map((each) => each.id)).size).toBe(1);
    expect(target.received[0]!.id).toBe(delivered!.id);
    expect(target.received[2]!.timestamp - target.received[0]!.timestamp).toBe(
      (WEBHOOK_RETRY_DELAYS_MS[0] + WEBHOOK_RETRY_DELAYS_MS[1]) / 1000,
    );
    expect(target.received[0]!.event).toMatchObject({
      type: 'license.created',
      data: { id: license.id, email: 'retry@example.com', packageName: 'acme/widget', status: 'active' },
    });
    expect(delivered!.attempts.map((attempt) => [attempt.responseStatus, attempt.isSuccess])).toEqual([
      [500, false],
      [500, false],
      [200, true],
    ]);
    expect(delivered!.attempts.every((attempt) => attempt.durationMs >= 0)).toBe(true);
    expect(delivered!.attempts[0]!.error).toBe('Answered 500');

    // A redelivery arrives with the same webhook-id: the receiver applies its effect once.
    const again = await v1('POST', `/webhooks/${endpoint.id}/deliveries/${delivered!.id}/redeliver`);
    expect(again.status).toBe(200);
    await target.waitForRequests(4);
    expect(target.received[3]!.id).toBe(delivered!.id);
    expect(target.received[3]!.isVerified).toBe(true);
    expect([...target.effects.values()]).toEqual([1]);
    const after = await untilDeliveries(endpoint.id, (list) => list[0]?.attempts.length === 4, 'redelivered');
    expect(after[0]!.attempts.find((attempt) => attempt.trigger === 'redelivery')).toMatchObject({
      responseStatus: 200,
      isSuccess: true,
    });
  });

  it('sends a test event and stops signing with a rotated-out secret', async () => {
    const target = await receiver();
    const endpoint = await register(target, ['purchase.completed']);
    const test = await v1('POST', `/webhooks/${endpoint.id}/test`);
    expect(test.status).toBe(200);
    const [first] = await target.waitForRequests(1);
    expect(first!.isVerified).toBe(true);
    expect(first!.event).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id } });

    const rotated = await v1('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    const oldSecret = target.secret;
    await v1('POST', `/webhooks/${endpoint.id}/test`);
    await target.waitForRequests(2);
    expect(target.received[1]!.isVerified).toBe(false);
    target.secret = rotated.body.data.secret;
    expect(oldSecret).not.toBe(target.secret);
    await v1('POST', `/webhooks/${endpoint.id}/test`);
    await target.waitForRequests(3);
    expect(target.received[2]!.isVerified).toBe(true);
  });

  it('refuses a target whose name resolves to a private address at delivery time, and sends nothing there', async () => {
    const target = await receiver();
    const port = new URL(target.url).port;
    // At registration the name answers the allowed loopback address; by the delivery it answers a private one.
    dns.records.set('rebind.example.test', { a: '127.0.0.1' });
    const created = await v1('POST', '/webhooks', {
      url: `http://rebind.example.test:${port}/hooks`,
      events: ['license.created'],
    });
    expect(created.status).toBe(201);
    dns.records.set('rebind.example.test', { a: '10.0.0.7' });

    await v1('POST', `/webhooks/${created.body.data.id}/test`);
    const [delivery] = await untilDeliveries(created.body.data.id, (list) => list[0]?.status === 'failed', 'failed');
    expect(delivery!.attempts).toMatchObject([
      { responseStatus: null, isSuccess: false, error: 'The webhook URL must point to a public internet address' },
    ]);
    expect(target.received).toEqual([]);
  });

  it('disables an endpoint after three days of failures and tells the seller by e-mail', async () => {
    const target = await receiver();
    const endpoint = await register(target, ['license.revoked']);
    target.answers.push(...Array(WEBHOOK_MAX_ATTEMPTS).fill(503));
    const license = await issueLicense(widgetId, 'failing@example.com');
    expect((await v1('DELETE', `/licenses/${license.id}`)).status).toBe(200);

    let waited = 0;
    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
      await target.waitForRequests(attempt);
      if (attempt === WEBHOOK_MAX_ATTEMPTS) break;
      await untilDeliveries(
        endpoint.id,
        (list) => list[0]?.attempts.length === attempt && list[0].nextAttemptAt !== null,
        `failed ${attempt} times`,
      );
      const delay = WEBHOOK_RETRY_DELAYS_MS[attempt - 1]!;
      waited += delay;
      clock.advance(delay);
      app.ctx.jobs.wake();
    }
    expect(waited).toBeGreaterThanOrEqual(3 * DAY_MS - 2 * 60 * 60 * 1000);
    const [failed] = await untilDeliveries(endpoint.id, (list) => list[0]?.status === 'failed', 'failed for good');
    expect(failed!.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(target.received.every((each) => each.event.type === 'license.revoked')).toBe(true);

    const deadline = Date.now() + 20_000;
    const shownNow = async () =>
      ((await page('GET', '/webhooks')).body as WebhookEndpoint[]).find((each) => each.id === endpoint.id)!;
    let shown = await shownNow();
    while (shown.isEnabled && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      shown = await shownNow();
    }
    expect(shown).toMatchObject({ isEnabled: false, disabledReason: 'failing' });
    const mailDeadline = Date.now() + 20_000;
    // Other endpoints that listen to the license events of this test fail too (the rebinding one): find this one's.
    const findMail = () =>
      readOutbox(app.dataDir).find(
        (each) => each.subject === 'Webhook endpoint disabled' && each.body.includes(target.url),
      );
    while (!findMail() && Date.now() < mailDeadline) await new Promise((resolve) => setTimeout(resolve, 25));
    const mail = findMail();
    expect(mail?.to).toContain(seller.user.email!);
    expect(mail?.body).toContain(target.url);

    // Disabled: no more events; enabled again: they flow.
    const testWhileDisabled = await v1('POST', `/webhooks/${endpoint.id}/test`);
    expect(testWhileDisabled.status).toBe(409);
    const enabled = await v1('PATCH', `/webhooks/${endpoint.id}`, { isEnabled: true });
    expect(enabled.body.data).toMatchObject({ isEnabled: true, disabledReason: null });
  });
});

describe('events from their real triggers', () => {
  let target: WebhookReceiver;
  const consumed = new Set<string>();

  /** The first event of this type not looked at yet (deliveries run side by side and may arrive in any order). */
  async function next(type: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = target.received.find((each) => each.event.type === type && !consumed.has(each.id));
      if (found) {
        consumed.add(found.id);
        expect(found.isVerified).toBe(true);
        return found.event;
      }
      if (Date.now() > deadline) {
        throw new Error(`no ${type} arrived; got ${target.received.map((each) => each.event.type).join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeAll(async () => {
    token = await newToken();
    target = await receiver();
    await register(target, [...WEBHOOK_EVENT_TYPES]);
  });

  it('sends license.created, license.updated and license.revoked from API v1 and the Management page', async () => {
    const license = await issueLicense(widgetId, 'events@example.com');
    expect((await next('license.created')).data).toMatchObject({ id: license.id, email: 'events@example.com' });
    await v1('PATCH', `/licenses/${license.id}`, { note: 'priority support' });
    expect((await next('license.updated')).data).toMatchObject({ id: license.id, status: 'active' });
    await v1('DELETE', `/licenses/${license.id}`);
    expect((await next('license.revoked')).data).toMatchObject({ id: license.id, status: 'revoked' });

    const trial = await seller.client.post(`/api/repositories/${widgetId}/temporary-licenses`, {
      email: 'trial@example.com',
      durationDays: 7,
    });
    expect(trial.status).toBe(201);
    const trialLicense = (await trial.json()) as { id: string };
    expect((await next('license.created')).data).toMatchObject({ kind: 'temporary', email: 'trial@example.com' });
    await seller.client.delete(`/api/repositories/${widgetId}/temporary-licenses/${trialLicense.id}`);
    expect((await next('license.revoked')).data).toMatchObject({ id: trialLicense.id });
  });

  it('sends license.expired once when the expiry scan passes a license’s expiry', async () => {
    const expiresAt = new Date(clock.now().getTime() + DAY_MS);
    const license = await issueLicense(widgetId, 'expiring@example.com', { expiresAt: expiresAt.toISOString() });
    await next('license.created');
    clock.advance(DAY_MS + WEBHOOK_EXPIRY_SCAN_INTERVAL_MS);
    app.ctx.jobs.wake();
    expect((await next('license.expired')).data).toMatchObject({ id: license.id, expiresAt: expiresAt.toISOString() });
    // Later scans (two of them, each awaited) do not announce it again.
    for (let scan = 0; scan < 2; scan++) {
      const queued = await until(() => app.ctx.jobs.findQueued(WEBHOOK_EXPIRY_SCAN_JOB, WEBHOOK_EXPIRY_SCAN_JOB));
      clock.advance(WEBHOOK_EXPIRY_SCAN_INTERVAL_MS);
      app.ctx.jobs.wake();
      expect((await app.ctx.jobs.waitFor(queued.id, 20_000)).status).toBe('completed');
    }
    const messages = await app.ctx.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.eventType, 'license.expired'));
    expect(messages).toHaveLength(1);
  });

  it('sends download.limit_reached when a download uses the last one the limit allows', async () => {
    const created = await v1('POST', '/licenses', {
      packageId: widgetId,
      email: 'limited@example.com',
      downloadLimit: 2,
      sendEmail: false,
    });
    await next('license.created');
    const composerToken = created.body.data.composerToken as string;
    for (let n = 0; n < 2; n++) {
      const download = await requestOnHost(
        app,
        'acme.composer.localhost',
        '/api/composer/download/acme/widget/v1.0.0',
        {
          token: composerToken,
        },
      );
      expect(download.status).toBe(200);
    }
    expect((await next('download.limit_reached')).data).toMatchObject({
      id: created.body.data.license.id,
      downloadLimit: 2,
      downloadCount: 2,
    });
  });

  it('sends purchase.completed for a test purchase, after the license it creates', async () => {
    const tiers = await seller.client.put(`/api/repositories/${widgetId}/pricing-tiers`, {
      tiers: [{ name: 'Lifetime', pricingType: 'one_time', updateMonths: 12, priceCents: 4900, currency: 'usd' }],
    });
    expect(tiers.status).toBe(200);
    const [tier] = (await tiers.json()) as { id: string }[];
    // Billing is off: the seller's own test purchase (buyers cannot check out).
    const started = await seller.client.post(`/api/repositories/${widgetId}/test-purchase`, {
      tierId: tier!.id,
      email: 'buyer@example.com',
    });
    expect(started.status).toBe(200);
    const checkoutUrl = new URL(((await started.json()) as { checkoutUrl: string }).checkoutUrl);
    await requestOnHost(
      app,
      'acme.composer.localhost',
      `/api/purchase/sessions/${encodeURIComponent(checkoutUrl.searchParams.get('session_id')!)}`,
    );
    const purchased = (await next('license.created')).data;
    expect(purchased).toMatchObject({ kind: 'purchase', email: 'buyer@example.com' });
    expect((await next('purchase.completed')).data).toMatchObject({
      packageId: widgetId,
      tierName: 'Lifetime',
      amountCents: 4900,
      email: 'buyer@example.com',
      isTest: true,
    });
    // A refund ends the purchase grant as the Connect webhook applies it.
    await setPurchaseGrantTerms(app.ctx, String(purchased.id), { status: 'revoked' });
    expect((await next('license.revoked')).data).toMatchObject({ id: purchased.id, kind: 'purchase' });
  });

  it('sends package.version_published for each version a sync makes installable', async () => {
    const reposDir = path.join(app.dataDir, 'repos');
    await createPackageRepository(path.join(reposDir, 'acme', 'gizmo.git'), {
      name: 'acme/gizmo',
      tags: ['v1.0.0'],
      bare: true,
    });
    const created = await v1('POST', '/packages', { githubRepoId: 'acme/gizmo.git', packageName: 'acme/gizmo' });
    expect(created.status).toBe(201);
    await waitForSync(app, created.body.data.id);
    const published = await next('package.version_published');
    expect(published.data).toMatchObject({ packageId: created.body.data.id, packageName: 'acme/gizmo' });
  });
});
