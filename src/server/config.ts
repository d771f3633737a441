import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

// The one reader of process.env: every setting is parsed here and documented in the README.

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

const optionalUrl = optionalText.pipe(z.url().optional());

// `1.1.1.1`, `127.0.0.1:5353`, `[2606:4700::1111]:53` or a bare IPv6 address, separated by commas.
const DNS_SERVER = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|\[[0-9a-fA-F:.]+\](?::\d{1,5})?|[0-9a-fA-F.]*:[0-9a-fA-F.]*:[0-9a-fA-F:.]*)`;
const DNS_SERVER_LIST = new RegExp(`^${DNS_SERVER}(?:\\s*,\\s*${DNS_SERVER})*$`);
const HOST_LABEL = /^[a-z0-9-]{1,63}$/i;

/** A WEBHOOK_ALLOWED_HOSTS entry: an IP address, a CIDR range (`127.0.0.0/8`, `::1/128`) or a host name. */
function isWebhookAllowEntry(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  if (bits !== undefined) return isIP(address) !== 0 && /^\d{1,3}$/.test(bits);
  return isIP(address) !== 0 || (address.length <= 253 && address.split('.').every((label) => HOST_LABEL.test(label)));
}

/**
 * TRUST_PROXY, in the forms Fastify's `trustProxy` takes: false (no proxy); a number of proxy hops in front of
 * the app; or the addresses (IPs or CIDRs) of the proxies. Trusting every hop would let any client choose its own
 * address with X-Forwarded-For and so escape every per-IP limit: `true` means one proxy, the usual setup.
 */
export type TrustProxy = false | number | string[];

const MAX_TRUSTED_PROXIES = 100;

/**
 * The setting as Fastify's `trustProxy` option. Fastify ignores a bare hop count (it cannot tell a proxy from a
 * direct client), so hops become a function: the n addresses nearest the app are proxies, the next is the client.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

function isProxyAddress(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (prefix.length === 0 || prefix.length > 3 || ![...prefix].every((char) => char >= '0' && char <= '9')) {
    return false;
  }
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxySetting = z
  .string()
  .max(4096)
  .optional()
  .transform((value, context): TrustProxy => {
    const text = value?.trim().toLowerCase() ?? '';
    if (['', 'false', '0', 'no'].includes(text)) return false;
    if (['true', 'yes'].includes(text)) return 1;
    if ([...text].every((char) => char >= '0' && char <= '9')) {
      const hops = Number(text);
      if (hops <= MAX_TRUSTED_PROXIES) return hops === 0 ? false : hops;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    if (entries.length <= MAX_TRUSTED_PROXIES && entries.every(isProxyAddress)) return entries;
    context.addIssue({
      code: 'custom',
      message:
        "must be false, a number of proxy hops (1, 2, ...) or the proxies' IP addresses or CIDR ranges, separated by commas",
    });
    return z.NEVER;
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  // Loopback unless told otherwise: `localhost` is every address it resolves to (127.0.0.1 and ::1), so a default
  // start is not reachable from the network its banner does not name (issue 36).
  HOST: z.string().trim().min(1).default('localhost'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  SECRET_KEY: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Packgate <no-reply@packgate.localhost>'),
  GITHUB_CLIENT_ID: optionalText,
  GITHUB_CLIENT_SECRET: optionalText,
  GITHUB_WEB_URL: z.url().default('https://github.com'),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  GITHUB_APP_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,20}$/, 'must be the App ID, a number')
      .optional(),
  ),
  GITHUB_APP_PRIVATE_KEY: optionalText,
  GITHUB_APP_PRIVATE_KEY_FILE: optionalText,
  GITHUB_APP_SLUG: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'must be the App slug of its public page (lower-case letters, digits, -)')
      .optional(),
  ),
  GITHUB_APP_WEBHOOK_SECRET: optionalText,
  GIT_REPOS_DIR: optionalText,
  COMPOSER_DOMAIN: z.string().default('composer.localhost'),
  DNS_SERVERS: optionalText.pipe(
    z.string().regex(DNS_SERVER_LIST, 'must be IP addresses, with an optional port, separated by commas').optional(),
  ),
  WEBHOOK_ALLOWED_HOSTS: optionalText.pipe(
    z
      .string()
      .max(2000)
      .refine(
        (list) => list.split(',').every((entry) => isWebhookAllowEntry(entry.trim())),
        'must be host names, IP addresses or CIDR ranges, separated by commas',
      )
      .optional(),
  ),
  CODE_HOST_ALLOW_PRIVATE_NETWORKS: booleanFlag,
  GITLAB_URL: z.url().default('https://gitlab.com'),
  GITLAB_CLIENT_ID: optionalText,
  GITLAB_CLIENT_SECRET: optionalText,
  BITBUCKET_API_URL: z.url().default('https://api.bitbucket.org/2.0'),
  BITBUCKET_WEB_URL: z.url().default('https://bitbucket.org'),
  CODE_HOST_RECONCILE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(360),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanFlag,
  SUPPORT_EMAIL: z.email().default('support@packgate.localhost'),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_TEST_SECRET_KEY: optionalText,
  STRIPE_TEST_WEBHOOK_SECRET: optionalText,
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalText,
  STRIPE_TEST_CONNECT_WEBHOOK_SECRET: optionalText,
  STRIPE_API_URL: z.url().default('https://api.stripe.com'),
  ENABLE_DEBUG_ROUTES: booleanFlag,
  NODE_ENV: optionalText,
  TRUST_PROXY: trustProxySetting,
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 60),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().int().positive().default(30),
  ACCOUNT_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(20),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  PACKGATE_TEST_CRASH_AT: optionalText,
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  COMPOSER_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  // PostgreSQL's own form, as in postgresql.conf: db/client.ts (PGLITE_SHARED_BUFFERS) says what it costs.
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[0-9]{1,7}(kB|MB|GB)$/, 'must be a size such as 16MB or 128MB')
    .default('16MB'),
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').max(256).optional()),
  OIDC_ALLOW_PRIVATE_ISSUERS: booleanFlag,
  SECRET_SCANNING_KEYS_URL: z.url().default('https://api.github.com/meta/public_keys/secret_scanning'),
});

/** Every environment variable the server reads (.env.example and the README list the same). */
export const SETTING_NAMES = Object.keys(envSchema.shape);

/**
 * Files under a folder (the embedded default, DATA_DIR/storage), or an S3-compatible bucket (`S3_*`).
 * Declared here, not in the storage adapter, so that reading settings never loads an adapter.
 */
export type StorageConfig =
  | { kind: 'files'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle?: boolean;
    };

/** The embedded default's folder: DATA_DIR/storage. */
export function storageDirFor(dataDir: string): string {
  return path.join(dataDir, 'storage');
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  isHttps: boolean;
  databaseUrl?: string;
  redisUrl?: string;
  secretKey: string;
  smtpUrl?: string;
  mailFrom: string;
  github?: { clientId: string; clientSecret: string; webUrl: string; apiUrl: string };
  /** The GitHub App code comes through (GITHUB_APP_*; github.com or GHES by GITHUB_WEB_URL/GITHUB_API_URL). */
  githubApp?: GithubAppConfig;
  gitReposDir: string;
  composerDomain: string;
  /** DNS servers for custom-domain verification and webhook deliveries; undefined: the system's. */
  dnsServers?: string[];
  /** Hosts, addresses or CIDR ranges webhooks may reach although private (tests: loopback); empty by default. */
  webhookAllowedHosts: string[];
  /** GitLab: the instance OAuth connects to (GITLAB_URL) and its OAuth application, if registered; tokens work without. */
  gitlab: { url: string; oauth?: { clientId: string; clientSecret: string } };
  /** Bitbucket Cloud's API and the web address git clones from. */
  bitbucket: { apiUrl: string; webUrl: string };
  /** Whether repository URLs may point at private, loopback or link-local addresses (tests: git on loopback). */
  codeHostAllowPrivateNetworks: boolean;
  /** How often every package's remote tags and branches are compared with what is published (issue 30 item 5). */
  codeHostReconcileMinutes: number;
  storage: StorageConfig;
  supportEmail: string;
  /** Stripe key pairs; the admin's sandbox setting picks one at start-up. Neither set: billing off. */
  stripe: StripeConfig;
  enableDebugRoutes: boolean;
  /** Which X-Forwarded-* hops to believe (client IPs for rate limits, https detection); false: none. */
  trustProxy: TrustProxy;
  session: { idleMs: number; absoluteMs: number };
  /** How long a closed seller account's personal data is kept before it is erased (issue 35). */
  accountRetentionMs: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** On SIGTERM/SIGINT, how long in-flight work may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** How long a job's claim holds without renewal: a killed process's job is taken over by another after it. */
  jobLeaseMs: number;
  /** Shed requests (503) when the event loop's mean delay over a second exceeds this; 0 turns the check off. */
  overloadMaxEventLoopDelayMs: number;
  /** Bytes the Composer repository's warm path may hold (token views, versions, rendered metadata); 0: none. */
  composerCacheMaxBytes: number;
  /** The embedded database's shared_buffers (PGlite only). */
  pgliteSharedBuffers: string;
  /** The bearer token /metrics asks for; unset: /metrics answers only loopback requests that no proxy forwarded. */
  metricsToken?: string;
  /** Whether CI identities' OIDC issuers may be http:// or private, loopback or link-local (tests: loopback). */
  oidcAllowPrivateIssuers: boolean;
  /** Where GitHub publishes the keys that sign its secret scanning reports (issue 32; tests: a fake on loopback). */
  secretScanningKeysUrl: string;
  /** Tests only (PACKGATE_TEST_CRASH_AT): the named step at which the process kills itself (lib/crash-points.ts). */
  testCrashAt?: string;
};

export type StripeKeyPair = {
  secretKey: string;
  webhookSecret: string;
  /** The signing secret of the Connect endpoint (sellers' accounts' events); the platform's when unset. */
  connectWebhookSecret?: string;
};

export type StripeConfig = {
  /** STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: the pair used in live mode. */
  live?: StripeKeyPair;
  /** STRIPE_TEST_SECRET_KEY and STRIPE_TEST_WEBHOOK_SECRET: the pair used in sandbox mode. */
  test?: StripeKeyPair;
  /** Where the stripe library sends requests; tests point it at a fake. */
  apiUrl: string;
};

function keyPair(
  secretKey: string | undefined,
  webhookSecret: string | undefined,
  connectWebhookSecret: string | undefined,
): StripeKeyPair | undefined {
  if (!secretKey || !webhookSecret) return undefined;
  return { secretKey, webhookSecret, ...(connectWebhookSecret ? { connectWebhookSecret } : {}) };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

export type GithubAppConfig = {
  appId: string;
  /** The App's private key (PEM) that signs the JWTs installation tokens are minted with. */
  privateKey: string;
  /** The App's name in its URLs: `https://github.com/apps/<slug>/installations/new`. */
  slug: string;
  /** Verifies X-Hub-Signature-256 of the App's webhook; without it the App's events are refused. */
  webhookSecret?: string;
  webUrl: string;
  apiUrl: string;
};

