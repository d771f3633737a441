import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Config, type GithubAppConfig, type StripeKeyPair, storageDirFor } from './config/config-types.js';
import { type EnvSettings, envSchema } from './config/env-schema.js';

// The one reader of process.env: every setting is parsed here and documented in the README. Its parts are in
// config/: the schema of settings by area (env-schema.ts), the shapes a setting's text may take
// (setting-parsers.ts) and the Config the server runs with (config-types.ts); loadConfig below checks the settings
// that go together and builds the Config.

export type {
  Config,
  GithubAppConfig,
  StorageConfig,
  StripeConfig,
  StripeKeyPair,
} from './config/config-types.js';
export { storageDirFor } from './config/config-types.js';
export { SETTING_NAMES } from './config/env-schema.js';
export { fastifyTrustProxy, type TrustProxy } from './config/setting-parsers.js';

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

/** GITHUB_APP_ID, the key (inline or _FILE) and GITHUB_APP_SLUG together, or none of them. */
function githubAppSettings(settings: EnvSettings, problems: string[]): GithubAppConfig | undefined {
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
