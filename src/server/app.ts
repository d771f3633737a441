import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createCodeHost, reachableCodeHosts } from './adapters/codehost/create-code-host.js';
import { createCnameResolver } from './adapters/dns/cname-resolver.js';
import { createMirrorSyncer } from './adapters/git/git-mirror.js';
import { createMailTransport } from './adapters/mail/mailer.js';
import { createPayments, resolveSandboxMode } from './adapters/payments/create-payments.js';
import { createRealtime } from './adapters/realtime/socket-io.js';
import { createStorage } from './adapters/storage/create-storage.js';
import { mailJobDependencies, registerBackgroundWork } from './app/background-work.js';
import { registerRequestHooks } from './app/request-hooks.js';
import { registerRoutes } from './app/routes.js';
import { closeInOrder } from './app/shutdown.js';
import { registerWebApp } from './app/web-app.js';
import { type Config, fastifyTrustProxy } from './config.js';
import type { AppContext } from './context.js';
import { type DatabaseTarget, openDatabase } from './db/client.js';
import { CustomDomainCache } from './features/branding/custom-domains.js';
import { createSvgSanitizer } from './features/branding/svg-sanitizer-pool.js';
import { createComposerAccess } from './features/composer/access-feed.js';
import { createComposerFastPath } from './features/composer/composer-fast-path.js';
import { DownloadCounter } from './features/licenses/download-counts.js';
import { findStoredSandboxMode } from './features/shared/settings/platform-settings.service.js';
import { serializeErrorForLog } from './http/error-log.js';
import { answerClientError, renderFrameworkError } from './http/framework-errors.js';
import { AppHostname } from './http/hosts.js';
import { createHttpServer, type FastPaths, type PrefixDoor } from './http/http-server.js';
import type { PressureCheck } from './http/overload.js';
import { requestIdOf } from './http/request-id.js';
import { createRequestOrigin, handshakeOrigin } from './http/request-origin.js';
import { securityHeaderValues } from './http/security-headers.js';
import { prepareSessionLookup } from './http/session-lookup.js';
import { loadSocketSession } from './http/socket-session.js';
import { createJobRunner, type JobTimings } from './jobs/job-runner.js';
import { createDurableMailer } from './jobs/mail-delivery.js';
import { type Clock, systemClock } from './lib/clock.js';
import { SingleFlight } from './lib/single-flight.js';
import { createMetrics } from './observability/metrics.js';
import { createReadiness } from './observability/readiness.js';

export type BuildAppOptions = {
  config: Config;
  clock?: Clock;
  /** Overrides the database chosen from config (tests use a fresh one each). */
  database?: DatabaseTarget;
  logger?: boolean | object;
  /** An extra overload verdict (tests force load shedding with it). */
  pressureCheck?: PressureCheck;
  /** Where the default logger writes (tests capture its lines); stdout when absent. */
  logStream?: { write(line: string): void };
  /** Lease, backoff and poll durations of the job runner (tests use small ones). */
  jobTimings?: Partial<JobTimings>;
  /** Requests every rate limit lets through uncounted (the fuzz suite, whose every input must reach validation). */
  rateLimitExempt?: (request: FastifyRequest) => boolean;
};

export type BuiltApp = {
  app: FastifyInstance;
  ctx: AppContext;
  /** From now on /api/ready answers 503 (close() calls it first, so a load balancer stops sending traffic). */
  beginShutdown(): void;
  close(): Promise<void>;
};

