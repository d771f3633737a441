import { z } from 'zod';
import {
  booleanFlag,
  DNS_SERVER_LIST,
  isWebhookAllowEntry,
  optionalText,
  optionalUrl,
  trustProxySetting,
} from './setting-parsers.js';

// Every environment variable the server reads, by area; .env.example and the README's table list the same
// (env-example.test.ts). config.ts turns the parsed settings into the Config the server runs with.

/** Where the server listens and what it is called, its data, secrets, mail, sessions and debug routes. */
const serverSettings = z.object({
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
  SUPPORT_EMAIL: z.email().default('support@packgate.localhost'),
  COMPOSER_DOMAIN: z.string().default('composer.localhost'),
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
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').max(256).optional()),
});

/** The code hosts packages come from: GitHub (OAuth and the App), GitLab, Bitbucket and plain git. */
const codeHostSettings = z.object({
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
  CODE_HOST_ALLOW_PRIVATE_NETWORKS: booleanFlag,
  GITLAB_URL: z.url().default('https://gitlab.com'),
  GITLAB_CLIENT_ID: optionalText,
  GITLAB_CLIENT_SECRET: optionalText,
  BITBUCKET_API_URL: z.url().default('https://api.bitbucket.org/2.0'),
  BITBUCKET_WEB_URL: z.url().default('https://bitbucket.org'),
  CODE_HOST_RECONCILE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(360),
});

/** What the server may reach outside: DNS, webhook targets, CI identities' issuers, GitHub's scanning keys. */
const networkSettings = z.object({
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
  OIDC_ALLOW_PRIVATE_ISSUERS: booleanFlag,
  SECRET_SCANNING_KEYS_URL: z.url().default('https://api.github.com/meta/public_keys/secret_scanning'),
});

/** Where files are kept: DATA_DIR/storage, or an S3-compatible bucket. */
const storageSettings = z.object({
  S3_BUCKET: optionalText,
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: booleanFlag,
});

/** Stripe's live and sandbox key pairs (neither: billing off) and the Connect endpoints' secrets. */
const stripeSettings = z.object({
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_TEST_SECRET_KEY: optionalText,
  STRIPE_TEST_WEBHOOK_SECRET: optionalText,
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalText,
  STRIPE_TEST_CONNECT_WEBHOOK_SECRET: optionalText,
  STRIPE_API_URL: z.url().default('https://api.stripe.com'),
});

/** How the process runs: logging, shutdown, jobs, overload, caches, the embedded database, crash tests. */
const operationsSettings = z.object({
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
});

export const envSchema = z.object({
  ...serverSettings.shape,
  ...codeHostSettings.shape,
  ...networkSettings.shape,
  ...storageSettings.shape,
  ...stripeSettings.shape,
  ...operationsSettings.shape,
});

export type EnvSettings = z.infer<typeof envSchema>;

/** Every environment variable the server reads (.env.example and the README list the same). */
export const SETTING_NAMES = Object.keys(envSchema.shape);
