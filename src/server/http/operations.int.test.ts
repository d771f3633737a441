import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createGrant,
  createHolder,
  type FixtureHolder,
  jsonOf,
  requestOnHost,
} from '../../../test/composer/repository-fixtures.js';
import { addGitServerPackage } from '../../../test/support/dashboard-packages.js';
import { createDatabaseFromTemplate, loadPgliteTemplate } from '../../../test/support/database-template.js';
import { createPackageRepository } from '../../../test/support/git-fixtures.js';
import { TestClient } from '../../../test/support/http-client.js';
import { giveTrial } from '../../../test/support/packages.js';
import { createTestUser, type SignedIn, signInSeller } from '../../../test/support/sessions.js';
import { startTestApp, type TestApp, testDatabaseKind } from '../../../test/support/test-app.js';
import { apiErrorSchema } from '../../contract/errors.js';

// Operating Packgate (issue 35): Prometheus metrics at /metrics, readiness at /api/ready, and a request id on every
// answer, in error bodies and in the request's log line.

const SELLER_SLUG = 'opsmetrics';
const HOST = `${SELLER_SLUG}.composer.localhost`;

/** The value of one sample of the exposition text, or undefined when no line has that name and those labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const nameEnd = line.search(/[{ ]/);
    if (line.slice(0, nameEnd) !== name) continue;
    const labelText = line[nameEnd] === '{' ? line.slice(nameEnd + 1, line.lastIndexOf('}')) : '';
    if (!Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function scrape(app: TestApp, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.baseUrl}/metrics`, { headers });
}

async function pollUntil<T>(read: () => Promise<T>, isDone: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 30 s (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ready = async (app: TestApp) => {
  const response = await fetch(`${app.baseUrl}/api/ready`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('the operator’s doors of a running app', () => {
  let app: TestApp;
  const logLines: string[] = [];
  let seller: SignedIn;
  let holder: FixtureHolder;
  let packageId: string;

  beforeAll(async () => {
    app = await startTestApp({ logStream: { write: (line) => logLines.push(line) } });
    const reposDir = path.join(app.dataDir, 'repos');
    await createPackageRepository(path.join(reposDir, 'ops', 'widget.git'), {
      name: 'ops/widget',
      tags: ['v1.0.0'],
      bare: true,
    });
    seller = await signInSeller(app, { slug: SELLER_SLUG });
    await giveTrial(app, seller.user.id);
    const created = await addGitServerPackage(app, seller, 'ops/widget', 'Widgets');
    packageId = created.id;
    holder = await createHolder(app, seller.user, 'ops-holder@example.com');
    await createGrant(app, holder, { id: packageId });
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('/metrics', () => {
    it('counts Composer, API, sync, job and e-mail traffic in packgate_ families beside Node’s defaults', async () => {
      const metadataRequests = 4;
      let lastModified = '';
      for (let index = 0; index < metadataRequests; index++) {
        const answer = await requestOnHost(app, HOST, '/p2/ops/widget.json', { token: holder.token });
        expect(answer.status).toBe(200);
        lastModified = String(answer.headers['last-modified']);
      }
      expect((await requestOnHost(app, HOST, '/packages.json', { token: holder.token })).status).toBe(200);
      const revalidated = await requestOnHost(app, HOST, '/p2/ops/widget.json', {
        token: holder.token,
        headers: { 'if-modified-since': lastModified },
      });
      expect(revalidated.status).toBe(304);
      const unlicensed = await requestOnHost(app, HOST, '/p2/ops/other.json', { token: holder.token });
      expect(unlicensed.status).toBe(404);
      const apiAnswer = await seller.client.get(`/api/repositories/${packageId}`);
      expect(apiAnswer.status).toBe(200);
      const admin = await createTestUser(app, { userType: 'admin', email: 'ops-admin@example.com' });
      const mailed = await new TestClient(app.baseUrl).post('/api/auth/magic-link', {
        email: admin.email,
        userType: 'admin',
      });
      expect(mailed.status).toBe(200);

      const response = await scrape(app);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();

      const requests = (route: string, status: string) =>
        sample(text, 'packgate_http_requests_total', { route, status }) ?? 0;
      expect(requests('composer:metadata', '200')).toBeGreaterThanOrEqual(metadataRequests);
      expect(requests('composer:metadata', '304')).toBeGreaterThanOrEqual(1);
      expect(requests('composer:metadata', '404')).toBeGreaterThanOrEqual(1);
      expect(requests('composer:packages', '200')).toBeGreaterThanOrEqual(1);
      expect(requests('/api/repositories', '201')).toBe(1);
      expect(requests('/api/repositories/:id', '200')).toBeGreaterThanOrEqual(1);
      expect(
        sample(text, 'packgate_http_request_duration_seconds_count', { route: 'composer:metadata', status: '200' }),
      ).toBeGreaterThanOrEqual(metadataRequests);
      expect(
        sample(text, 'packgate_http_request_duration_seconds_bucket', {
          route: 'composer:metadata',
          status: '200',
          le: '+Inf',
        }),
      ).toBeGreaterThanOrEqual(metadataRequests);

      // The first p2 request read the token's view, the others found it held.
      expect(sample(text, 'packgate_composer_cache_misses_total')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'packgate_composer_cache_hits_total')).toBeGreaterThanOrEqual(metadataRequests - 1);
      expect(sample(text, 'packgate_composer_cache_bytes', { kind: 'held' })).toBeGreaterThan(0);
      expect(sample(text, 'packgate_composer_cache_bytes', { kind: 'max' })).toBe(app.ctx.config.composerCacheMaxBytes);

      expect(sample(text, 'packgate_access_feed_listening')).toBe(1);
      expect(sample(text, 'packgate_access_feed_reconnects_total')).toBe(0);
      expect(sample(text, 'packgate_access_feed_lag_seconds')).toBeGreaterThanOrEqual(0);

      expect(sample(text, 'packgate_package_syncs_total', { outcome: 'ready' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'packgate_package_syncs_total', { outcome: 'failed' })).toBe(0);
      expect(
        sample(text, 'packgate_job_attempts_total', { kind: 'package-sync', outcome: 'completed' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'packgate_job_duration_seconds_count', { kind: 'package-sync' })).toBeGreaterThanOrEqual(1);
      expect(text).toContain('# TYPE packgate_jobs gauge');
      expect(sample(text, 'packgate_emails_total', { outcome: 'sent' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'packgate_emails_total', { outcome: 'failed' })).toBe(0);
      expect(sample(text, 'packgate_webhook_deliveries_total', { outcome: 'delivered' })).toBe(0);
      expect(text).toContain('# TYPE packgate_overload_shed_total counter');

      expect(sample(text, 'packgate_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'packgate_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      // Node's defaults: event-loop delay, heap and resident memory.
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    });

    it('refuses a request that a proxy forwarded when no METRICS_TOKEN is set', async () => {
      for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
        const response = await scrape(app, { [header]: header === 'forwarded' ? 'for=203.0.113.7' : '203.0.113.7' });
        expect(response.status).toBe(403);
        const body = apiErrorSchema.strict().parse(await response.json());
        expect(body.code).toBe('FORBIDDEN');
        expect(body.message).toContain('METRICS_TOKEN');
        expect(JSON.stringify(body)).not.toContain('packgate_');
      }
    });

    it('answers only the right bearer token once METRICS_TOKEN is set', async () => {
      const token = 'a-long-enough-metrics-token-for-the-test';
      app.ctx.config.metricsToken = token;
      try {
        const missing = await scrape(app);
        expect(missing.status).toBe(401);
        expect(apiErrorSchema.strict().parse(await missing.json()).code).toBe('UNAUTHENTICATED');
        const wrong = await scrape(app, { authorization: `Bearer ${token}x` });
        expect(wrong.status).toBe(403);
        const wrongBody = await wrong.text();
        expect(apiErrorSchema.strict().parse(JSON.parse(wrongBody)).code).toBe('FORBIDDEN');
        expect(wrongBody).not.toContain('packgate_http');
        const right = await scrape(app, { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.7' });
        expect(right.status).toBe(200);
        expect(await right.text()).toContain('packgate_http_requests_total');
      } finally {
        delete app.ctx.config.metricsToken;
      }
    });
  });

  describe('X-Request-Id', () => {
    it('names every answer, accepts a short safe incoming id and replaces any other', async () => {
      const health = await fetch(`${app.baseUrl}/api/health`);
      expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const other = await fetch(`${app.baseUrl}/api/health`);
      expect(other.headers.get('x-request-id')).not.toBe(health.headers.get('x-request-id'));
      const passed = await fetch(`${app.baseUrl}/api/health`, { headers: { 'x-request-id': 'lb-7f3a:42' } });
      expect(passed.headers.get('x-request-id')).toBe('lb-7f3a:42');
      for (const unsafe of ['x'.repeat(65), 'a b', 'id"}', '%C3%A9vian', '']) {
        const replaced = await fetch(`${app.baseUrl}/api/health`, { headers: { 'x-request-id': unsafe } });
        expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it('is in the error body and in the log line of the request', async () => {
      const response = await fetch(`${app.baseUrl}/api/no-such-thing`, {
        headers: { 'x-request-id': 'support-case-42' },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('x-request-id')).toBe('support-case-42');
      const body = apiErrorSchema.strict().parse(await response.json());
      expect(body.requestId).toBe('support-case-42');
      const line = await pollUntil(
        async () => logLines.find((entry) => entry.includes('"reqId":"support-case-42"')),
        (found) => found !== undefined,
        'the log line of the request',
      );
      expect(JSON.parse(line!)).toMatchObject({ reqId: 'support-case-42' });
    });

    it('names the warm Composer answers too, and their quiet 404 names it in its body', async () => {
      await requestOnHost(app, HOST, '/p2/ops/widget.json', { token: holder.token });
      const warm = await requestOnHost(app, HOST, '/p2/ops/widget.json', {
        token: holder.token,
        headers: { 'x-request-id': 'composer-run-1' },
      });
      expect(warm.status).toBe(200);
      expect(warm.headers['x-request-id']).toBe('composer-run-1');
      const refused = await requestOnHost(app, HOST, '/p2/ops/other.json', { token: holder.token });
      expect(refused.status).toBe(404);
      const id = refused.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(jsonOf(refused).requestId).toBe(id);
      // A refusal Fastify answers (an unknown token) carries it as well.
      const unknown = await requestOnHost(app, HOST, '/packages.json', { token: 'pgc_not-a-token' });
      expect(unknown.status).toBeGreaterThanOrEqual(400);
      expect(jsonOf(unknown).requestId).toBe(unknown.headers['x-request-id']);
    });
  });

  describe('/api/ready', () => {
    it('answers 200 with every check passed, then 503 naming the shutdown once the app is closing', async () => {
      const before = await ready(app);
      expect(before).toEqual({
        status: 200,
        body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', accessFeed: 'ok', shutdown: 'ok' } },
      });
      app.beginShutdown();
      const closing = await ready(app);
      expect(closing.status).toBe(503);
      expect(closing.body).toMatchObject({
        code: 'UNAVAILABLE',
        checks: { database: 'ok', migrations: 'ok', accessFeed: 'ok', shutdown: 'failed' },
      });
      expect(closing.body.message).toContain('shutting down');
      // Liveness stays what it was: the process answers.
      expect((await fetch(`${app.baseUrl}/api/health`)).status).toBe(200);
    });
  });
});

/** A TCP relay to PostgreSQL that the test can cut and restore, as a network failure or a failover would. */
async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = tcpConnect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as { port: number }).port;
        server = next;
        resolve();
      });
    });
  await open();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closing;
    },
    restore: open,
  };
}

