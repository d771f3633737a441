import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import { API_V1_AUTH_FAILURE_LIMIT } from '../../../contract/developer.js';
import { apiTokens } from '../../db/schema/index.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';

// Two running processes sharing Redis share each token's budget of 30 requests a minute, and each client address's
// count of failed authentications.
describe.skipIf(!process.env.TEST_REDIS_URL)('API v1 rate limit across processes (Redis)', () => {
  const apps: TestApp[] = [];
  const token = generateToken('pga');
  // One clock for both processes, as one wall clock: the failed-authentication windows are the app clock's.
  const clock = new TestClock(new Date('2026-03-01T12:00:00.000Z'));

  beforeAll(async () => {
    for (let index = 0; index < 2; index++) {
      // Loopback stands for the load balancer, which names the client in X-Forwarded-For.
      const app = await startTestApp({ redis: true, clock, env: { TRUST_PROXY: '127.0.0.1' } });
      apps.push(app);
      // Each process has a database of its own here; the same token in both stands for one shared database.
      const seller = await createTestUser(app);
      await app.ctx.db.insert(apiTokens).values({
        userId: seller.id,
        createdById: seller.id,
        name: 'shared',
        tokenHash: sha256Hex(token),
        permissions: ['analytics:read'],
      });
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  const get = (app: TestApp) =>
    fetch(new URL('/api/v1/analytics', app.baseUrl), { headers: { authorization: `Bearer ${token}` } });

  it('allows 30 requests in total across two processes, then answers 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 30; index++) {
      const response = await get(apps[index % 2]!);
      statuses.push(response.status);
      expect(response.headers.get('ratelimit-remaining')).toBe(String(29 - index));
    }
    expect(statuses).toEqual(Array(30).fill(200));
    for (const app of apps) {
      const limited = await get(app);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    }
  });

  it('counts failed authentications of one address across both processes, then both answer 429', async () => {
    // An address of this run alone (the Redis server may be shared with other runs): 2001:db8:{random}::/64.
    const [a, b, c] = [0, 2, 4].map((offset) => randomBytes(6).readUInt16BE(offset).toString(16));
    const client = { 'x-forwarded-for': `2001:db8:${a}:${b}::${c}` };
    const guess = (app: TestApp, headers: Record<string, string>) =>
      fetch(new URL('/api/v1/analytics', app.baseUrl), {
        headers: { authorization: `Bearer ${generateToken('pga')}`, ...headers },
      });
    for (let index = 0; index < API_V1_AUTH_FAILURE_LIMIT.max; index++) {
      expect((await guess(apps[index % 2]!, client)).status, `guess ${index + 1}`).toBe(401);
    }
    for (const app of apps) {
      const limited = await guess(app, client);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe(String(API_V1_AUTH_FAILURE_LIMIT.windowMs / 1000));
      expect(await limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', status: 429 });
    }
    // Another /64 is counted apart.
    const neighbour = (Number.parseInt(b!, 16) ^ 1).toString(16);
    expect((await guess(apps[0]!, { 'x-forwarded-for': `2001:db8:${a}:${neighbour}::${c}` })).status).toBe(401);
  });
});
