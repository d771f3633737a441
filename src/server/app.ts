import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { isClientRoute } from '../contract/client-routes.js';
import { createCodeHost, reachableCodeHosts } from './adapters/codehost/create-code-host.js';
import { createCnameResolver } from './adapters/dns/cname-resolver.js';
import { createMirrorSyncer } from './adapters/git/git-mirror.js';
import { createMailTransport, type MailMessage } from './adapters/mail/mailer.js';
import { createPayments, resolveSandboxMode } from './adapters/payments/create-payments.js';
import { createRealtime } from './adapters/realtime/socket-io.js';
import { createStorage } from './adapters/storage/create-storage.js';
import { type Config, fastifyTrustProxy } from './config.js';
import type { AppContext } from './context.js';
import { type DatabaseTarget, openDatabase } from './db/client.js';
import { accountRoutes } from './features/accounts/accounts.routes.js';
import { adminRoutes } from './features/admin/admin.routes.js';
import { localAdminRoutes } from './features/admin/local-admin.routes.js';
import { planConfigurationRoutes } from './features/admin/plan-configuration.routes.js';
import { analyticsRoutes } from './features/analytics/analytics.routes.js';
import { apiV1Plugin } from './features/api-v1/api-v1.plugin.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { secondFactorRoutes } from './features/auth/second-factor.routes.js';
import { billingRoutes } from './features/billing/billing.routes.js';
import { brandingRoutes } from './features/branding/branding.routes.js';
import { CustomDomainCache, findSellerByCustomDomain } from './features/branding/custom-domains.js';
import { createSvgSanitizer } from './features/branding/svg-sanitizer-pool.js';
import { bitbucketRoutes } from './features/code-hosts/bitbucket.routes.js';
import { codeHostRoutes } from './features/code-hosts/code-hosts.routes.js';
import { gitlabRoutes } from './features/code-hosts/gitlab.routes.js';
import { createComposerAccess } from './features/composer/access-feed.js';
import { composerRoutes } from './features/composer/composer.routes.js';
import { createComposerFastPath } from './features/composer/composer-fast-path.js';
import { routeLabel } from './features/composer/composer-metrics.js';
import { holderTokenRoutes } from './features/credentials/holder-tokens.routes.js';
import { leakedTokenSettingRoutes } from './features/credentials/leaked-token-setting.routes.js';
import { oidcTrustRoutes } from './features/credentials/oidc-trusts.routes.js';
import { secretScanningRoutes } from './features/credentials/secret-scanning.routes.js';
import { debugRoutes } from './features/debug/debug.routes.js';
import { developerRoutes } from './features/developer/developer.routes.js';
import { DownloadCounter, registerCountsBeforeOtherRequests } from './features/licenses/download-counts.js';
import { lastingLicenseRoutes } from './features/licenses/lasting-licenses.routes.js';
import { licenseRoutes } from './features/licenses/licenses.routes.js';
import { lifecycleRoutes } from './features/lifecycle/lifecycle.routes.js';
import { codeHostWebhookRoutes } from './features/packages/code-host-webhooks.routes.js';
import { githubAppRoutes } from './features/packages/github-app.routes.js';
import { warnOfPackagesOnMissingHosts } from './features/packages/package-sync.js';
import { packageRoutes } from './features/packages/packages.routes.js';
import { scheduleReconciliation } from './features/packages/reconcile.job.js';
import { planRoutes } from './features/plans/plans.routes.js';
import { seedDefaultPlans } from './features/plans/plans.service.js';
import { platformRoutes } from './features/platform/platform.routes.js';
import { portalRoutes } from './features/portal/portal.routes.js';
import { productRoutes } from './features/products/products.routes.js';
import { productTestPurchaseRoutes } from './features/sales/product-test-purchase.routes.js';
import { salesRoutes } from './features/sales/sales.routes.js';
import { findStoredSandboxMode } from './features/shared/settings/platform-settings.service.js';
import { subscriptionRoutes } from './features/subscriptions/subscriptions.routes.js';
import { taskRoutes } from './features/tasks/tasks.routes.js';
import { teamRoutes } from './features/teams/teams.routes.js';
import { scheduleExpiryScan } from './features/webhooks/webhook-delivery.js';
import { webhookRoutes } from './features/webhooks/webhooks.routes.js';
import { registerCsrfProtection } from './http/csrf.js';
import { serializeErrorForLog } from './http/error-log.js';
import { AppError, errorBody, registerErrorHandling } from './http/errors.js';
import { answerClientError, renderFrameworkError } from './http/framework-errors.js';
import { AppHostname, registerHosts } from './http/hosts.js';
import { createHttpServer, type RawFastPath } from './http/http-server.js';
import { registerInputCharacterCheck } from './http/input-characters.js';
import { operationsRoutes } from './http/operations.js';
import { AuthorizedComposerCredentials, type PressureCheck, registerOverloadShedding } from './http/overload.js';
import { registerPermissionCheck } from './http/permissions.js';
import { registerRequestIds, requestIdOf } from './http/request-id.js';
import { createRequestOrigin, handshakeOrigin } from './http/request-origin.js';
import { createSecurityHeaders, registerSecurityHeaders, securityHeaderValues } from './http/security-headers.js';
import { registerSessions } from './http/session.js';
import { prepareSessionLookup } from './http/session-lookup.js';
import { loadSocketSession } from './http/socket-session.js';
import { jobRegistry } from './job-registry.js';
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

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');
// Vite names every file under assets/ by a hash of its content, so a changed file gets a new name: a browser may
// keep one for a year without asking again. Without this every page load asked again for each of its scripts and
// styles (a 304 each). index.html, favicon.svg and theme-init.js keep their names: asked again each time (no-cache).
const webAssetsDir = path.join(webRoot, 'assets') + path.sep;
const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const REVALIDATED_CACHE_CONTROL = 'no-cache';

