import path from 'node:path';
import type { EnvSettings } from './env-schema.js';
import type { TrustProxy } from './setting-parsers.js';

// What the server runs with, as loadConfig (config.ts) answers it from the environment.

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
      /** For S3-compatible services (MinIO, R2, Ceph, ...); AWS when absent. */
      endpoint?: string;
      /** Without keys the AWS SDK's default credential chain applies (e.g. an instance role). */
      accessKeyId?: string;
      secretAccessKey?: string;
      /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`; most S3-compatible services want it. */
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
  logLevel: EnvSettings['LOG_LEVEL'];
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
