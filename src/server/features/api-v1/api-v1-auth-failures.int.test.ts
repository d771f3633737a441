import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import { API_V1_AUTH_FAILURE_LIMIT } from '../../../contract/developer.js';
import { apiTokens } from '../../db/schema/index.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';

// Guessing API tokens from one address is slowed (issue 28): refused tokens count against the client's address,
// and past API_V1_AUTH_FAILURE_LIMIT the address is refused whatever token it sends, until the window ends. Time is
// the app's clock, moved by the test: nothing here waits or depends on how fast it runs.

const { max: MAX_FAILURES, windowMs: WINDOW_MS } = API_V1_AUTH_FAILURE_LIMIT;
// 12:00:00 UTC starts a 10-minute window: the windows are fixed on the clock.
const start = new Date('2026-03-01T12:00:00.000Z');

async function insertToken(app: TestApp): Promise<string> {
  const seller = await createTestUser(app);
  const token = generateToken('pga');
  await app.ctx.db.insert(apiTokens).values({
    userId: seller.id,
    createdById: seller.id,
    name: 'valid',
    tokenHash: sha256Hex(token),
    permissions: ['analytics:read'],
  });
  return token;
}

function get(app: TestApp, token: string | undefined, headers: Record<string, string> = {}) {
  return fetch(new URL('/api/v1/analytics', app.baseUrl), {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

const guess = () => generateToken('pga');

describe('API v1 failed authentications per client address', () => {
  describe('behind a trusted proxy', () => {
    let app: TestApp;
    let validToken: string;
    const clock = new TestClock(start);
    // The proxy (loopback here) says who the client is; TRUST_PROXY names it.
    const from = (address: string) => ({ 'x-forwarded-for': address });

    beforeAll(async () => {
      app = await startTestApp({ clock, env: { TRUST_PROXY: '127.0.0.1' } });
      validToken = await insertToken(app);
    });

    afterAll(async () => {
      await app?.close();
    });

    it(`refuses an address with 429 and Retry-After after ${MAX_FAILURES} refused tokens, even for a new one`, async () => {
      const attacker = from('198.51.100.7');
      for (let index = 0; index < MAX_FAILURES; index++) {
        const refused = await get(app, guess(), attacker);
        expect(refused.status, `guess ${index + 1}`).toBe(401);
      }
      clock.advance(90_000);
      const limited = await get(app, guess(), attacker);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe(String((WINDOW_MS - 90_000) / 1000));
      const body = await limited.json();
      expect(body).toMatchObject({
        success: false,
        code: 'RATE_LIMITED',
        status: 429,
        error: 'Too Many Failed Authentications',
        meta: { apiVersion: 'v1' },
      });
      expect(body.message).toContain(`after ${MAX_FAILURES} refused API tokens in ${WINDOW_MS / 60_000} minutes`);
      expect(body.suggestion).toContain(`try again in ${(WINDOW_MS - 90_000) / 1000} seconds`);

      // The address is refused before its token is looked at: a right guess would otherwise stand out.
      expect((await get(app, validToken, attacker)).status).toBe(429);
      expect((await get(app, undefined, attacker)).status).toBe(429);
      // Another address is not: its valid token works, its bad token is told why.
      expect((await get(app, validToken, from('198.51.100.8'))).status).toBe(200);
      const elsewhere = await get(app, guess(), from('198.51.100.8'));
      expect(elsewhere.status).toBe(401);
      expect((await elsewhere.json()).code).toBe('UNAUTHENTICATED');

      // When the window ends the address may try again; its next refusals count afresh.
      clock.advance(WINDOW_MS - 90_000);
      expect((await get(app, validToken, attacker)).status).toBe(200);
      expect((await get(app, guess(), attacker)).status).toBe(401);
    });

    it('counts neither a request without a token nor one its token authenticates, and wipes nothing on success', async () => {
      const client = from('198.51.100.20');
      for (let index = 0; index < MAX_FAILURES - 1; index++) expect((await get(app, guess(), client)).status).toBe(401);
      for (let index = 0; index < 5; index++) {
        expect((await get(app, undefined, client)).status).toBe(401);
        expect((await get(app, validToken, client)).status).toBe(200);
      }
      expect((await get(app, guess(), client)).status).toBe(401);
      expect((await get(app, validToken, client)).status).toBe(429);
    });

    it('counts every address of an IPv6 /64 as one client', async () => {
      for (let index = 0; index < MAX_FAILURES; index++) {
        const address = `2001:db8:77:1::${(index + 1).toString(16)}`;
        expect((await get(app, guess(), from(address))).status).toBe(401);
      }
      expect((await get(app, guess(), from('2001:db8:77:1:ffff::1'))).status).toBe(429);
      expect((await get(app, validToken, from('2001:db8:77:2::1'))).status).toBe(200);
    });
  });

  describe('without a trusted proxy', () => {
    let app: TestApp;
    let validToken: string;
    const clock = new TestClock(start);

    beforeAll(async () => {
      app = await startTestApp({ clock });
      validToken = await insertToken(app);
    });

    afterAll(async () => {
      await app?.close();
    });

    it('counts the connecting address, whatever X-Forwarded-For claims', async () => {
      for (let index = 0; index < MAX_FAILURES; index++) {
        const claimed = { 'x-forwarded-for': `203.0.113.${index + 1}` };
        expect((await get(app, guess(), claimed)).status).toBe(401);
      }
      const limited = await get(app, validToken, { 'x-forwarded-for': '192.0.2.200' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBe(WINDOW_MS / 1000);
    });
  });
});