// Sign-in links and OAuth callbacks carry secrets in the query string; request logs must not.
const SECRET_QUERY_PARAMETERS = /([?&](?:token|code|state)=)[^&#]*/gi;

export function redactUrlSecrets(url: string): string {
  return url.replace(SECRET_QUERY_PARAMETERS, '$1[redacted]');
}

// The built web app (npm run build:web), found from this file as from the built server's (dist/server/*.js).
const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

/**
 * Assembles the whole product in one Fastify instance; used by main.ts and by every integration test. The one
 * composition root: it builds the context and wires its named parts in app/ (the request hooks, the routes, the
 * web app, the background work, the shutdown order).
 */
export async function buildApp(options: BuildAppOptions): Promise<BuiltApp> {
  const { config } = options;
  // Set once the routes are ready: the warm Composer answers that skip Fastify's machinery (composer-fast-path.ts), and
  // the realtime socket's door (adapters/realtime), which the server hands its requests and upgrades.
  let composerFastPath: FastPaths | undefined;
  let realtimeDoor: PrefixDoor | undefined;
  // One reader of a request's host (Host, or X-Forwarded-Host behind TRUST_PROXY), parsed once per request: the
  // server refuses a Host that is not hostname[:port] before anything else; the fast path and the hosts hook read it.
  const originOf = createRequestOrigin(fastifyTrustProxy(config.trustProxy));
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrlSecrets(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
        err: serializeErrorForLog,
        error: serializeErrorForLog,
      },
    },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // The id every answer and log line carries (http/request-id.ts): decided at the edge, an incoming one only if safe.
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    frameworkErrors: renderFrameworkError,
    clientErrorHandler: answerClientError,
    serverFactory: (handler, serverOptions) =>
      createHttpServer(
        handler,
        serverOptions,
        () => composerFastPath,
        (raw) => originOf(raw).host !== 'invalid',
        () => realtimeDoor,
      ),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const databaseTarget: DatabaseTarget =
    options.database ??
    (config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite'), sharedBuffers: config.pgliteSharedBuffers });
  // The Composer warm path learns of every access change through the database (features/composer/access-cache.ts).
  const composerAccess = createComposerAccess(config.composerCacheMaxBytes, app.log);
  const database = await openDatabase(databaseTarget, composerAccess.notifications);
  composerAccess.start(databaseTarget);
  const clock = options.clock ?? systemClock;
  const metrics = createMetrics();
  const readiness = createReadiness({
    db: database.db,
    isAccessFeedListening: () => composerAccess.status().isListening,
  });
  const jobs = createJobRunner({
    db: database.db,
    clock,
    log: app.log,
    timings: {
      leaseMs: config.jobLeaseMs,
      heartbeatMs: Math.round(config.jobLeaseMs / 4),
      shutdownWaitMs: Math.round(config.shutdownTimeoutMs * 0.75),
      ...options.jobTimings,
    },
    // PGlite holds a lock on its folder: jobs it finds running were left by a stopped process, resumed at once.
    isExclusiveDatabase: database.kind === 'pglite',
    // Shared PostgreSQL: other processes' job ends are announced there (a download waiting for a dist build).
    jobEndFeedUrl: databaseTarget.kind === 'postgres' ? databaseTarget.url : undefined,
    onAttemptEnd: (kind, outcome, seconds) => metrics.jobAttemptEnded(kind, outcome, seconds),
  });
  const mailTransport = createMailTransport(config, app.log);
  const codeHost = createCodeHost(config);
  const mailJobDeps = mailJobDependencies(mailTransport, metrics, config.secretKey, app.log);
  const ctx: AppContext = {
    config,
    db: database.db,
    clock,
    mailer: createDurableMailer({ jobs, ...mailJobDeps }),
    realtime: createRealtime(
      config,
      app.log,
      (cookieHeader) => loadSocketSession(ctx, cookieHeader),
      (request) => handshakeOrigin(originOf(request)),
    ),
    storage: createStorage(config.storage),
    codeHost,
    codeHosts: reachableCodeHosts(config, codeHost),
    mirrors: createMirrorSyncer(),
    cnameResolver: createCnameResolver(config.dnsServers),
    svgSanitizer: createSvgSanitizer(),
    // Replaced below, once the stored payment mode can be read from the database.
    payments: { kind: 'off', sandboxMode: true },
    appHostname: new AppHostname(),
    customDomains: new CustomDomainCache(),
    log: app.log,
    jobs,
    distBuilds: new SingleFlight(),
    downloadCounter: new DownloadCounter(database.db, database.kind, app.log),
    composerAccess: composerAccess.cache,
    sessionLookup: prepareSessionLookup(database.db),
    metrics,
  };
  metrics.attach({
    db: database.db,
    poolStats: () => database.poolStats(),
    composerCache: () => {
      const cache = composerAccess.cache;
      return { hits: cache.hits, misses: cache.misses, heldBytes: cache.heldBytes, maxBytes: cache.maxBytes };
    },
    accessFeed: () => composerAccess.status(),
  });
  // The payment mode is read once, at start-up: the admin's Settings card says a restart applies a change.
  ctx.payments = await createPayments(
    config.stripe,
    resolveSandboxMode(await findStoredSandboxMode(ctx), config.stripe),
    app.log,
  );
  await registerBackgroundWork(ctx, jobs, mailJobDeps);

  const { securityHeaders, rateLimitRedis, authorizedComposerCredentials } = await registerRequestHooks(app, ctx, {
    originOf,
    pressureCheck: options.pressureCheck,
    rateLimitExempt: options.rateLimitExempt,
  });

  await registerRoutes(app, ctx, {
    operations: { metrics, readiness, config },
    apiV1: { redis: rateLimitRedis, rateLimitExempt: options.rateLimitExempt },
  });

  await registerWebApp(app, webRoot, { debugRoutes: config.enableDebugRoutes });

  await app.ready();
  composerFastPath = createComposerFastPath(ctx, {
    originOf,
    appHostname: ctx.appHostname,
    securityHeaders: securityHeaderValues(securityHeaders),
    onAnswered: (authorization) => authorizedComposerCredentials.remember(authorization),
    metrics,
  });
  realtimeDoor = await ctx.realtime.open();
  await jobs.start();

  let closed = false;
  return {
    app,
    ctx,
    beginShutdown: () => readiness.markShuttingDown(),
    async close() {
      readiness.markShuttingDown();
      if (closed) return;
      closed = true;
      await closeInOrder({ app, ctx, jobs, rateLimitRedis, composerAccess, database });
    },
  };
}
