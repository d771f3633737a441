import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_V1_RATE_LIMIT } from '../../../contract/developer.js';
import { sha256Hex } from '../../lib/crypto.js';
import { bearerToken } from './api-v1-auth.js';

// 30 requests a minute per token (spec §9), one budget across every /api/v1 route, counted by the app's
// @fastify/rate-limit store: in Redis when REDIS_URL is set (shared by every process), in process otherwise.

/** The IETF draft's headers (RateLimit-Limit, -Remaining, -Reset) and Retry-After on a 429. */
const draftSpecHeaders = {
  labels: {
    rateLimit: 'ratelimit-limit',
    rateRemaining: 'ratelimit-remaining',
    rateReset: 'ratelimit-reset',
    retryAfter: 'retry-after',
  },
  addHeaders: { 'ratelimit-limit': true, 'ratelimit-remaining': true, 'ratelimit-reset': true, 'retry-after': true },
  addHeadersOnExceeding: { 'ratelimit-limit': true, 'ratelimit-remaining': true, 'ratelimit-reset': true },
};

/** Per token: the key is a hash of the credential (never the token itself); no token, the client's address. */
function rateLimitKey(request: FastifyRequest): string {
  const token = bearerToken(request);
  return token ? `api-v1:token:${sha256Hex(token)}` : `api-v1:ip:${request.ip}`;
}

/**
 * One limiter shared by all routes of the scope: the plugin's per-route limits would give each route its own
 * budget. Runs as an onRequest hook, before authentication, so that a flood of bad tokens is limited too.
 */
export function apiV1RateLimitHook(app: FastifyInstance) {
  const options = {
    max: API_V1_RATE_LIMIT.max,
    timeWindow: API_V1_RATE_LIMIT.windowMs,
    keyGenerator: rateLimitKey,
    ...draftSpecHeaders,
  };
  // labels is read by the plugin but missing from its types.
  return app.rateLimit(options as RateLimitOptions);
}
