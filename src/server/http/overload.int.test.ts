import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createSeller,
  type FixtureHolder,
  jsonOf,
  requestOnHost,
} from '../../../test/composer/repository-fixtures.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { apiErrorSchema } from '../../contract/errors.js';

// Under overload the server sheds with 503 and Retry-After, in the error shape, instead of stalling; a Composer
// client it has already served keeps being served. Pressure is forced through under-pressure's health check, so
// the test does not depend on how loaded the machine is.

const HOST = 'acme.composer.localhost';
const NAME = 'acme/widget';

let app: TestApp;
let holder: FixtureHolder;
let isHealthy = true;

beforeAll(async () => {
  app = await startTestApp({ pressureCheck: { isHealthy: async () => isHealthy, intervalMs: 25 } });
  const seller = await createSeller(app, 'acme');
  const pkg = await createPackage(app, seller, NAME, [{ version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' }]);
  holder = await createHolder(app, seller, 'holder@example.com');
  await createGrant(app, holder, pkg);
});

afterAll(async () => {
  await app?.close();
});

async function setPressure(isOverloaded: boolean): Promise<void> {
  isHealthy = !isOverloaded;
  await vi.waitFor(() => expect(app.app.isUnderPressure()).toBe(isOverloaded), { timeout: 5_000, interval: 25 });
}

describe('overload shedding', () => {
  it('sheds with 503 and Retry-After while an authorized Composer client keeps installing', async () => {
    // The holder's client has been served before the load arrives.
    expect((await requestOnHost(app, HOST, '/packages.json', { token: holder.token })).status).toBe(200);
    await setPressure(true);
    try {
      const api = await fetch(`${app.baseUrl}/api/health`);
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('10');
      const body = apiErrorSchema.parse(await api.json());
      expect(body).toMatchObject({ status: 503, code: 'UNAVAILABLE' });

      for (const token of [undefined, 'pgc_not-a-real-token']) {
        const stranger = await requestOnHost(app, HOST, '/packages.json', { token });
        expect(stranger.status).toBe(503);
        expect(stranger.headers['retry-after']).toBe('10');
        expect(jsonOf(stranger).code).toBe('UNAVAILABLE');
      }

      expect((await requestOnHost(app, HOST, '/packages.json', { token: holder.token })).status).toBe(200);
      expect((await requestOnHost(app, HOST, `/p2/${NAME}.json`, { token: holder.token })).status).toBe(200);
      const dist = await requestOnHost(app, HOST, `/api/composer/download/${NAME}/v1.0.0`, { token: holder.token });
      expect(dist.status).toBe(200);
    } finally {
      await setPressure(false);
    }
    expect((await fetch(`${app.baseUrl}/api/health`)).status).not.toBe(503);
  });
});