/** Assembles the whole product in one Fastify instance; used by main.ts and by every integration test. */
export async function buildApp(options: BuildAppOptions): Promise<BuiltApp> {
  const { config } = options;
  // Set once the routes are ready: the warm Composer answers that skip Fastify's machinery (composer-fast-path.ts).
  let composerFastPath: RawFastPath | undefined;
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
  // What the mailer's first attempts and the `mail` job's retries send through (counted at /metrics).
  const mailJobDeps = {
    transport: {
      async send(message: MailMessage) {
        try {
          await mailTransport.send(message);
        } catch (error) {
          metrics.mailAttempted('failed');
          throw error;
        }
        metrics.mailAttempted('sent');
      },
    },
    secretKey: config.secretKey,
    log: app.log,
  };
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
  await seedDefaultPlans(ctx);
  // Every kind of durable job this process runs; the runner starts once the routes are ready.
  jobs.register(jobRegistry({ mail: mailJobDeps }), ctx);
  await warnOfPackagesOnMissingHosts(ctx);
  // The license-expiry scan keeps itself queued from here on.
  await scheduleExpiryScan(ctx, ctx.clock.now());
  // So is the comparison of every package with its remote (tags pushed with no webhook, issue 30 item 5).
  await scheduleReconciliation(ctx);

  await app.register(cookie);
  const securityHeaders = createSecurityHeaders(config);
  registerSecurityHeaders(app, securityHeaders);
  registerErrorHandling(app);
  registerRequestIds(app);
  app.addHook('onResponse', (request, reply, done) => {
    // The Composer doors as the fast path names them (features/composer/composer-metrics.ts).
    metrics.observeRequest(routeLabel(request.routeOptions.url), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // Per-route limits (`config: { rateLimit: {...} }`); counters in Redis when several processes share the load.
  const rateLimitRedis = config.redisUrl
    ? new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 })
    : undefined;
  // ioredis reconnects by itself; an outage must be logged, not crash the process.
  rateLimitRedis?.on('error', (error) => app.log.warn({ err: error }, 'rate-limit Redis unavailable'));
  await app.register(rateLimit, {
    global: false,
    redis: rateLimitRedis,
    nameSpace: 'packgate-rate-limit-',
    ...(options.rateLimitExempt ? { allowList: options.rateLimitExempt } : {}),
    errorResponseBuilder: (_request, context) => {
      const error = new AppError('RATE_LIMITED', 'Please wait a moment before trying again.', {
        suggestion: `Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      });
      return Object.assign(error, { statusCode: 429 });
    },
  });
  registerHosts(app, config, originOf, (hostname) => findSellerByCustomDomain(ctx, hostname), ctx.appHostname);
  const authorizedComposerCredentials = new AuthorizedComposerCredentials();
  await registerOverloadShedding(app, {
    authorized: authorizedComposerCredentials,
    maxEventLoopDelayMs: config.overloadMaxEventLoopDelayMs,
    pressureCheck: options.pressureCheck,
    onShed: (pressure) => metrics.requestShed(pressure),
  });
  registerCountsBeforeOtherRequests(app, ctx.downloadCounter);
  registerSessions(app, ctx);
  registerPermissionCheck(app);
  registerCsrfProtection(app, ctx);
  registerInputCharacterCheck(app);

  await app.register(async (api) => {
    await operationsRoutes(api, { metrics, readiness, config });
    await platformRoutes(api, ctx);
    await authRoutes(api, ctx);
    await secondFactorRoutes(api, ctx);
    await planRoutes(api, ctx);
    await planConfigurationRoutes(api, ctx);
    await subscriptionRoutes(api, ctx);
    await billingRoutes(api, ctx);
    await salesRoutes(api, ctx);
    await productTestPurchaseRoutes(api, ctx);
    await adminRoutes(api, ctx);
    await localAdminRoutes(api, ctx);
    await packageRoutes(api, ctx);
    await codeHostRoutes(api, ctx);
    await githubAppRoutes(api, ctx);
    await gitlabRoutes(api, ctx);
    await bitbucketRoutes(api, ctx);
    await api.register(codeHostWebhookRoutes, { ctx });
    await lifecycleRoutes(api, ctx);
    await taskRoutes(api, ctx);
    await composerRoutes(api, ctx);
    await oidcTrustRoutes(api, ctx);
    await holderTokenRoutes(api, ctx);
    await leakedTokenSettingRoutes(api, ctx);
    await api.register(secretScanningRoutes, { ctx });
    await licenseRoutes(api, ctx);
    await lastingLicenseRoutes(api, ctx);
    await productRoutes(api, ctx);
    await developerRoutes(api, ctx);
    await apiV1Plugin(api, ctx, { redis: rateLimitRedis, rateLimitExempt: options.rateLimitExempt });
    await analyticsRoutes(api, ctx);
    await webhookRoutes(api, ctx);
    await teamRoutes(api, ctx);
    await accountRoutes(api, ctx);
    await brandingRoutes(api, ctx);
    await portalRoutes(api, ctx);
    if (config.enableDebugRoutes) await debugRoutes(api, ctx);
  });

  await registerWebApp(app, { debugRoutes: config.enableDebugRoutes });

  await app.ready();
  composerFastPath = createComposerFastPath(ctx, {
    originOf,
    appHostname: ctx.appHostname,
    securityHeaders: securityHeaderValues(securityHeaders),
    onAnswered: (authorization) => authorizedComposerCredentials.remember(authorization),
    metrics,
  });
  await ctx.realtime.attach(app.server);
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
      // Running jobs finish (or go back to the queue for another process) while the database is still open.
      await jobs.close();
      await ctx.realtime.close();
      await app.close();
      // Downloads answered before their count (those without a limit) are counted before the database closes.
      await ctx.downloadCounter.flush();
      rateLimitRedis?.disconnect();
      await ctx.svgSanitizer.close();
      await composerAccess.close();
      await database.close();
    },
  };
}

/**
 * Serves the built React app; unknown /api paths answer the JSON error shape, other paths the SPA: with 200 on the
 * app's own routes, with 404 elsewhere (the SPA then shows its 404 page).
 */
async function registerWebApp(app: FastifyInstance, routes: { debugRoutes: boolean }): Promise<void> {
  const hasBuild = existsSync(path.join(webRoot, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.startsWith(webAssetsDir) ? HASHED_ASSET_CACHE_CONTROL : REVALIDATED_CACHE_CONTROL,
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      const notFound = new AppError('NOT_FOUND', `No API endpoint at ${request.method} ${request.url.split('?')[0]}`);
      return reply.status(404).send(errorBody(notFound));
    }
    // A missing asset (an old chunk after a deploy) must fail as a 404, not load the app's HTML as script.
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/assets/')) {
      return reply.status(404).send(errorBody(new AppError('NOT_FOUND', 'Not found')));
    }
    if (!hasBuild) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web`.');
    }
    // Client-side routes (and the 404 page) are rendered by the SPA; crawlers and monitors read the status.
    const isKnownPage = isClientRoute(request.url.split('?')[0] ?? '', routes);
    return reply
      .status(isKnownPage ? 200 : 404)
      .header('cache-control', REVALIDATED_CACHE_CONTROL)
      .sendFile('index.html');
  });
}
