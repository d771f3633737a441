import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { findSellerByCustomDomain } from '../features/branding/custom-domains.js';
import { routeLabel } from '../features/composer/composer-metrics.js';
import { registerCountsBeforeOtherRequests } from '../features/licenses/download-counts.js';
import { registerCsrfProtection } from '../http/csrf.js';
import { AppError, registerErrorHandling } from '../http/errors.js';
import { registerHosts } from '../http/hosts.js';
import { registerInputCharacterCheck } from '../http/input-characters.js';
import { AuthorizedComposerCredentials, type PressureCheck, registerOverloadShedding } from '../http/overload.js';
import { registerPermissionCheck } from '../http/permissions.js';
import { registerRequestIds } from '../http/request-id.js';
import type { createRequestOrigin } from '../http/request-origin.js';
import { createSecurityHeaders, registerSecurityHeaders } from '../http/security-headers.js';
import { registerSessions } from '../http/session.js';

// What every request passes before its route, in this order: cookies, security headers, errors, request ids, the
// metrics of each answer, rate limits, the host it is for, overload shedding, download counts, the session, the
// permission check, CSRF and the input character check.

export type RequestHookOptions = {
  originOf: ReturnType<typeof createRequestOrigin>;
  pressureCheck?: PressureCheck;
  rateLimitExempt?: (request: FastifyRequest) => boolean;
};

export async function registerRequestHooks(app: FastifyInstance, ctx: AppContext, options: RequestHookOptions) {
  const { config, metrics } = ctx;
  const { originOf } = options;
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
  // ioredis is loaded only when Redis is configured: a single process never needs its few MB.
  const rateLimitRedis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 })
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
  return { securityHeaders, rateLimitRedis, authorizedComposerCredentials };
}
