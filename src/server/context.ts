import type { FastifyBaseLogger } from 'fastify';
import type { CodeHost, CodeHostKind } from './adapters/codehost/code-host.js';
import type { CnameResolver } from './adapters/dns/cname-resolver.js';
import type { MirrorSyncer } from './adapters/git/git-mirror.js';
import type { Mailer } from './adapters/mail/mailer.js';
import type { Payments } from './adapters/payments/payments.js';
import type { Realtime } from './adapters/realtime/realtime.js';
import type { ObjectStorage } from './adapters/storage/object-storage.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { CustomDomainCache } from './features/branding/custom-domain-cache.js';
import type { SvgSanitizer } from './features/branding/svg-sanitizer-pool.js';
import type { ComposerAccessCache } from './features/composer/access-cache.js';
import type { DownloadCounter } from './features/licenses/download-counts.js';
import type { AppHostname } from './http/hosts.js';
import type { SessionLookup } from './http/session-lookup.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { Clock } from './lib/clock.js';
import type { SingleFlight } from './lib/single-flight.js';
import type { Metrics } from './observability/metrics.js';

/** What every service receives: settings, the database and the edges, all replaceable in tests. */
export type AppContext = {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  realtime: Realtime;
  storage: ObjectStorage;
  /** GitHub when configured, else the local folder of git repositories: where new packages come from. */
  codeHost: CodeHost;
  /** Every host existing packages can sync from (codeHost, and the local folder while it exists). */
  codeHosts: Partial<Record<CodeHostKind, CodeHost>>;
  /** Runs the syncs of each package's mirror one after another. */
  mirrors: MirrorSyncer;
  /** DNS for custom-domain verification (DNS_SERVERS when set). */
  cnameResolver: CnameResolver;
  /** Makes uploaded SVG logos inert in a worker thread, started at the first SVG. */
  svgSanitizer: SvgSanitizer;
  /** PUBLIC_URL's host name, parsed once per value (http/hosts.ts). */
  appHostname: AppHostname;
  /** Which seller a custom domain (or its `portal.` name) belongs to, remembered for a few seconds. */
  customDomains: CustomDomainCache;
  /** Stripe (platform billing and sellers' Connect accounts) or billing off; chosen once at start-up. */
  payments: Payments;
  log: FastifyBaseLogger;
  /** Durable background work: syncs, cache tasks, mail retries (src/server/jobs). */
  jobs: JobRunner;
  /** Finds the session behind a cookie: one prepared query per app (http/session-lookup.ts). */
  sessionLookup: SessionLookup;
  /** The Composer warm path's tokens, grants and metadata, kept true by the database's change feed (access-feed.ts). */
  composerAccess: ComposerAccessCache;
  /** Counts dist downloads, several in one statement when they come together (licenses/download-counts.ts). */
  downloadCounter: DownloadCounter;
  /** De-duplicates this process's on-demand builds of the same dist zip. */
  distBuilds: SingleFlight;
  /** The counters and histograms served at /metrics (observability/metrics.ts). */
  metrics: Metrics;
};
