import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createProduct,
  createProductGrant,
  createSeller,
  type FixtureHolder,
  type FixturePackage,
  type RawResponse,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { mailsTo } from '../../../../test/support/outbox.js';
import { sellerRepositoryAroundTests } from '../../../../test/support/seller-repository.js';
import { createPortalSession, type TestUser } from '../../../../test/support/sessions.js';
import { type TestApp, testAppAroundTests } from '../../../../test/support/test-app.js';
import { SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS } from '../../../contract/auth-messages.js';
import {
  type PortalOverview,
  type PortalRotateTokenResponse,
  portalLinkSentMessage,
  portalMessages,
} from '../../../contract/portal.js';
import { auditEvents, brandSettings, sales } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { LINKS_PER_HOLDER } from './portal.service.js';

// The license holder's portal over HTTP, on sellers' hosts: sign-in by e-mailed link, tenancy, license states,
// token rotation. The test clock reads 2026-03-01 12:00.

const ACME_HOST = 'acme.composer.localhost';
const GLOBEX_HOST = 'globex.composer.localhost';
const APP_HOST = 'localhost';
const COOKIE = 'packgate_portal';

/** A browser on one host: keeps that host's cookies (as browsers do: host-only) and sends the CSRF token. */
class HostBrowser {
  private readonly cookies = new Map<string, string>();
  private csrf?: string;

  constructor(
    private readonly app: TestApp,
    readonly host: string,
  ) {}

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request(method: string, path: string, body?: unknown, options: { csrf?: boolean } = {}): Promise<RawResponse> {
    const headers: Record<string, string> = {};
    if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = await this.csrfToken();
    const response = await this.send(method, path, body, headers);
    return response;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await this.request(method, path, body);
    return { status: response.status, body: JSON.parse(response.body.toString('utf8')) as T };
  }

  private async csrfToken(): Promise<string> {
    if (!this.csrf) {
      const response = await this.send('GET', '/api/csrf-token');
      this.csrf = (JSON.parse(response.body.toString('utf8')) as { csrfToken: string }).csrfToken;
    }
    return this.csrf;
  }

