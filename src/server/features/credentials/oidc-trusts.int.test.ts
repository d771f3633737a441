import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHolder,
  createSeller,
  type FixtureHolder,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { startFakeDns } from '../../../../test/fakes/dns.js';
import { createPortalSession, type SignedIn, signIn } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { OidcTrust } from '../../../contract/oidc-trusts.js';
import { auditEvents, oidcTrusts } from '../../db/schema/index.js';

// Registering trusted CI identities (issue 32 item 3): the seller on Management and API v1, the holder in the
// portal; each door checks the same rules (bounded lengths, an https issuer that is not on a private network, a
// subject with at most a trailing wildcard) and a refused input writes nothing.

const GITHUB = 'https://token.actions.githubusercontent.com';
const valid = {
  name: 'Shop pipeline',
  issuer: GITHUB,
  audience: 'packgate',
  subject: 'repo:acme/shop:ref:refs/heads/main',
};

let app: TestApp;
let seller: SignedIn;
let otherSeller: SignedIn;
let holder: FixtureHolder;

async function trustCount(): Promise<number> {
  const [row] = await app.ctx.db.select({ n: count() }).from(oidcTrusts);
  return Number(row!.n);
}

/** A holder's portal on the seller's host: a session made as sign-in makes it, and the host's CSRF token. */
async function portalOf(target: FixtureHolder, host: string) {
  const session = await createPortalSession(app, target.id);
  const csrfAnswer = await requestOnHost(app, host, '/api/csrf-token', {
    headers: { cookie: `packgate_portal=${session}` },
  });
  const anonymous = String(csrfAnswer.headers['set-cookie'] ?? '').split(';')[0];
  const cookie = `packgate_portal=${session}; ${anonymous}`;
  const csrf = jsonOf<{ csrfToken: string }>(csrfAnswer).csrfToken;
  return (method: string, path: string, body?: unknown) =>
    requestOnHost(app, host, path, {
      method,
      headers: { cookie, 'x-csrf-token': csrf },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

async function apiToken(owner: SignedIn): Promise<string> {
  const response = await owner.client.post('/api/developer/tokens', {
    name: 'CI identities',
    permissions: ['customers:read', 'customers:write'],
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

function callApi(token: string, method: string, path: string, body?: unknown) {
  return fetch(new URL(`/api/v1${path}`, app.baseUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

beforeAll(async () => {
  app = await startTestApp();
  const acme = await createSeller(app, 'acme');
  seller = await signIn(app, { user: acme });
  otherSeller = await signIn(app, { user: await createSeller(app, 'globex') });
  holder = await createHolder(app, acme);
});

afterAll(async () => {
  await app?.close();
});

describe('trusted CI identities on Management', () => {
  it('adds, lists and removes one, with an audit event for each change', async () => {
    const created = await seller.client.post(`/api/customers/${holder.id}/oidc-trusts`, valid);
    expect(created.status).toBe(201);
    const trust = (await created.json()) as OidcTrust;
    expect(trust).toMatchObject({ ...valid, createdBy: 'seller', lastUsedAt: null });
    const listed = (await (await seller.client.get(`/api/customers/${holder.id}/oidc-trusts`)).json()) as OidcTrust[];
    expect(listed.map((entry) => entry.id)).toEqual([trust.id]);
    expect((await seller.client.delete(`/api/customers/${holder.id}/oidc-trusts/${trust.id}`)).status).toBe(200);
    expect(await trustCount()).toBe(0);
    const events = await app.ctx.db.select({ action: auditEvents.action }).from(auditEvents);
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(['customer.oidc_trust_created', 'customer.oidc_trust_deleted']),
    );
  });

  it("answers 404 for another seller's holder", async () => {
    const response = await otherSeller.client.post(`/api/customers/${holder.id}/oidc-trusts`, valid);
    expect(response.status).toBe(404);
    expect((await otherSeller.client.get(`/api/customers/${holder.id}/oidc-trusts`)).status).toBe(404);
    expect(await trustCount()).toBe(0);
  });

  it.each([
    ['a name of 10,000 characters', { name: 'n'.repeat(10_000) }, /name/i],
    ['an http issuer', { issuer: 'http://token.actions.githubusercontent.com' }, /https:\/\//],
    ['an issuer with a query', { issuer: `${GITHUB}?x=1` }, /https:\/\//],
    ['an issuer on loopback', { issuer: 'https://127.0.0.1:8443' }, /private, loopback or link-local/],
    ['an issuer on a private network', { issuer: 'https://10.1.2.3' }, /private, loopback or link-local/],
    ['an issuer on a link-local address', { issuer: 'https://[fe80::1]' }, /private, loopback or link-local/],
    ['a wildcard inside the subject', { subject: 'repo:acme/*:ref:refs/heads/main' }, /at most one \*/],
    ['a wildcard not after : or /', { subject: 'repo:acme/shop*' }, /right after : or \//],
    ['a subject with spaces', { subject: 'repo acme' }, /without spaces/],
  ])('refuses %s with 400 naming the problem, and writes nothing', async (_label, change, message) => {
    const response = await seller.client.post(`/api/customers/${holder.id}/oidc-trusts`, { ...valid, ...change });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(message);
    expect(await trustCount()).toBe(0);
  });

  it('accepts a subject ending in a wildcard after a separator', async () => {
    const response = await seller.client.post(`/api/customers/${holder.id}/oidc-trusts`, {
      ...valid,
      subject: 'repo:acme/shop:*',
    });
    expect(response.status).toBe(201);
    const trust = (await response.json()) as OidcTrust;
    await seller.client.delete(`/api/customers/${holder.id}/oidc-trusts/${trust.id}`);
  });
});

describe('trusted CI identities in API v1', () => {
  it('creates, lists and deletes one for a customer, in the envelope', async () => {
    const token = await apiToken(seller);
    const created = await callApi(token, 'POST', `/customers/${holder.id}/oidc-trusts`, valid);
    expect(created.status).toBe(201);
    const trust = ((await created.json()) as { data: OidcTrust }).data;
    expect(trust).toMatchObject({ ...valid, createdBy: 'api' });
    const listed = (await (await callApi(token, 'GET', `/customers/${holder.id}/oidc-trusts`)).json()) as {
      data: OidcTrust[];
    };
    expect(listed.data.map((entry) => entry.id)).toEqual([trust.id]);
    const deleted = await callApi(token, 'DELETE', `/customers/${holder.id}/oidc-trusts/${trust.id}`);
    expect(((await deleted.json()) as { data: unknown }).data).toEqual({ id: trust.id, deleted: true });
    expect(await trustCount()).toBe(0);
  });

  it("refuses another seller's customer and bad input, writing nothing", async () => {
    const token = await apiToken(otherSeller);
    expect((await callApi(token, 'POST', `/customers/${holder.id}/oidc-trusts`, valid)).status).toBe(404);
    const own = await apiToken(seller);
    const long = await callApi(own, 'POST', `/customers/${holder.id}/oidc-trusts`, {
      ...valid,
      audience: 'a'.repeat(300),
    });
    expect(long.status).toBe(400);
    expect(await trustCount()).toBe(0);
  });
});

describe('trusted CI identities in the portal', () => {
  it('lets the signed-in holder add, list and remove their own', async () => {
    const portal = await portalOf(holder, 'acme.composer.localhost');
    const created = await portal('POST', '/api/portal/oidc-trusts', valid);
    expect(created.status, created.body.toString()).toBe(201);
    const trust = jsonOf<OidcTrust>(created);
    expect(trust.createdBy).toBe('holder');
    expect(jsonOf<OidcTrust[]>(await portal('GET', '/api/portal/oidc-trusts')).map((entry) => entry.id)).toEqual([
      trust.id,
    ]);
    expect((await portal('DELETE', `/api/portal/oidc-trusts/${trust.id}`)).status).toBe(200);
    expect(await trustCount()).toBe(0);
  });

  it("refuses a signed-out visitor and another holder's identity", async () => {
    const signedOut = await requestOnHost(app, 'acme.composer.localhost', '/api/portal/oidc-trusts');
    expect(signedOut.status).toBe(401);
    const created = await seller.client.post(`/api/customers/${holder.id}/oidc-trusts`, valid);
    const trust = (await created.json()) as OidcTrust;
    const intruder = await portalOf(
      await createHolder(app, seller.user, 'intruder@example.com'),
      'acme.composer.localhost',
    );
    expect((await intruder('DELETE', `/api/portal/oidc-trusts/${trust.id}`)).status).toBe(404);
    expect(await trustCount()).toBe(1);
  });
});

describe("an issuer's address after DNS resolution", () => {
  it('refuses a name resolving to a private address when registered, and again when its keys are fetched', async () => {
    const dns = await startFakeDns();
    const resolving = await startTestApp({ env: { DNS_SERVERS: dns.server } });
    try {
      dns.records.set('ci.example.test', { a: '93.184.216.34' });
      dns.records.set('internal.example.test', { a: '10.0.0.5' });
      const acme = await createSeller(resolving, 'acme');
      const owner = await signIn(resolving, { user: acme });
      const customer = await createHolder(resolving, acme);
      const path = `/api/customers/${customer.id}/oidc-trusts`;
      const internal = await owner.client.post(path, { ...valid, issuer: 'https://internal.example.test' });
      expect(internal.status).toBe(400);
      expect(((await internal.json()) as { message: string }).message).toMatch(/private, loopback or link-local/);
      expect((await owner.client.post(path, { ...valid, issuer: 'https://ci.example.test' })).status).toBe(201);

      // The name moves to loopback after registration: the exchange checks again and never connects there.
      dns.records.set('ci.example.test', { a: '127.0.0.1' });
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const exp = Math.floor(resolving.clock.now().getTime() / 1000) + 300;
      const claims = { iss: 'https://ci.example.test', aud: valid.audience, sub: valid.subject, exp };
      const token = `${encode({ alg: 'RS256', kid: 'k1' })}.${encode(claims)}.c2lnbmF0dXJl`;
      const response = await requestOnHost(resolving, 'acme.composer.localhost', '/api/composer/oidc-token', {
        method: 'POST',
        body: JSON.stringify({ token }),
      });
      expect(response.status).toBe(401);
      expect(jsonOf<{ message: string }>(response).message).toMatch(
        /keys of https:\/\/ci\.example\.test could not be fetched: .* private, loopback or link-local/,
      );
    } finally {
      await resolving.close();
      await dns.close();
    }
  });
});
