import { readdirSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_V1_RATE_LIMIT } from '../../src/contract/developer.js';
import { sessionCookieName } from '../../src/server/http/session.js';
import { DAY_MS } from '../../src/server/lib/clock.js';
import { createGrant, createHolder, createPackage, createSeller } from '../composer/repository-fixtures.js';
import { startBusyStallMonitor } from './busy-stall-monitor.js';
import { checkAnswer, checkHostRefusal, type Violation } from './fuzz-answers.js';
import { type FuzzFixtures, hostileHosts, InputGenerator, type Route } from './fuzz-inputs.js';
import { FUZZ_SHARDS, isRepositoryHostRoute, jsonRoutes, routesOf, shardRoutes } from './fuzz-routes.js';
import { giveTrial } from './packages.js';
import { sendRaw } from './raw-http.js';
import { createPortalSession, createTestSession } from './sessions.js';
import { startTestApp, type TestApp } from './test-app.js';

// Hostile input against every route the app has, found from the router itself so that routes added later
// (API v1, ...) are fuzzed without editing a file. The routes are split into FUZZ_SHARDS shards, one test file each
// (src/server/http/fuzz-shard-N.int.test.ts) with its own app, so that the run is no single long tail. Each route gets
// INPUTS_PER_ROUTE generated requests from a generator seeded by the route (the same inputs every run, whichever
// shard sends them): hostile strings, NUL and other control characters, huge numbers, wrong types, deep nesting,
// long strings, prototype keys, odd headers and hosts, as an anonymous caller, as a signed-in seller with a CSRF
// token (a license holder's portal session on the portal's doors), and with a bearer token (an API token on /api/v1,
// a Composer token elsewhere). Nothing may answer 5xx, show a stack trace, or refuse in anything but the error shape.
// A Host that is not hostname[:port] (userinfo, paths, ports, raw IDNs, very long names) must be refused with 400,
// through inject and over a real socket (where Node's parser and the Composer fast path see it first). The event
// loop's delay is measured and reported.

// FUZZ_INPUTS_PER_ROUTE runs a shorter pass while investigating a finding. A run sends each input once: when it has a
// PostgreSQL pass (TEST_DATABASE_URL), that pass sends the last quarter of every route's inputs and the PGlite pass
// the first three quarters; without one, PGlite sends them all. The passes run the same code on the same engine
// (PGlite is PostgreSQL compiled to WebAssembly); the PostgreSQL pass also meets what differs there (Redis, the pg
// driver's errors). Before, the PostgreSQL pass sent again the first quarter PGlite had sent, and the PGlite pass was
// a fifth of the suite's CPU.
const INPUTS_PER_ROUTE = Number(process.env.FUZZ_INPUTS_PER_ROUTE ?? 1_000);
const POSTGRES_SHARE = 0.25;

/** The indexes [from, to) of each route's inputs this pass sends. */
function inputRange(): { from: number; to: number } {
  if (!process.env.TEST_DATABASE_URL) return { from: 0, to: INPUTS_PER_ROUTE };
  const split = Math.round(INPUTS_PER_ROUTE * (1 - POSTGRES_SHARE));
  return process.env.PACKGATE_TEST_DB === 'postgres' ? { from: split, to: INPUTS_PER_ROUTE } : { from: 0, to: split };
}
const INPUTS = inputRange();
const INPUTS_SENT_PER_ROUTE = INPUTS.to - INPUTS.from;
const BATCH = 25;
// The bound is 100 ms per request. The loop-delay monitor cannot tell our code from the scheduler (a shard
// saw 37 s at load 20), so its figures (max, p99, mean) are printed, and what fails is a loop held by our own work:
// a turn of the loop that burned this much CPU (the freeze the issue found held it 194 s on one request).
const BUSY_STALL_MS = 10_000;
const REPOSITORY_HOST = 'acme.composer.localhost';
// The rate limits count only requests from this address (the limiter's own test below): a fuzz input answered 429
// never reaches the route's checks, and a quarter of them were before.
const RATE_LIMITED_ADDRESS = '203.0.113.7';

type Identity = 'anonymous' | 'seller' | 'bearer';
type Fixtures = FuzzFixtures & { apiToken: string; portalHolder: FuzzFixtures['holder'] };
/** Of the generated requests, the share sent with one of hostileHosts' Host headers. */
const HOSTILE_HOST_SHARE = 0.05;