/** GITHUB_APP_ID, the key (inline or _FILE) and GITHUB_APP_SLUG together, or none of them. */
function githubAppSettings(settings: z.infer<typeof envSchema>, problems: string[]): GithubAppConfig | undefined {
  if (settings.GITHUB_APP_PRIVATE_KEY && settings.GITHUB_APP_PRIVATE_KEY_FILE) {
    problems.push('Set GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE, not both');
    return undefined;
  }
  let privateKey = settings.GITHUB_APP_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (settings.GITHUB_APP_PRIVATE_KEY_FILE) {
    try {
      privateKey = readFileSync(settings.GITHUB_APP_PRIVATE_KEY_FILE, 'utf8').trim();
    } catch {
      problems.push(`GITHUB_APP_PRIVATE_KEY_FILE: cannot read ${settings.GITHUB_APP_PRIVATE_KEY_FILE}`);
      return undefined;
    }
  }
  const given = [settings.GITHUB_APP_ID, privateKey, settings.GITHUB_APP_SLUG].filter(Boolean).length;
  if (given === 0) return undefined;
  if (given < 3) {
    problems.push('GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY (or _FILE) and GITHUB_APP_SLUG must be set together');
    return undefined;
  }
  if (!privateKey!.includes('PRIVATE KEY-----')) {
    problems.push('GITHUB_APP_PRIVATE_KEY: must be the PEM private key GitHub generated for the App');
    return undefined;
  }
  return {
    appId: settings.GITHUB_APP_ID!,
    privateKey: privateKey!,
    slug: settings.GITHUB_APP_SLUG!,
    webhookSecret: settings.GITHUB_APP_WEBHOOK_SECRET,
    webUrl: settings.GITHUB_WEB_URL.replace(/(^|[^/])\/+$/, '$1'),
    apiUrl: settings.GITHUB_API_URL.replace(/(^|[^/])\/+$/, '$1'),
  };
}