const describeOnPostgres = testDatabaseKind() === 'postgres' ? describe : () => {};
const describeOnPglite = testDatabaseKind() === 'pglite' ? describe : () => {};

describeOnPostgres('/api/ready on PostgreSQL', () => {
  let app: TestApp;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let drop: () => Promise<void>;
  let dataDir: string;

  beforeAll(async () => {
    const database = await createDatabaseFromTemplate(
      process.env.TEST_DATABASE_URL!,
      inject('postgresTemplate') ?? 'template1',
    );
    drop = database.drop;
    const url = new URL(database.url);
    relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    dataDir = mkdtempSync(path.join(tmpdir(), 'packgate-ready-'));
    app = await startTestApp({
      existing: { database: { kind: 'postgres', url: url.toString(), migrated: true }, dataDir },
    });
  });

  afterAll(async () => {
    await relay?.restore().catch(() => undefined);
    await app?.close();
    await drop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('turns 503 when the connection to PostgreSQL is cut and 200 when it returns', async () => {
    expect((await ready(app)).status).toBe(200);
    await relay.cut();
    const cut = await pollUntil(
      () => ready(app),
      (answer) => answer.status === 503,
      'a 503 after the cut',
    );
    expect(cut.body).toMatchObject({ code: 'UNAVAILABLE', checks: { database: 'failed', shutdown: 'ok' } });
    expect(cut.body.message).toContain('the database does not answer');
    expect(cut.body.requestId).toEqual(expect.any(String));

    await relay.restore();
    const back = await pollUntil(
      () => ready(app),
      (answer) => answer.status === 200,
      'a 200 after the connection returned',
    );
    expect(back.body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', accessFeed: 'ok', shutdown: 'ok' },
    });
    const metrics = await (await scrape(app)).text();
    expect(sample(metrics, 'packgate_access_feed_reconnects_total')).toBeGreaterThanOrEqual(1);
  });
});

describeOnPglite('/api/ready on PGlite', () => {
  let app: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    const template = inject('pgliteTemplate');
    dataDir = mkdtempSync(path.join(tmpdir(), 'packgate-ready-'));
    app = await startTestApp({
      existing: {
        database: {
          kind: 'pglite',
          migrated: Boolean(template),
          sharedBuffers: '16MB',
          ...(template ? { loadDataDir: await loadPgliteTemplate(template) } : {}),
        },
        dataDir,
      },
    });
  });

  afterAll(async () => {
    await app?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('turns 503 naming the database once the database is closed', async () => {
    expect((await ready(app)).status).toBe(200);
    await (app.ctx.db as unknown as { $client: { close(): Promise<void> } }).$client.close();
    const closed = await ready(app);
    expect(closed.status).toBe(503);
    expect(closed.body).toMatchObject({
      code: 'UNAVAILABLE',
      checks: { database: 'failed', migrations: 'unknown', accessFeed: 'ok', shutdown: 'ok' },
    });
  });
});