/** A route's own seed, so that its inputs do not depend on which shard sends them or in which order. */
function routeSeed(route: Route): number {
  let hash = 0x5eed;
  for (const character of `${route.method} ${route.url}`) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

/** Keeps the five slowest answers (wall time, which includes waiting behind the rest of the batch). */
function noteSlowest(slowest: Array<{ ms: number; request: string }>, ms: number, request: string): void {
  if (slowest.length === 5 && ms <= slowest[4]!.ms) return;
  slowest.push({ ms: Math.round(ms), request });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 5);
}

/** The shard files beside `testFile`: `fuzz-shard-1.int.test.ts` ... */
function shardFiles(testFile: string): string[] {
  return readdirSync(path.dirname(testFile)).filter((name) => /^fuzz-shard-\d+\.int\.test\.ts$/.test(name));
}

/** Defines the fuzz test of shard `shard` (1-based) in the calling test file. */
export function fuzzShard(shard: number, testFile: string): void {
  let app: TestApp;
  let fixtures: Fixtures;
  let allRoutes: Route[];

  beforeAll(async () => {
    app = await startTestApp({ rateLimitExempt: (request) => request.ip !== RATE_LIMITED_ADDRESS });
    const seller = await createSeller(app, 'acme');
    await giveTrial(app, seller.id);
    const pkg = await createPackage(app, seller, 'acme/widget', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
      { version: 'dev-main', kind: 'branch', releasedAt: '2026-02-25T10:00:00Z' },
    ]);
    const holder = await createHolder(app, seller, 'holder@example.com');
    await createGrant(app, holder, pkg);
    // The portal's signed-in doors rotate a holder's token: another holder's, so the bearer above keeps working.
    const portalHolder = await createHolder(app, seller, 'portal-holder@example.com');
    await createGrant(app, portalHolder, pkg);
    fixtures = { seller, pkg, holder, portalHolder, apiToken: '' };
    const created = await app.app.inject({
      method: 'POST',
      url: '/api/developer/tokens',
      headers: await sellerHeaders(),
      payload: { name: 'fuzz', permissions: ['*'] },
    });
    const { token } = created.json() as { token?: string };
    if (!token) throw new Error(`No API token: ${created.statusCode} ${created.body}`);
    fixtures.apiToken = token;
    allRoutes = await jsonRoutes(app, routesOf(app.app.printRoutes({ commonPrefix: false })));
  });

  afterAll(async () => {
    await app?.close();
  });

  /** A signed-in seller of its own per route (a fuzzed logout ends only that one) and its CSRF token. */
  async function sellerHeaders(): Promise<Record<string, string>> {
    const cookie = `${sessionCookieName(app.ctx)}=${await createTestSession(app, fixtures.seller.id)}`;
    const answer = await app.app.inject({ method: 'GET', url: '/api/csrf-token', headers: { cookie } });
    const { csrfToken } = answer.json() as { csrfToken?: string };
    if (!csrfToken) throw new Error(`No CSRF token: ${answer.statusCode} ${answer.body}`);
    return { cookie, 'x-csrf-token': csrfToken };
  }

  /** A license holder signed in to the portal on the repository host (a session of its own per route), with CSRF. */
  async function portalHolderHeaders(): Promise<Record<string, string>> {
    const session = await createPortalSession(app, fixtures.portalHolder.id, DAY_MS);
    const portalCookie = `${app.ctx.config.isHttps ? '__Host-packgate_portal' : 'packgate_portal'}=${session}`;
    const host = `${REPOSITORY_HOST}:${app.port}`;
    const answer = await app.app.inject({
      method: 'GET',
      url: '/api/csrf-token',
      headers: { host, cookie: portalCookie },
    });
    const { csrfToken } = answer.json() as { csrfToken?: string };
    if (!csrfToken) throw new Error(`No portal CSRF token: ${answer.statusCode} ${answer.body}`);
    const setCookies = [answer.headers['set-cookie'] ?? []].flat().map((header) => String(header).split(';')[0]);
    return { cookie: [portalCookie, ...setCookies].join('; '), 'x-csrf-token': csrfToken };
  }

  describe(`fuzzing the routes of shard ${shard} of ${FUZZ_SHARDS}`, () => {
    it('leaves no route of the router to no shard', () => {
      const files = shardFiles(testFile);
      expect(files.sort()).toEqual(
        Array.from({ length: FUZZ_SHARDS }, (_, index) => `fuzz-shard-${index + 1}.int.test.ts`).sort(),
      );
      const sharded = Array.from({ length: FUZZ_SHARDS }, (_, index) => shardRoutes(allRoutes, index, FUZZ_SHARDS));
      const names = (routes: Route[]) => routes.map((route) => `${route.method} ${route.url}`).sort();
      expect(names(sharded.flat())).toEqual(names(allRoutes));
      expect(allRoutes.length).toBeGreaterThan(30);
      expect(sharded.every((routes) => routes.length > 0)).toBe(true);
    });

    if (shard === 1) {
      it('answers requests over a rate limit with 429 in the error shape', async () => {
        const route = { method: 'GET', url: '/api/v1/packages' };
        const answers = [];
        for (let index = 0; index <= API_V1_RATE_LIMIT.max; index++) {
          answers.push(await app.app.inject({ ...route, remoteAddress: RATE_LIMITED_ADDRESS } as InjectOptions));
        }
        const last = answers.at(-1)!;
        expect(answers.slice(0, -1).map((answer) => answer.statusCode)).not.toContain(429);
        expect(last.statusCode).toBe(429);
        expect(last.headers['retry-after']).toBeDefined();
        const request = `anonymous GET ${route.url}`;
        expect(checkAnswer(route, request, last.statusCode, String(last.headers['content-type']), last.body)).toBe(
          undefined,
        );
      });
    }

    it(`answers hostile inputs ${INPUTS.from}–${INPUTS.to - 1} of each route's ${INPUTS_PER_ROUTE} without a 5xx, a stack trace or a foreign error shape`, {
      // A shard took 525 s at a load of 20 on 2 cores: the timeout must not be what fails a slow machine.
      timeout: 1_800_000,
    }, async () => {
      const routes = shardRoutes(allRoutes, shard - 1, FUZZ_SHARDS);
      const violations: Violation[] = [];
      const statuses = new Map<number, number>();
      let sent = 0;
      const slowest: Array<{ ms: number; request: string }> = [];
      const loop = monitorEventLoopDelay({ resolution: 10 });
      const busyStalls = startBusyStallMonitor();
      const startedAt = performance.now();
      const cpuAtStart = process.cpuUsage();
      loop.enable();

      // CPU seconds per route: under load the wall clock mostly measures the other processes.
      const routeCpu: Array<{ route: string; cpuSeconds: number }> = [];
      for (const route of routes) {
        const routeCpuAtStart = process.cpuUsage();
        const generator = new InputGenerator(fixtures, routeSeed(route));
        const bearer = route.url.startsWith('/api/v1/') ? fixtures.apiToken : fixtures.holder.token;
        // A shed answer (503) is retried: the request that stalled the loop is reported, not the one after it.
        const seller = await vi.waitFor(sellerHeaders, { timeout: 30_000, interval: 250 });
        const isPortalRoute = route.url.startsWith('/api/portal/');
        const signedIn = isPortalRoute ? await portalHolderHeaders() : seller;
        const hosts = hostileHosts(REPOSITORY_HOST, app.port);
        for (let start = 0; start < INPUTS.to; start += BATCH) {
          const batch: Promise<void>[] = [];
          for (let index = start; index < Math.min(start + BATCH, INPUTS.to); index++) {
            const identity: Identity = index % 10 < 5 ? 'anonymous' : index % 10 < 8 ? 'seller' : 'bearer';
            const { payload, contentType } = generator.body(route.method);
            const headers: Record<string, string> = { ...generator.oddHeaders() };
            if (contentType && payload !== undefined) headers['content-type'] = contentType;
            if (identity === 'seller') Object.assign(headers, signedIn);
            if (identity === 'bearer') headers.authorization = `Bearer ${bearer}`;
            if (identity === 'anonymous' && generator.chance(0.1)) {
              headers.authorization = generator.pick([
                'Basic !!!',
                'Bearer ',
                `Basic ${btoa('token:\u0000')}`,
                'Digest x',
              ]);
            }
            const onRepositoryHost = isRepositoryHostRoute(route) ? generator.chance(0.8) : generator.chance(0.05);
            headers.host = onRepositoryHost ? `${REPOSITORY_HOST}:${app.port}` : `localhost:${app.port}`;
            const oddHost = generator.chance(HOSTILE_HOST_SHARE) ? generator.pick(hosts) : undefined;
            if (oddHost) headers.host = oddHost.host;
            const options: InjectOptions = {
              method: route.method as InjectOptions['method'],
              url: generator.path(route),
              headers,
              ...(payload !== undefined ? { payload } : {}),
            };
            // Each input is drawn from the route's generator in order, so the later ones are the same whichever pass
            // sends them; the other pass sends those before `from`.
            if (index < INPUTS.from) continue;
            const requestStartedAt = performance.now();
            batch.push(
              app.app.inject(options).then((answer) => {
                sent++;
                const hostNote = oddHost ? ` (Host ${oddHost.host.slice(0, 80)})` : '';
                const description = `${identity} ${options.method} ${String(options.url).slice(0, 200)}${hostNote}`;
                noteSlowest(slowest, performance.now() - requestStartedAt, description.slice(0, 160));
                statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
                const violation = (oddHost && !oddHost.isValid ? checkHostRefusal('inject') : checkAnswer)(
                  route,
                  description,
                  answer.statusCode,
                  answer.headers['content-type'] as string | undefined,
                  answer.body,
                );
                if (violation) violations.push(violation);
              }),
            );
          }
          await Promise.all(batch);
        }
        // The target in absolute form, over a real socket: CSRF and routing must read the parsed path.
        const absolutePath = generator.path(route);
        const absolute = await sendRaw(
          app.port,
          `${route.method} http://localhost:${app.port}${absolutePath} HTTP/1.1\r\nHost: localhost:${app.port}\r\nCookie: ${seller.cookie}`,
        );
        sent++;
        const absoluteViolation = checkAnswer(
          route,
          `seller ${route.method} ${absolutePath.slice(0, 200)} (absolute-form)`,
          absolute.status,
          absolute.headers['content-type'],
          absolute.body,
        );
        if (absoluteViolation) violations.push(absoluteViolation);
        // Every odd Host over a real socket: Node's parser and the Composer fast path see it before Fastify does.
        // A short target of the route's own shape, so that what is judged is the Host, not the request's size.
        const target = route.url.replace(/:(\w+)/g, (_match, name: string) => generator.paramValue(name).slice(0, 100));
        for (const { host, isValid } of hosts) {
          const bearer = route.url.startsWith('/api/v1/') ? fixtures.apiToken : fixtures.holder.token;
          // A socket Node resets after refusing the request is a refusal too (status NaN, as an unanswered close).
          const answer = await sendRaw(
            app.port,
            `${route.method} ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${bearer}`,
          ).catch(() => ({ status: Number.NaN, headers: {} as Record<string, string>, body: '' }));
          sent++;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const description = `bearer ${route.method} ${target.slice(0, 200)} (Host ${host.slice(0, 80)}, socket)`;
          const violation = (isValid ? checkAnswer : checkHostRefusal('socket'))(
            route,
            description,
            answer.status,
            answer.headers['content-type'],
            answer.body,
          );
          if (violation) violations.push(violation);
        }
        const used = process.cpuUsage(routeCpuAtStart);
        routeCpu.push({
          route: `${route.method} ${route.url}`,
          cpuSeconds: Math.round((used.user + used.system) / 1e5) / 10,
        });
      }

      loop.disable();
      busyStalls.stop();
      const cpu = process.cpuUsage(cpuAtStart);
      const figures = {
        shard: `${shard}/${FUZZ_SHARDS}`,
        routes: routes.length,
        requestsSent: sent,
        seconds: Math.round((performance.now() - startedAt) / 100) / 10,
        cpuSeconds: Math.round((cpu.user + cpu.system) / 1e5) / 10,
        eventLoopDelayMs: {
          max: Math.round(loop.max / 1e5) / 10,
          p99: Math.round(loop.percentile(99) / 1e5) / 10,
          mean: Math.round(loop.mean / 1e5) / 10,
        },
        longestBusyStallMs: Math.round(busyStalls.longestBusyStallMs()),
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
        violations: violations.length,
        slowestRequests: slowest,
        costliestRoutes: routeCpu.sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, 8),
      };
      console.log(`fuzz figures: ${JSON.stringify(figures)}`);
      expect(violations.slice(0, 20)).toEqual([]);
      expect(sent).toBeGreaterThanOrEqual(routes.length * INPUTS_SENT_PER_ROUTE);
      expect(busyStalls.longestBusyStallMs()).toBeLessThan(BUSY_STALL_MS);
    });
  });
}
