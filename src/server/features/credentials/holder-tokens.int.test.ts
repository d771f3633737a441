import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApiV1 } from '../../../../test/support/http-client.js';
import { insertPackage } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import { customers, grants, holderTokens } from '../../db/schema/index.js';
import { HOUR_MS } from '../../lib/clock.js';
import { isWellFormedHolderToken } from '../../lib/holder-token-format.js';
import { findCustomerByToken } from '../licenses/grants.service.js';

// API v1's named Composer tokens of a customer (issue 32): shown once, listed without the token, revoked one by one,
// rotated with an overlap during which both work.

const start = new Date('2026-05-01T12:00:00.000Z');

describe('API v1 customer tokens', () => {
  let app: TestApp;
  const clock = new TestClock(start);
  let seller: SignedIn;
  let apiToken: string;
  let holderId: string;
  let otherSellersHolderId: string;

  const call = (method: string, pathname: string, body?: unknown) =>
    callApiV1(app.baseUrl, apiToken, method, `/api/v1${pathname}`, body);

  /** API v1 allows 30 requests a minute per token: each test that makes many starts with a token of its own. */
  async function freshApiToken() {
    const created = await seller.client.post('/api/developer/tokens', {
      name: `shop ${Math.random()}`,
      permissions: ['customers:read', 'customers:write'],
    });
    apiToken = ((await created.json()) as CreatedApiToken).token;
  }

  const works = async (token: string) => (await findCustomerByToken(app.ctx, token))?.id === holderId;

  beforeAll(async () => {
    app = await startTestApp({ clock });
    seller = await signInSeller(app, { slug: 'acme' });
    const other = await signInSeller(app, { slug: 'bobco' });
    await freshApiToken();
    const [holder] = await app.ctx.db
      .insert(customers)
      .values({ sellerId: seller.user.id, email: 'dev@example.com' })
      .returning();
    holderId = holder!.id;
    const [foreign] = await app.ctx.db
      .insert(customers)
      .values({ sellerId: other.user.id, email: 'dev@example.com' })
      .returning();
    otherSellersHolderId = foreign!.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('creates a named token shown once, of the checksummed format, and lists it without the token', async () => {
    const created = await call('POST', `/customers/${holderId}/tokens`, { name: 'GitHub Actions', kind: 'ci' });
    expect(created.status).toBe(201);
    const token: string = created.body.data.token;
    expect(isWellFormedHolderToken(token)).toBe(true);
    expect(created.body.data).toMatchObject({ name: 'GitHub Actions', kind: 'ci', state: 'active', createdBy: 'api' });
    expect(created.body.data.tokenHint).toBe(token.slice(-4));
    expect(await works(token)).toBe(true);

    const listed = await call('GET', `/customers/${holderId}/tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((entry: { name: string }) => entry.name)).toContain('GitHub Actions');
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(listed.body.data[0]).not.toHaveProperty('token');
  });

  it('names each customer by the id its token routes take', async () => {
    const pkg = await insertPackage(app, seller.user.id, 'acme/widget');
    await app.ctx.db.insert(grants).values({ customerId: holderId, packageId: pkg.id, kind: 'manual' });
    const listed = await call('GET', '/customers');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: holderId, email: 'dev@example.com' })]);
  });

  it('revokes one token: it stops working at once while the holder’s other token still works', async () => {
    const first = (await call('POST', `/customers/${holderId}/tokens`, { name: 'Ana', kind: 'developer' })).body.data;
    const second = (await call('POST', `/customers/${holderId}/tokens`, { name: 'Deploy', kind: 'deploy' })).body.data;
    const deleted = await call('DELETE', `/customers/${holderId}/tokens/${first.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.state).toBe('revoked');
    expect(await works(first.token)).toBe(false);
    expect(await works(second.token)).toBe(true);
  });

  it('rotates with an overlap: both work until it ends, then only the new; a second rotation is refused', async () => {
    const old = (await call('POST', `/customers/${holderId}/tokens`, { name: 'Forge', kind: 'deploy' })).body.data;
    const rotated = await call('POST', `/customers/${holderId}/tokens/${old.id}/rotate`, { overlapHours: 2 });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toMatchObject({ name: 'Forge', kind: 'deploy', state: 'active' });
    const listed = (await call('GET', `/customers/${holderId}/tokens`)).body.data;
    expect(listed.find((entry: { id: string }) => entry.id === old.id)).toMatchObject({
      state: 'overlap',
      replacedById: rotated.body.data.id,
      expiresAt: new Date(clock.now().getTime() + 2 * HOUR_MS).toISOString(),
    });
    expect(await works(old.token)).toBe(true);
    expect(await works(rotated.body.data.token)).toBe(true);

    const again = await call('POST', `/customers/${holderId}/tokens/${old.id}/rotate`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This token was already rotated: rotate its replacement instead.');

    clock.advance(2 * HOUR_MS + 1000);
    expect(await works(old.token)).toBe(false);
    expect(await works(rotated.body.data.token)).toBe(true);
  });

  it('rotates with overlap 0: the old token stops at once; the default overlap is 24 hours', async () => {
    const old = (await call('POST', `/customers/${holderId}/tokens`, { name: 'bot', kind: 'bot' })).body.data;
    const rotated = (await call('POST', `/customers/${holderId}/tokens/${old.id}/rotate`, { overlapHours: 0 })).body
      .data;
    expect(await works(old.token)).toBe(false);
    const byDefault = await call('POST', `/customers/${holderId}/tokens/${rotated.id}/rotate`, {});
    expect(byDefault.status).toBe(201);
    const listed = (await call('GET', `/customers/${holderId}/tokens`)).body.data;
    expect(listed.find((entry: { id: string }) => entry.id === rotated.id).expiresAt).toBe(
      new Date(clock.now().getTime() + 24 * HOUR_MS).toISOString(),
    );
  });

  it('refuses bad input with 400 naming the field and writes nothing', async () => {
    await freshApiToken();
    const before = await app.ctx.db.select().from(holderTokens).where(eq(holderTokens.customerId, holderId));
    const cases: unknown[] = [
      { name: 'x'.repeat(10_000), kind: 'ci' },
      { name: '   ', kind: 'ci' },
      { name: 'ok', kind: 'admin' },
      { name: 'ok', kind: 'ci', expiresAt: 'tomorrow' },
      { name: 'ok', kind: 'ci', expiresAt: new Date(start.getTime() - 1000).toISOString() },
    ];
    for (const body of cases) {
      const answer = await call('POST', `/customers/${holderId}/tokens`, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.message).toMatch(/name|kind|expiresAt/);
    }
    const old = (await call('POST', `/customers/${holderId}/tokens`, { name: 'x', kind: 'ci' })).body.data;
    for (const overlapHours of [-1, 169, 1.5]) {
      const answer = await call('POST', `/customers/${holderId}/tokens/${old.id}/rotate`, { overlapHours });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain('overlapHours');
    }
    const after = await app.ctx.db.select().from(holderTokens).where(eq(holderTokens.customerId, holderId));
    expect(after.length).toBe(before.length + 1);
  });

  it('shows the seller a holder’s tokens on Management and lets them revoke one', async () => {
    await freshApiToken();
    const created = (await call('POST', `/customers/${holderId}/tokens`, { name: 'Ops', kind: 'deploy' })).body.data;
    const listed = await seller.client.get(`/api/customers/${holderId}/tokens`);
    expect(listed.status).toBe(200);
    const tokens = (await listed.json()) as { id: string; state: string }[];
    expect(tokens.find((entry) => entry.id === created.id)).toMatchObject({ state: 'active' });
    expect(JSON.stringify(tokens)).not.toContain(created.token);
    const revoked = await seller.client.delete(`/api/customers/${holderId}/tokens/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: created.id, state: 'revoked' });
    expect(await works(created.token)).toBe(false);
    expect((await seller.client.get(`/api/customers/${otherSellersHolderId}/tokens`)).status).toBe(404);
  });

  it('refuses a developer token beyond the license’s seats, while other kinds take none', async () => {
    await freshApiToken();
    const [seated] = await app.ctx.db
      .insert(customers)
      .values({ sellerId: seller.user.id, email: 'seated@example.com' })
      .returning();
    const pkg = await insertPackage(app, seller.user.id, 'acme/seated');
    await app.ctx.db.insert(grants).values({ customerId: seated!.id, packageId: pkg.id, kind: 'manual', seats: 1 });
    const first = await call('POST', `/customers/${seated!.id}/tokens`, { name: 'Ana', kind: 'developer' });
    expect(first.status).toBe(201);
    const before = await app.ctx.db.select().from(holderTokens).where(eq(holderTokens.customerId, seated!.id));
    const second = await call('POST', `/customers/${seated!.id}/tokens`, { name: 'Ben', kind: 'developer' });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(
      /^All 1 developer seats of your license are taken: revoke a developer token or ask .+ for more seats\.$/,
    );
    expect(await app.ctx.db.select().from(holderTokens).where(eq(holderTokens.customerId, seated!.id))).toEqual(before);
    expect((await call('POST', `/customers/${seated!.id}/tokens`, { name: 'CI', kind: 'ci' })).status).toBe(201);
    await call('DELETE', `/customers/${seated!.id}/tokens/${first.body.data.id}`);
    expect((await call('POST', `/customers/${seated!.id}/tokens`, { name: 'Ben', kind: 'developer' })).status).toBe(
      201,
    );
  });

  it("answers 404 for another seller's customer and for an unknown token", async () => {
    await freshApiToken();
    expect((await call('GET', `/customers/${otherSellersHolderId}/tokens`)).status).toBe(404);
    expect((await call('POST', `/customers/${otherSellersHolderId}/tokens`, { name: 'x', kind: 'ci' })).status).toBe(
      404,
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('DELETE', `/customers/${holderId}/tokens/${unknown}`)).status).toBe(404);
    expect((await call('POST', `/customers/${holderId}/tokens/${unknown}/rotate`, {})).status).toBe(404);
  });
});
