import { describe, expect, it } from 'vitest';
import { TestClient } from '../../test/support/http-client.js';
import { type TestApp, testAppAroundTests } from '../../test/support/test-app.js';
import { TOKEN_CHECKS_PER_IP } from './features/auth/auth.routes.js';

// The test client connects from 127.0.0.1, playing the reverse proxy: a proxy appends the address it saw to
// whatever X-Forwarded-For the client sent, so the client controls every entry but the last.
const forwardedBy = (client: string, claimed: string) => ({ 'x-forwarded-for': `${claimed}, ${client}` });

async function checkToken(app: TestApp, headers: Record<string, string>): Promise<number> {
  const response = await new TestClient(app.baseUrl).post(
    '/api/auth/verify-magic-link',
    { token: 'pgml_guess' },
    { headers },
  );
  return response.status;
}

describe.each([
  ['true', 'true'],
  ['one hop', '1'],
  ['the proxy address', '127.0.0.1'],
  ['the proxy network', '127.0.0.0/8,::1'],
])('TRUST_PROXY set to %s', (_name, trustProxy) => {
  const started = testAppAroundTests({ env: { TRUST_PROXY: trustProxy } });

  it('limits a client by its real address however it rotates X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= TOKEN_CHECKS_PER_IP + 4; attempt++) {
      statuses.push(await checkToken(started.app, forwardedBy('203.0.113.7', `10.9.${attempt}.1`)));
    }
    expect(statuses.slice(0, TOKEN_CHECKS_PER_IP)).toEqual(Array(TOKEN_CHECKS_PER_IP).fill(400));
    expect(statuses.slice(TOKEN_CHECKS_PER_IP)).toEqual([429, 429, 429, 429, 429]);

    // Another client behind the same proxy is counted apart, by the address the proxy saw.
    expect(await checkToken(started.app, forwardedBy('198.51.100.9', '203.0.113.7'))).toBe(400);
  });
});