/** Parses settings from an environment map; throws ConfigError listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const settings = parsed.data;
  const problems: string[] = [];
  if (Boolean(settings.GITHUB_CLIENT_ID) !== Boolean(settings.GITHUB_CLIENT_SECRET)) {
    problems.push('GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together');
  }
  if (Boolean(settings.S3_ACCESS_KEY_ID) !== Boolean(settings.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  if (Boolean(settings.STRIPE_SECRET_KEY) !== Boolean(settings.STRIPE_WEBHOOK_SECRET)) {
    problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  }
  if (Boolean(settings.STRIPE_TEST_SECRET_KEY) !== Boolean(settings.STRIPE_TEST_WEBHOOK_SECRET)) {
    problems.push('STRIPE_TEST_SECRET_KEY and STRIPE_TEST_WEBHOOK_SECRET must be set together');
  }
  // A live key in the sandbox pair would charge real cards while the admin believes payments are a test.
  if (settings.STRIPE_TEST_SECRET_KEY && /^(sk|rk)_live_/.test(settings.STRIPE_TEST_SECRET_KEY)) {
    problems.push('STRIPE_TEST_SECRET_KEY holds a live key (sk_live_...); use a test key (sk_test_...)');
  }
  const githubApp = githubAppSettings(settings, problems);
  if (Boolean(settings.GITLAB_CLIENT_ID) !== Boolean(settings.GITLAB_CLIENT_SECRET)) {
    problems.push('GITLAB_CLIENT_ID and GITLAB_CLIENT_SECRET must be set together');
  }
  // The debug routes end sessions on request and magic-link answers carry the sign-in token: never on a live server.
  if (settings.ENABLE_DEBUG_ROUTES && settings.NODE_ENV === 'production') {
    problems.push('ENABLE_DEBUG_ROUTES: must be off when NODE_ENV is production');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(settings.DATA_DIR);
  const publicUrl = (settings.PUBLIC_URL ?? `http://localhost:${settings.PORT}`).replace(/(^|[^/])\/+$/, '$1');
  return {
    port: settings.PORT,
    host: settings.HOST,
    dataDir,
    publicUrl,
    isHttps: publicUrl.startsWith('https://'),
    databaseUrl: settings.DATABASE_URL,
    redisUrl: settings.REDIS_URL,
    secretKey: settings.SECRET_KEY ?? readOrCreateSecretKey(dataDir),
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM,
    github:
      settings.GITHUB_CLIENT_ID && settings.GITHUB_CLIENT_SECRET
        ? {
            clientId: settings.GITHUB_CLIENT_ID,
            clientSecret: settings.GITHUB_CLIENT_SECRET,
            webUrl: settings.GITHUB_WEB_URL.replace(/(^|[^/])\/+$/, '$1'),
            apiUrl: settings.GITHUB_API_URL.replace(/(^|[^/])\/+$/, '$1'),
          }
        : undefined,
    githubApp,
    gitReposDir: path.resolve(settings.GIT_REPOS_DIR ?? path.join(dataDir, 'repos')),
    composerDomain: settings.COMPOSER_DOMAIN.toLowerCase(),
    dnsServers: settings.DNS_SERVERS?.split(',').map((server) => server.trim()),
    webhookAllowedHosts: (settings.WEBHOOK_ALLOWED_HOSTS?.split(',') ?? [])
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
    gitlab: {
      url: settings.GITLAB_URL.replace(/(^|[^/])\/+$/, '$1'),
      oauth:
        settings.GITLAB_CLIENT_ID && settings.GITLAB_CLIENT_SECRET
          ? { clientId: settings.GITLAB_CLIENT_ID, clientSecret: settings.GITLAB_CLIENT_SECRET }
          : undefined,
    },
    bitbucket: {
      apiUrl: settings.BITBUCKET_API_URL.replace(/(^|[^/])\/+$/, '$1'),
      webUrl: settings.BITBUCKET_WEB_URL.replace(/(^|[^/])\/+$/, '$1'),
    },
    codeHostAllowPrivateNetworks: settings.CODE_HOST_ALLOW_PRIVATE_NETWORKS,
    codeHostReconcileMinutes: settings.CODE_HOST_RECONCILE_MINUTES,
    storage: settings.S3_BUCKET
      ? {
          kind: 's3',
          bucket: settings.S3_BUCKET,
          region: settings.S3_REGION,
          endpoint: settings.S3_ENDPOINT,
          accessKeyId: settings.S3_ACCESS_KEY_ID,
          secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
          forcePathStyle: settings.S3_FORCE_PATH_STYLE,
        }
      : { kind: 'files', dir: storageDirFor(dataDir) },
    supportEmail: settings.SUPPORT_EMAIL,
    stripe: {
      live: keyPair(settings.STRIPE_SECRET_KEY, settings.STRIPE_WEBHOOK_SECRET, settings.STRIPE_CONNECT_WEBHOOK_SECRET),
      test: keyPair(
        settings.STRIPE_TEST_SECRET_KEY,
        settings.STRIPE_TEST_WEBHOOK_SECRET,
        settings.STRIPE_TEST_CONNECT_WEBHOOK_SECRET,
      ),
      apiUrl: settings.STRIPE_API_URL.replace(/(^|[^/])\/+$/, '$1'),
    },
    enableDebugRoutes: settings.ENABLE_DEBUG_ROUTES,
    trustProxy: settings.TRUST_PROXY,
    session: {
      idleMs: settings.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: settings.SESSION_ABSOLUTE_DAYS * 86_400_000,
    },
    accountRetentionMs: settings.ACCOUNT_RETENTION_DAYS * 86_400_000,
    logLevel: settings.LOG_LEVEL,
    shutdownTimeoutMs: settings.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    jobLeaseMs: settings.JOB_LEASE_SECONDS * 1000,
    overloadMaxEventLoopDelayMs: settings.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
    composerCacheMaxBytes: settings.COMPOSER_CACHE_MAX_BYTES,
    pgliteSharedBuffers: settings.PGLITE_SHARED_BUFFERS,
    oidcAllowPrivateIssuers: settings.OIDC_ALLOW_PRIVATE_ISSUERS,
    secretScanningKeysUrl: settings.SECRET_SCANNING_KEYS_URL,
    ...(settings.METRICS_TOKEN ? { metricsToken: settings.METRICS_TOKEN } : {}),
    ...(settings.PACKGATE_TEST_CRASH_AT ? { testCrashAt: settings.PACKGATE_TEST_CRASH_AT } : {}),
  };
}

// On the embedded default the key is generated once and kept beside the data it protects.
function readOrCreateSecretKey(dataDir: string): string {
  const keyFile = path.join(dataDir, 'secret.key');
  if (existsSync(keyFile)) return readFileSync(keyFile, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
