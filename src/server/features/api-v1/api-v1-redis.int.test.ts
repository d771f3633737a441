import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import { apiTokens } from '../../db/schema/index.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';

// Two running processes sharing Redis share each token's budget of 30 requests a minute.
describe.skipIf(!process.env.TEST_REDIS_URL)('API v1 rate limit across processes (Redis)', () => {
  const apps: TestApp[] = [];
  const token = generateToken('pga');

  beforeAll(async () => {
    for (let index = 0; index < 2; index++) {
      const app = await startTestApp({ redis: true });
      apps.push(app);
      // Each process has a database of its own here; the same token in both stands for one shared database.
      const seller = await createTestUser(app);
      await app.ctx.db.insert(apiTokens).values({
        userId: seller.id,
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
});