  private async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await requestOnHost(this.app, this.host, path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers['set-cookie'] ?? [];
    for (const header of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const [pair = ''] = header.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

function errorOf(response: RawResponse): { code: string; message: string; status: number } {
  return JSON.parse(response.body.toString('utf8'));
}

const repository = sellerRepositoryAroundTests('acme');
let globex: TestUser;
let widget: FixturePackage;
let gadget: FixturePackage;
let globexTool: FixturePackage;

beforeAll(async () => {
  globex = await createSeller(repository.app, 'globex');
  await repository.app.ctx.db
    .insert(brandSettings)
    .values({ userId: repository.seller.id, brandName: 'Acme Tools', supportEmail: 'help@acme.test' });
  widget = await createPackage(repository.app, repository.seller, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-02-20T10:00:00Z' },
    { version: 'v2.0.0', releasedAt: '2026-02-27T10:00:00Z' },
    { version: 'dev-main', kind: 'branch', releasedAt: '2026-02-25T10:00:00Z' },
  ]);
  gadget = await createPackage(repository.app, repository.seller, 'acme/gadget', [
    { version: 'v3.0.0', releasedAt: '2026-01-05T10:00:00Z' },
  ]);
  globexTool = await createPackage(repository.app, globex, 'globex/tool', [
    { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
  ]);
});

let holderCounter = 0;
async function holderOf(seller: TestUser, email = `holder-${++holderCounter}@example.com`): Promise<FixtureHolder> {
  return createHolder(repository.app, seller, email);
}

/** A portal session made in the database, as sign-in makes it, in a browser on the given host. */
async function signedInBrowser(holder: FixtureHolder, host: string): Promise<HostBrowser> {
  const cookie = await createPortalSession(repository.app, holder.id);
  const browser = new HostBrowser(repository.app, host);
  browser.setCookie(COOKIE, cookie);
  return browser;
}

function portalLinkIn(body: string): string {
  const match = /http:\/\/[^\s"<>]+\/portal\?token=[A-Za-z0-9_%-]+/.exec(body);
  if (!match) throw new Error(`No portal link in:\n${body}`);
  return match[0];
}

describe('signing in by e-mailed link', () => {
  it('e-mails a link to this seller host that signs the holder in once, with a host-only session cookie', async () => {
    const holder = await holderOf(repository.seller);
    await createGrant(repository.app, holder, widget);
    const browser = new HostBrowser(repository.app, ACME_HOST);
    const asked = await browser.json<{ message: string }>('POST', '/api/portal/sign-in', { email: holder.email });
    expect(asked).toEqual({ status: 200, body: { message: portalLinkSentMessage(holder.email) } });

    const [mail] = mailsTo(repository.app.dataDir, holder.email);
    expect(mail?.subject).toBe('Sign in to your Acme Tools licenses');
    expect(mail?.body).toContain('help@acme.test');
    const link = new URL(portalLinkIn(mail!.body));
    expect(link.host).toBe(`${ACME_HOST}:${repository.app.port}`);
    const token = link.searchParams.get('token')!;

    const verified = await browser.request('POST', '/api/portal/sign-in/verify', { token });
    expect(verified.status).toBe(200);
    const setCookie = String(verified.headers['set-cookie']);
    expect(setCookie).toMatch(/^packgate_portal=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(await browser.json('GET', '/api/portal/session')).toEqual({ status: 200, body: { email: holder.email } });

    const again = await new HostBrowser(repository.app, ACME_HOST).request('POST', '/api/portal/sign-in/verify', {
      token,
    });
    expect(again.status).toBe(400);
    expect(errorOf(again)).toMatchObject({ code: 'BAD_REQUEST', message: portalMessages.linkUsed });
  });

  it('answers an address without a license exactly as one with a license, and sends it nothing', async () => {
    const holder = await holderOf(repository.seller);
    const browser = new HostBrowser(repository.app, ACME_HOST);
    const known = await browser.request('POST', '/api/portal/sign-in', { email: holder.email });
    const unknown = await browser.request('POST', '/api/portal/sign-in', { email: 'nobody@example.com' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body.toString()).toBe(known.body.toString().replace(holder.email, 'nobody@example.com'));
    expect(mailsTo(repository.app.dataDir, 'nobody@example.com')).toEqual([]);
    // A holder of another seller only is nobody on this host.
    const globexOnly = await holderOf(globex);
    const other = await browser.json('POST', '/api/portal/sign-in', { email: globexOnly.email });
    expect(other.body).toEqual({ message: portalLinkSentMessage(globexOnly.email) });
    expect(mailsTo(repository.app.dataDir, globexOnly.email)).toEqual([]);
  });

  it('refuses a link after 30 minutes', async () => {
    const holder = await holderOf(repository.seller);
    const browser = new HostBrowser(repository.app, ACME_HOST);
    await browser.request('POST', '/api/portal/sign-in', { email: holder.email });
    const token = new URL(portalLinkIn(mailsTo(repository.app.dataDir, holder.email)[0]!.body)).searchParams.get(
      'token',
    )!;
    repository.app.clock.advance(30 * 60_000 + 1);
    try {
      const late = await browser.request('POST', '/api/portal/sign-in/verify', { token });
      expect(late.status).toBe(400);
      expect(errorOf(late)).toMatchObject({ code: 'BAD_REQUEST', message: portalMessages.linkExpired });
    } finally {
      repository.app.clock.set('2026-03-01T12:00:00Z');
    }
  });

  it("does not accept one seller's link on another seller's host, and leaves it usable on its own", async () => {
    const holder = await holderOf(repository.seller);
    await new HostBrowser(repository.app, ACME_HOST).request('POST', '/api/portal/sign-in', { email: holder.email });
    const token = new URL(portalLinkIn(mailsTo(repository.app.dataDir, holder.email)[0]!.body)).searchParams.get(
      'token',
    )!;
    const elsewhere = await new HostBrowser(repository.app, GLOBEX_HOST).request('POST', '/api/portal/sign-in/verify', {
      token,
    });
    expect(elsewhere.status).toBe(400);
    expect(errorOf(elsewhere)).toMatchObject({ code: 'BAD_REQUEST', message: portalMessages.linkInvalid });
    const home = await new HostBrowser(repository.app, ACME_HOST).request('POST', '/api/portal/sign-in/verify', {
      token,
    });
    expect(home.status).toBe(200);
  });
});

// The per-address limit of the sign-in route counts every request of this file's client; these get an app each.
describe('the per-holder limit', () => {
  const own = testAppAroundTests();

  it(`e-mails at most ${LINKS_PER_HOLDER} links per holder in 15 minutes, with the same answer after`, async () => {
    const seller = await createSeller(own.app, 'acme');
    const holder = await createHolder(own.app, seller, 'limited@example.com');
    const browser = new HostBrowser(own.app, ACME_HOST);
    for (let attempt = 0; attempt < LINKS_PER_HOLDER; attempt++) {
      const answer = await browser.json('POST', '/api/portal/sign-in', { email: holder.email });
      expect(answer).toEqual({ status: 200, body: { message: portalLinkSentMessage(holder.email) } });
    }
    const throttled = await browser.request('POST', '/api/portal/sign-in', { email: holder.email });
    expect(mailsTo(own.app.dataDir, holder.email)).toHaveLength(LINKS_PER_HOLDER);

    // Nothing was sent, and the answer is an unknown address's, word for word, saying why a link may not come.
    const unknown = await browser.request('POST', '/api/portal/sign-in', { email: 'stranger@example.com' });
    const answerOf = (response: typeof unknown, email: string) => ({
      status: response.status,
      type: response.headers['content-type'],
      text: response.body.toString().replaceAll(email, '{email}'),
    });
    expect(answerOf(throttled, holder.email)).toEqual(answerOf(unknown, 'stranger@example.com'));
    expect(JSON.parse(answerOf(throttled, holder.email).text)).toEqual({
      message:
        'If {email} holds a license here, a sign-in link is on its way. It works once, for 30 minutes. ' +
        'We send at most 5 links to one address in 15 minutes; if you asked more often, use a link you already have.',
    });
  });
});

describe('holders behind one address', () => {
  const own = testAppAroundTests();

  it('e-mails each of twelve holders in one office their link in the same minute', async () => {
    const seller = await createSeller(own.app, 'acme');
    const browser = new HostBrowser(own.app, ACME_HOST);
    for (let colleague = 1; colleague <= 12; colleague++) {
      const holder = await createHolder(own.app, seller, `colleague${colleague}@office.example`);
      expect((await browser.request('POST', '/api/portal/sign-in', { email: holder.email })).status).toBe(200);
      expect(mailsTo(own.app.dataDir, holder.email)).toHaveLength(1);
    }
  });

  it(`answers 429 past ${SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS} sign-in requests from one address in 15 minutes`, async () => {
    const browser = new HostBrowser(own.app, ACME_HOST);
    // The previous test asked 12 times from this address.
    for (let asked = 12; asked < SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS; asked++) {
      const answer = await browser.request('POST', '/api/portal/sign-in', { email: `probe${asked}@example.com` });
      expect(answer.status).toBe(200);
    }
    const refused = await browser.request('POST', '/api/portal/sign-in', { email: 'probe-last@example.com' });
    expect(refused.status).toBe(429);
  });
});

describe('bad input', () => {
  const own = sellerRepositoryAroundTests('acme');

  it('names the problem with a code', async () => {
    const browser = new HostBrowser(own.app, ACME_HOST);
    const missing = await browser.request('POST', '/api/portal/sign-in', {});
    expect(missing.status).toBe(400);
    expect(errorOf(missing)).toMatchObject({ code: 'VALIDATION_FAILED', message: portalMessages.emailRequired });
    const malformed = await browser.request('POST', '/api/portal/sign-in', { email: 'not-an-address' });
    expect(errorOf(malformed)).toMatchObject({ code: 'VALIDATION_FAILED', message: portalMessages.emailInvalid });
    const wrongType = await browser.request('POST', '/api/portal/sign-in', { email: 42 });
    expect(wrongType.status).toBe(400);
    expect(errorOf(wrongType).code).toBe('VALIDATION_FAILED');
    const noToken = await browser.request('POST', '/api/portal/sign-in/verify', {});
    expect(errorOf(noToken)).toMatchObject({ code: 'VALIDATION_FAILED', message: portalMessages.linkInvalid });
    const forged = await browser.request('POST', '/api/portal/sign-in/verify', { token: 'pgpl_forged' });
    expect(errorOf(forged)).toMatchObject({ code: 'BAD_REQUEST', message: portalMessages.linkInvalid });
  });

  it('refuses a state-changing call without the CSRF token', async () => {
    const response = await new HostBrowser(own.app, ACME_HOST).request(
      'POST',
      '/api/portal/sign-in',
      { email: 'a@example.com' },
      { csrf: false },
    );
    expect(response.status).toBe(403);
    expect(errorOf(response).code).toBe('CSRF_INVALID');
  });

  it("answers 404 on hosts that are no seller's", async () => {
    for (const host of [APP_HOST, 'composer.localhost']) {
      const response = await new HostBrowser(own.app, host).request('GET', '/api/portal/session');
      expect(response.status, host).toBe(404);
      expect(errorOf(response)).toMatchObject({ code: 'NOT_FOUND', message: portalMessages.notAPortalHost });
    }
  });
});

describe('tenancy', () => {
  const holderRoutes: [method: string, path: string][] = [
    ['GET', '/api/portal/licenses'],
    ['POST', '/api/portal/token'],
  ];

  it("shows a holder their own licenses from this seller only: never another holder's or another seller's", async () => {
    const email = `shared-${++holderCounter}@example.com`;
    const atAcme = await holderOf(repository.seller, email);
    const atGlobex = await holderOf(globex, email);
    const neighbour = await holderOf(repository.seller);
    await createGrant(repository.app, atAcme, widget);
    await createGrant(repository.app, atGlobex, globexTool);
    await createGrant(repository.app, neighbour, gadget);

    const acmeView = await (await signedInBrowser(atAcme, ACME_HOST)).json<PortalOverview>(
      'GET',
      '/api/portal/licenses',
    );
    expect(acmeView.body.licenses.map((license) => license.packageName)).toEqual(['acme/widget']);
    const globexView = await (await signedInBrowser(atGlobex, GLOBEX_HOST)).json<PortalOverview>(
      'GET',
      '/api/portal/licenses',
    );
    expect(globexView.body.licenses.map((license) => license.packageName)).toEqual(['globex/tool']);
    expect(globexView.body.repositoryUrl).toBe(`http://${GLOBEX_HOST}:${repository.app.port}`);
  });

  it("does not let a session of one seller's portal work on another seller's host, on any route", async () => {
    const holder = await holderOf(repository.seller);
    await createGrant(repository.app, holder, widget);
    const atAcme = await signedInBrowser(holder, ACME_HOST);
    // The same cookie value, sent to the other host by hand (a browser would not send it there).
    const atGlobex = new HostBrowser(repository.app, GLOBEX_HOST);
    atGlobex.setCookie(COOKIE, atAcme.cookie(COOKIE)!);
    expect(await atGlobex.json('GET', '/api/portal/session')).toEqual({ status: 200, body: null });
    for (const [method, path] of holderRoutes) {
      const response = await atGlobex.request(method, path);
      expect(response.status, path).toBe(401);
      expect(errorOf(response)).toMatchObject({ code: 'UNAUTHENTICATED', message: portalMessages.signInRequired });
    }
    // Nothing happened to the holder's token: the acme session still reads the same issue time.
    const view = await atAcme.json<PortalOverview>('GET', '/api/portal/licenses');
    expect(view.status).toBe(200);
  });

  it('asks signed-out visitors to sign in on every holder route', async () => {
    const browser = new HostBrowser(repository.app, ACME_HOST);
    expect(await browser.json('GET', '/api/portal/session')).toEqual({ status: 200, body: null });
    for (const [method, path] of holderRoutes) {
      const response = await browser.request(method, path);
      expect(response.status, path).toBe(401);
      expect(errorOf(response).code).toBe('UNAUTHENTICATED');
    }
  });

  it('ends the session at sign-out', async () => {
    const holder = await holderOf(repository.seller);
    const browser = await signedInBrowser(holder, ACME_HOST);
    const cookie = browser.cookie(COOKIE)!;
    expect((await browser.request('POST', '/api/portal/sign-out')).status).toBe(200);
    const replay = new HostBrowser(repository.app, ACME_HOST);
    replay.setCookie(COOKIE, cookie);
    expect((await replay.request('GET', '/api/portal/licenses')).status).toBe(401);
  });
});

describe('licenses', () => {
  it('states each license as the Composer repository treats it, with versions, downloads and last use', async () => {
    const holder = await holderOf(repository.seller);
    const now = repository.app.clock.now().getTime();
    await createGrant(repository.app, holder, widget, {
      expiresAt: new Date(now + 3 * DAY_MS),
      downloadLimit: 10,
      downloadCount: 4,
    });
    const frozenPackage = await createPackage(repository.app, repository.seller, 'acme/frozen', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
      { version: 'v1.2.0', releasedAt: '2026-02-01T10:00:00Z' },
      // Committed before the end but first seen after it (a back-dated commit tagged late): not covered.
      { version: 'v1.2.1', releasedAt: '2026-02-05T10:00:00Z', publishedAt: '2026-02-15T10:00:00Z' },
      { version: 'v1.3.0', releasedAt: '2026-02-20T10:00:00Z' },
    ]);
    await createGrant(repository.app, holder, frozenPackage, {
      expiresAt: new Date('2026-02-10T00:00:00Z'),
      endMode: 'updates',
    });
    const revokedPackage = await createPackage(repository.app, repository.seller, 'acme/revoked', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    await createGrant(repository.app, holder, revokedPackage, { status: 'revoked' });
    const expiredPackage = await createPackage(repository.app, repository.seller, 'acme/expired', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    await createGrant(repository.app, holder, expiredPackage, { expiresAt: new Date('2026-02-01T00:00:00Z') });
    await createGrant(repository.app, holder, gadget);

    const { status, body } = await (await signedInBrowser(holder, ACME_HOST)).json<PortalOverview>(
      'GET',
      '/api/portal/licenses',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      email: holder.email,
      sellerName: 'Acme Tools',
      supportEmail: 'help@acme.test',
      repositoryUrl: `http://${ACME_HOST}:${repository.app.port}`,
      repositoryName: 'acme',
    });
    const byName = Object.fromEntries(body.licenses.map((license) => [license.packageName, license]));
    expect(byName['acme/widget']).toMatchObject({
      description: 'The acme/widget package',
      state: 'expiring',
      daysLeft: 3,
      versions: ['v2.0.0', 'v1.1.0', 'v1.0.0'],
      downloadCount: 4,
      downloadLimit: 10,
      notice: 'Your license for acme/widget ends in 3 days (2026-03-04).',
    });
    expect(byName['acme/frozen']).toMatchObject({
      state: 'frozen',
      lastVersionCovered: 'v1.2.0',
      versions: ['v1.2.0', 'v1.0.0'],
    });
    expect(byName['acme/revoked']).toMatchObject({
      state: 'revoked',
      versions: [],
      notice: 'Your license for acme/revoked has been revoked.',
    });
    expect(byName['acme/expired']).toMatchObject({ state: 'expired', versions: [] });
    expect(byName['acme/gadget']).toMatchObject({
      state: 'active',
      daysLeft: null,
      versions: ['v3.0.0'],
      notice: null,
    });
  });

  it('names every package of a product’s license, which composer require takes instead of the product’s name', async () => {
    const holder = await holderOf(repository.seller);
    const product = await createProduct(repository.app, repository.seller, 'Toolkit', [widget, gadget]);
    await createProductGrant(repository.app, holder, product);
    await createGrant(repository.app, holder, widget);

    const { status, body } = await (await signedInBrowser(holder, ACME_HOST)).json<PortalOverview>(
      'GET',
      '/api/portal/licenses',
    );
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.licenses.map((license) => [license.packageName, license]));
    expect(byName.Toolkit).toMatchObject({ packageNames: ['acme/gadget', 'acme/widget'] });
    expect(byName['acme/widget']).toMatchObject({ packageNames: ['acme/widget'] });
  });
});

describe('receipts', () => {
  it("lists the holder's paid purchases from this seller, newest first, and no one else's", async () => {
    const holder = await holderOf(repository.seller);
    const other = await holderOf(repository.seller);
    const sale = (
      customerId: string,
      paidAt: string,
      status: 'paid' | 'refunded' | 'pending',
      amountCents: number,
    ) => ({
      sellerId: repository.seller.id,
      packageId: widget.id,
      kind: 'purchase' as const,
      status,
      pricingType: 'one_time' as const,
      tierName: 'Single site',
      customerId,
      amountCents,
      feeCents: Math.round(amountCents * 0.05),
      currency: 'usd',
      paidAt: status === 'pending' ? null : new Date(paidAt),
    });
    await repository.app.ctx.db
      .insert(sales)
      .values([
        sale(holder.id, '2026-01-05T10:00:00Z', 'refunded', 4900),
        sale(holder.id, '2026-02-05T10:00:00Z', 'paid', 9900),
        sale(holder.id, '2026-02-06T10:00:00Z', 'pending', 9900),
        sale(other.id, '2026-02-07T10:00:00Z', 'paid', 1900),
      ]);
    const view = await (await signedInBrowser(holder, ACME_HOST)).json<PortalOverview>('GET', '/api/portal/licenses');
    expect(view.body.receipts.map(({ amountCents, status, paidAt }) => ({ amountCents, status, paidAt }))).toEqual([
      { amountCents: 9900, status: 'paid', paidAt: '2026-02-05T10:00:00.000Z' },
      { amountCents: 4900, status: 'refunded', paidAt: '2026-01-05T10:00:00.000Z' },
    ]);
    expect(view.body.receipts[0]).toMatchObject({
      packageName: 'acme/widget',
      tierName: 'Single site',
      currency: 'usd',
    });
  });
});

describe('rotating the token', () => {
  it('shows a new token once, e-mails it, refuses the old one from its next request and records it for the seller', async () => {
    const holder = await holderOf(repository.seller);
    await createGrant(repository.app, holder, widget);
    expect((await requestOnHost(repository.app, ACME_HOST, '/packages.json', { token: holder.token })).status).toBe(
      200,
    );

    const browser = await signedInBrowser(holder, ACME_HOST);
    const rotated = await browser.json<PortalRotateTokenResponse>('POST', '/api/portal/token');
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).toMatch(/^pgc_/);
    expect(rotated.body.token).not.toBe(holder.token);

    expect((await requestOnHost(repository.app, ACME_HOST, '/packages.json', { token: holder.token })).status).toBe(
      401,
    );
    expect(
      (await requestOnHost(repository.app, ACME_HOST, '/packages.json', { token: rotated.body.token })).status,
    ).toBe(200);
    expect(mailsTo(repository.app.dataDir, holder.email).some((mail) => mail.body.includes(rotated.body.token))).toBe(
      true,
    );

    const events = await repository.app.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, repository.seller.id), eq(auditEvents.targetId, holder.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'customer.token_regenerated',
      targetType: 'customer',
      actorType: 'session',
      details: { email: holder.email, emailSent: true, by: 'license_holder' },
    });
    // The token is not logged in the trail.
    expect(JSON.stringify(events[0]!.details)).not.toContain(rotated.body.token);
  });
});

describe('on the seller’s own domain', () => {
  it('serves the portal on portal.{zone} of a verified custom domain', async () => {
    await repository.app.ctx.db
      .update(brandSettings)
      .set({ brandDomain: 'composer.acme-tools.test', brandDomainVerifiedAt: repository.app.clock.now() })
      .where(eq(brandSettings.userId, repository.seller.id));
    const holder = await holderOf(repository.seller);
    await createGrant(repository.app, holder, gadget);
    const view = await (await signedInBrowser(holder, 'portal.acme-tools.test')).json<PortalOverview>(
      'GET',
      '/api/portal/licenses',
    );
    expect(view.status).toBe(200);
    expect(view.body.repositoryUrl).toBe(`http://composer.acme-tools.test:${repository.app.port}`);
    // The setup commands name the entry after the seller on a custom domain too (issue 36).
    expect(view.body.repositoryName).toBe(repository.seller.slug);
    expect(view.body.licenses.map((license) => license.packageName)).toEqual(['acme/gadget']);
    // Another seller's holder is nobody there.
    const stranger = await holderOf(globex);
    const elsewhere = await signedInBrowser(stranger, 'portal.acme-tools.test');
    expect((await elsewhere.request('GET', '/api/portal/licenses')).status).toBe(401);
  });
});
