import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import type { Socket } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createSeller,
  type FixtureHolder,
  jsonOf,
  type RawResponse,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import type { TestUser } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { P2File } from '../../../contract/composer.js';
import { packages } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';
import { ACCESS_CHANNEL } from './access-cache.js';

// The warm fast path (composer-fast-path.ts) answers a held token's metadata before Fastify's router sees it. It must
// be invisible to Composer: the same status, headers and bytes as the routes give, refusals still answered by the
// routes with their warnings, and the same host and protocol under a trusted proxy. Which path answered shows in the
// log: the routes log each request, the fast path does not.

const HOST = 'fast.composer.localhost';

type LoggedApp = { app: TestApp; requestLines: () => string[] };

async function startLoggedApp(env: Record<string, string> = {}): Promise<LoggedApp> {
  const lines: string[] = [];
  const app = await startTestApp({ env, logStream: { write: (line) => lines.push(line) } });
  // On PostgreSQL the process holds nothing until its change feed listens (access-cache.ts).
  const deadline = Date.now() + 30_000;
  while (!app.ctx.composerAccess.isTrusted) {
    if (Date.now() > deadline) throw new Error('The change feed did not listen within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    app,
    requestLines: () =>
      lines.filter((line) => line.includes('"msg":"incoming request"')).map((line) => JSON.parse(line).req.url),
  };
}

async function licensedHolder(app: TestApp, seller: TestUser, name: string): Promise<FixtureHolder> {
  const pkg = await createPackage(app, seller, name, [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-01-20T10:00:00Z' },
  ]);
  const holder = await createHolder(app, seller, `${name.replace('/', '-')}@example.com`);
  await createGrant(app, holder, pkg);
  return holder;
}

/**
 * Resolves once every listening connection of the app has delivered what was announced before the call: on
 * PostgreSQL each pooled connection and the change feed's own receive every announcement, each in its own time, and a
 * copy arriving late drops the view it names again (as it must: the cache cannot tell a copy from a new change). A
 * marker announced now arrives on each connection after everything announced before it. PGlite delivers inside the
 * committing statement.
 */
async function announcementsDelivered(app: TestApp): Promise<void> {
  if (app.databaseTarget?.kind !== 'postgres') return;
  const cache = app.ctx.composerAccess;
  const marker = `c:delivery-marker-${randomUUID()}`;
  let deliveries = 0;
  const handleChange = cache.handleChange;
  cache.handleChange = (payload) => {
    if (payload === marker) deliveries++;
    handleChange.call(cache, payload);
  };
  try {
    await app.ctx.db.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${marker})`);
    const pool = (app.ctx.db as unknown as { $client: pg.Pool }).$client;
    await vi.waitFor(
      () => {
        // The pool's connections and the change feed's.
        if (deliveries < pool.totalCount + 1) throw new Error(`${deliveries} of ${pool.totalCount + 1} delivered`);
      },
      { timeout: 30_000, interval: 5 },
    );
  } finally {
    cache.handleChange = handleChange;
  }
}

/**
 * Asks through the routes until the token's view is held, and still held once the announcements of the test's own
 * fixture writes have all arrived (see announcementsDelivered).
 */
async function readThroughRoutes(
  logged: LoggedApp,
  host: string,
  token: string,
  path: string,
  headers?: Record<string, string>,
  agent?: Agent,
): Promise<RawResponse> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const before = logged.requestLines().length;
    const response = await requestOnHost(logged.app, host, path, { token, headers, agent });
    expect(logged.requestLines().slice(before)).toEqual([path]);
    if (!logged.app.ctx.composerAccess.findView(sha256Hex(token))) continue;
    await announcementsDelivered(logged.app);
    if (logged.app.ctx.composerAccess.findView(sha256Hex(token))) return response;
  }
  throw new Error(`The view of a token was not held after 50 requests to ${path}`);
}

/** What Composer can observe of an answer: status, body and headers except the ones that differ per response. */
function observed(response: RawResponse) {
  const { date: _date, 'x-request-id': requestId, ...headers } = response.headers;
  // Each answer names its own request (X-Request-Id, and requestId in an error body): the same, but not equal.
  expect(requestId).toEqual(expect.any(String));
  const body = response.body.toString('latin1').replace(`"requestId":"${requestId}"`, '"requestId":"(this request)"');
  return { status: response.status, headers, body: Buffer.from(body, 'latin1').toString('base64') };
}

describe('the warm fast path', () => {
  let logged: LoggedApp;
  let seller: TestUser;

  beforeAll(async () => {
    logged = await startLoggedApp();
    seller = await createSeller(logged.app, 'fast');
  });

  afterAll(async () => {
    await logged?.app.close();
  });

  it('answers a held token with the same status, headers and bytes as the routes', async () => {
    const { app } = logged;
    const pkg = await createPackage(app, seller, 'fast/same-bytes', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
      { version: 'v1.1.0', releasedAt: '2026-01-20T10:00:00Z' },
      { version: 'dev-main', kind: 'branch', releasedAt: '2026-01-25T10:00:00Z' },
    ]);
    const doors: Array<{ path: string; headers?: Record<string, string> }> = [
      { path: '/packages.json' },
      { path: '/p2/fast/same-bytes.json' },
      { path: '/p2/fast/same-bytes.json', headers: { 'accept-encoding': 'gzip, deflate' } },
      { path: '/p2/fast/same-bytes~dev.json' },
    ];
    // Each door asked on a connection that closes after it and on one kept alive, as Composer's curl keeps it: the
    // fast path writes the second's head itself (http/preformatted-head.ts), the first's through node:http.
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const [index, door] of doors.entries()) {
        for (const agent of [undefined, keptAlive]) {
          // A new holder per door: the first request reads the token's view through the routes, the second is held.
          const holder = await createHolder(
            app,
            seller,
            `same-bytes-${index}-${agent ? 'kept' : 'closed'}@example.com`,
          );
          await createGrant(app, holder, pkg);
          const cold = await readThroughRoutes(logged, HOST, holder.token, door.path, door.headers, agent);
          const before = logged.requestLines().length;
          const warm = await requestOnHost(app, HOST, door.path, { token: holder.token, headers: door.headers, agent });
          expect(cold.status).toBe(200);
          expect(warm.headers.connection).toBe(agent ? 'keep-alive' : 'close');
          expect(observed(warm)).toEqual(observed(cold));
          expect(logged.requestLines().slice(before)).toEqual([]);
        }
      }
    } finally {
      keptAlive.destroy();
    }
  });

  it("answers a held token's unchanged p2 file with a 304 that carries the Composer security headers", async () => {
    const { app } = logged;
    const holder = await licensedHolder(app, seller, 'fast/not-modified');
    const first = await readThroughRoutes(logged, HOST, holder.token, '/p2/fast/not-modified.json');
    const before = logged.requestLines().length;
    const notModified = await requestOnHost(app, HOST, '/p2/fast/not-modified.json', {
      token: holder.token,
      headers: { 'if-modified-since': String(first.headers['last-modified']) },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers['x-content-type-options']).toBe('nosniff');
    // Not helmet's page headers: a Composer answer is never a document a browser renders.
    expect(notModified.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(notModified.headers['x-frame-options']).toBeUndefined();
    expect(notModified.headers['last-modified']).toBe(first.headers['last-modified']);
    expect(logged.requestLines().slice(before)).toEqual([]);
  });

  it('answers every request of a held token without the routes', async () => {
    const { app } = logged;
    const holder = await licensedHolder(app, seller, 'fast/skips');
    await readThroughRoutes(logged, HOST, holder.token, '/p2/fast/skips.json');
    const before = logged.requestLines().length;
    for (let round = 0; round < 3; round++) {
      expect((await requestOnHost(app, HOST, '/p2/fast/skips.json', { token: holder.token })).status).toBe(200);
      expect((await requestOnHost(app, HOST, '/packages.json', { token: holder.token })).status).toBe(200);
    }
    expect(logged.requestLines().slice(before)).toEqual([]);
  });

  it('answers held tokens on a new kept-alive connection from the connection itself, and hands it to node:http at the first request the routes answer', async () => {
    const { app } = logged;
    const holder = await licensedHolder(app, seller, 'fast/on-connection');
    const stranger = await licensedHolder(app, seller, 'fast/stranger');
    const path = '/p2/fast/on-connection.json';
    const coldAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const cold = await readThroughRoutes(logged, HOST, holder.token, path, undefined, coldAgent);
    coldAgent.destroy();
    // The server's side of each connection: node:http gives a connection its parser when the door hands it over.
    const accepted: Socket[] = [];
    const onConnection = (socket: Socket) => accepted.push(socket);
    app.app.server.on('connection', onConnection);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const hasParser = () => (accepted[0] as Socket & { parser?: unknown }).parser != null;
    try {
      const before = logged.requestLines().length;
      const warm = await requestOnHost(app, HOST, path, { token: holder.token, agent });
      expect(observed(warm)).toEqual(observed(cold));
      const notModified = await requestOnHost(app, HOST, path, {
        token: holder.token,
        agent,
        headers: { 'if-modified-since': String(cold.headers['last-modified']) },
      });
      expect(notModified.status).toBe(304);
      expect(hasParser()).toBe(false);
      expect(logged.requestLines().slice(before)).toEqual([]);
      // A token whose view is not held: the routes answer it, on the same connection, and node:http reads it on.
      const routed = await requestOnHost(app, HOST, '/p2/fast/stranger.json', { token: stranger.token, agent });
      expect(routed.status).toBe(200);
      expect(logged.requestLines().slice(before)).toEqual(['/p2/fast/stranger.json']);
      expect(hasParser()).toBe(true);
      const again = await requestOnHost(app, HOST, path, { token: holder.token, agent });
      expect(observed(again)).toEqual(observed(cold));
      expect(logged.requestLines().slice(before)).toEqual(['/p2/fast/stranger.json']);
      expect(accepted).toHaveLength(1);
    } finally {
      agent.destroy();
      app.app.server.removeListener('connection', onConnection);
    }
  });

  it("answers a held token's unlicensed p2 file with the routes' plain 404, as fast as a 200", async () => {
    const { app } = logged;
    // Kept alive, as Composer's curl keeps its connection: the fast path writes this 404's head itself.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const newcomer = await licensedHolder(app, seller, 'fast/newcomer');
    const before = logged.requestLines().length;
    const fromRoutes = await requestOnHost(app, HOST, '/p2/fast/not-licensed.json', { token: newcomer.token, agent });
    expect(logged.requestLines().slice(before)).toEqual(['/p2/fast/not-licensed.json']);
    const held = await licensedHolder(app, seller, 'fast/held');
    await readThroughRoutes(logged, HOST, held.token, '/packages.json', undefined, agent);
    const afterWarm = logged.requestLines().length;
    const fromFastPath = await requestOnHost(app, HOST, '/p2/fast/not-licensed.json', { token: held.token, agent });
    agent.destroy();
    expect(fromFastPath.headers.connection).toBe('keep-alive');
    expect(fromRoutes.status).toBe(404);
    expect(jsonOf<{ warnings?: unknown }>(fromRoutes).warnings).toBeUndefined();
    expect(observed(fromFastPath)).toEqual(observed(fromRoutes));
    expect(logged.requestLines().slice(afterWarm)).toEqual([]);
  });

  it("answers each request of one connection for its own token and host, when they change from the last request's", async () => {
    const { app } = logged;
    const first = await licensedHolder(app, seller, 'fast/one-connection');
    const otherSeller = await createSeller(app, 'fastother');
    const second = await licensedHolder(app, otherSeller, 'fastother/lib');
    const otherHost = 'fastother.composer.localhost';
    await readThroughRoutes(logged, HOST, first.token, '/packages.json');
    await readThroughRoutes(logged, otherHost, second.token, '/packages.json');
    // One connection for every request below: the fast path keeps a connection's last credential and host.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    const createConnection = agent.createConnection.bind(agent);
    agent.createConnection = (...args: Parameters<typeof createConnection>) => {
      connections++;
      return createConnection(...args);
    };
    const available = async (host: string, token: string) => {
      const response = await requestOnHost(app, host, '/packages.json', { token, agent });
      expect(response.status).toBe(200);
      return jsonOf<{ 'available-packages': string[] }>(response)['available-packages'];
    };
    try {
      const before = logged.requestLines().length;
      expect(await available(HOST, first.token)).toEqual(['fast/one-connection']);
      expect(await available(otherHost, second.token)).toEqual(['fastother/lib']);
      expect(await available(otherHost, first.token)).toEqual([]);
      expect(await available(HOST, second.token)).toEqual([]);
      expect(await available(HOST, first.token)).toEqual(['fast/one-connection']);
      expect(connections).toBe(1);
      expect(logged.requestLines().slice(before)).toEqual([]);
    } finally {
      agent.destroy();
    }
  });

  it("keeps a holder's view held through a package's sync bookkeeping, and drops it when the package changes", async () => {
    const { app } = logged;
    const holder = await licensedHolder(app, seller, 'fast/bookkeeping');
    await readThroughRoutes(logged, HOST, holder.token, '/p2/fast/bookkeeping.json');
    const tokenHash = sha256Hex(holder.token);
    const thePackage = eq(packages.name, 'fast/bookkeeping');
    // What a sync and the reconciler write at each step (migration 0034): nothing a holder's access depends on.
    const at = new Date();
    await app.ctx.db
      .update(packages)
      .set({
        syncStatus: 'syncing',
        syncError: 'the last sync failed',
        lastSyncedAt: at,
        skippedReferences: [{ reference: 'v9.0', reason: 'no composer.json' }],
        lastReconciledAt: at,
        accessProblem: 'the code host refused the credential',
        accessProblemSince: at,
        accessProblemNotifiedAt: at,
        updatedAt: at,
      })
      .where(thePackage);
    await announcementsDelivered(app);
    expect(app.ctx.composerAccess.findView(tokenHash)).toBeDefined();
    const before = logged.requestLines().length;
    expect((await requestOnHost(app, HOST, '/p2/fast/bookkeeping.json', { token: holder.token })).status).toBe(200);
    expect(logged.requestLines().slice(before)).toEqual([]);

    // Any other change of the package is announced as before: the view is read again at the next request.
    await app.ctx.db.update(packages).set({ description: 'A widget, now described' }).where(thePackage);
    await announcementsDelivered(app);
    expect(app.ctx.composerAccess.findView(tokenHash)).toBeUndefined();
  });

  it('leaves other answers to the routes: another seller, the app host, HEAD', async () => {
    const { app } = logged;
    const holder = await licensedHolder(app, seller, 'fast/refusals');
    await readThroughRoutes(logged, HOST, holder.token, '/packages.json');
    const before = logged.requestLines().length;
    const otherSeller = await requestOnHost(app, 'someone-else.composer.localhost', '/packages.json', {
      token: holder.token,
    });
    expect(otherSeller.status).toBe(200);
    expect(jsonOf<{ 'available-packages': string[] }>(otherSeller)['available-packages']).toEqual([]);
    const onAppHost = await requestOnHost(app, 'localhost', '/packages.json', { token: holder.token });
    expect(onAppHost.status).toBe(404);
    const head = await requestOnHost(app, HOST, '/p2/fast/refusals.json', { token: holder.token, method: 'HEAD' });
    expect(head.status).toBe(200);
    // The other seller's host is a repository host and the token's view is held: the fast path answers it.
    expect(logged.requestLines().slice(before)).toEqual(['/packages.json', '/p2/fast/refusals.json']);
  });
});

describe('the warm fast path behind a trusted proxy', () => {
  let logged: LoggedApp;

  beforeAll(async () => {
    // Behind a TLS proxy on 443, as PUBLIC_URL says: dist URLs take its scheme and port, the proxy says which host.
    logged = await startLoggedApp({ TRUST_PROXY: '127.0.0.1', PUBLIC_URL: 'https://app.packgate.test' });
  });

  afterAll(async () => {
    await logged?.app.close();
  });

  it("names dist URLs by the forwarded host's known name and PUBLIC_URL's scheme, as the routes do", async () => {
    const { app } = logged;
    const seller = await createSeller(app, 'proxied');
    const holder = await licensedHolder(app, seller, 'proxied/lib');
    // The forwarded protocol and the header's case and trailing dot are the client's: the URL is the configured one.
    const forwarded = { 'x-forwarded-proto': 'http', 'x-forwarded-host': 'Proxied.Composer.Localhost.:8443' };
    const cold = await readThroughRoutes(logged, 'internal-name', holder.token, '/p2/proxied/lib.json', forwarded);
    const before = logged.requestLines().length;
    const warm = await requestOnHost(app, 'internal-name', '/p2/proxied/lib.json', {
      token: holder.token,
      headers: forwarded,
    });
    expect(observed(warm)).toEqual(observed(cold));
    const distUrls = (jsonOf<P2File>(warm).packages['proxied/lib'] ?? []).map((version) => version.dist.url);
    expect(distUrls).toHaveLength(2);
    for (const url of distUrls)
      expect(url.startsWith('https://proxied.composer.localhost/api/composer/download/')).toBe(true);
    expect(logged.requestLines().slice(before)).toEqual([]);
  });
});
