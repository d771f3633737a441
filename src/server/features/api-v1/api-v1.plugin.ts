import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../../context.js';
import { AppError, toAppError } from '../../http/errors.js';
import { analyticsV1Routes } from './analytics-v1.routes.js';
import { apiV1Routes } from './api-v1.routes.js';
import { authenticateApiRequest } from './api-v1-auth.js';
import { createAuthFailureLimiter } from './auth-failure-limit.js';
import { codeHostsV1Routes } from './code-hosts-v1.routes.js';
import { errorEnvelope } from './envelope.js';
import { exportV1Routes } from './export-v1.routes.js';
import { holderTokensV1Routes } from './holder-tokens-v1.routes.js';
import { registerIdempotency } from './idempotency.js';
import { oidcTrustsV1Routes } from './oidc-trusts-v1.routes.js';
import { registerApiDocs } from './openapi.js';
import { packageRefreshV1Routes } from './package-refresh-v1.routes.js';
import { productsV1Routes } from './products-v1.routes.js';
import { apiV1RateLimitHook } from './rate-limit.js';
import { webhooksV1Routes } from './webhooks-v1.routes.js';

export const API_V1_PREFIX = '/api/v1';

export type ApiV1Options = {
  /** The rate limits' Redis (REDIS_URL): failed authentications are counted there, for every process. */
  redis?: Redis;
  /** Requests no limit counts (the app's rateLimitExempt: the fuzz suite). */
  rateLimitExempt?: (request: FastifyRequest) => boolean;
};

/**
 * API v1 and its documentation: the OpenAPI document is generated from the routes registered inside the docs
 * scope, so it describes exactly /api/v1. Inside /api/v1: the client address's failed authentications, then the
 * rate limit, then bearer authentication and permission, then validation, then Idempotency-Key (keys per token, so
 * a stored answer reaches only the token that caused it, and only once its permission has been checked); every
 * answer, errors included, in the envelope.
 */
export async function apiV1Plugin(app: FastifyInstance, ctx: AppContext, options: ApiV1Options = {}): Promise<void> {
  const authFailures = createAuthFailureLimiter(ctx, { redis: options.redis, exempt: options.rateLimitExempt });
  await app.register(async (docsScope) => {
    await registerApiDocs(docsScope, ctx.config, async (scope) => {
      await scope.register(
        async (v1) => {
          // First, so that an address past its failed authentications learns nothing, nor spends a token's budget.
          v1.addHook('onRequest', (request) => authFailures.check(request));
          v1.addHook('onRequest', apiV1RateLimitHook(v1));
          v1.addHook('onRequest', authenticateApiRequest(ctx, authFailures));
          registerIdempotency(v1, ctx);
          v1.setErrorHandler((error, request, reply) => {
            const appError = toAppError(error);
            if (!appError) {
              request.log.error({ err: error }, 'unhandled error in API v1');
              const internal = new AppError('INTERNAL', 'A server error occurred. Please try again later.');
              return reply.status(500).send(errorEnvelope(internal, request.id));
            }
            if (appError.headers) reply.headers(appError.headers);
            return reply.status(appError.status).send(errorEnvelope(appError, request.id));
          });
          v1.setNotFoundHandler((request, reply) => {
            const notFound = new AppError(
              'NOT_FOUND',
              `No API endpoint at ${request.method} ${request.url.split('?')[0]}`,
              { suggestion: 'See the API reference at /api/docs.' },
            );
            return reply.status(404).send(errorEnvelope(notFound, request.id));
          });
          await apiV1Routes(v1, ctx);
          await analyticsV1Routes(v1, ctx);
          await webhooksV1Routes(v1, ctx);
          await exportV1Routes(v1, ctx);
          await productsV1Routes(v1, ctx);
          await holderTokensV1Routes(v1, ctx);
          await oidcTrustsV1Routes(v1, ctx);
          await codeHostsV1Routes(v1, ctx);
          await packageRefreshV1Routes(v1, ctx);
        },
        { prefix: API_V1_PREFIX },
      );
    });
  });
}
