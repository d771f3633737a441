import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { generateToken, hmacHex, safeEqual } from '../lib/crypto.js';
import { AppError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ANONYMOUS_COOKIE = 'packgate_csrf';

/** The CSRF token is bound to the session (or, before sign-in, to an anonymous cookie) by an HMAC. */
export function csrfTokenFor(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string {
  if (request.auth) return hmacHex(ctx.config.secretKey, `csrf:${request.auth.sessionIdHash}`);
  let anonymousId = request.cookies[ANONYMOUS_COOKIE];
  if (!anonymousId) {
    anonymousId = generateToken('pga');
    reply.setCookie(ANONYMOUS_COOKIE, anonymousId, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.isHttps,
    });
  }
  return hmacHex(ctx.config.secretKey, `csrf-anonymous:${anonymousId}`);
}

/** Whether the request reached an /api route, judged by the route the router matched, never by the raw target. */
function isApiRoute(request: FastifyRequest): boolean {
  // The raw URL is `http://host/api/...` for an absolute-form request target (RFC 9112 §3.2.2), which the router
  // still routes to /api/...; the matched route's path is what was reached.
  const route = request.routeOptions.url;
  return route !== undefined && (route === '/api' || route.startsWith('/api/'));
}

/**
 * Every state-changing /api call that a session cookie authenticates must carry X-CSRF-Token. Checked when the
 * request arrives (after the session is loaded), before its body is parsed or validated.
 */
export function registerCsrfProtection(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.auth) return;
    if (!isApiRoute(request)) return;
    const sent = request.headers['x-csrf-token'];
    const expected = hmacHex(ctx.config.secretKey, `csrf:${request.auth.sessionIdHash}`);
    if (typeof sent !== 'string' || sent === '') {
      throw new AppError(
        'CSRF_INVALID',
        'CSRF token missing: send the token from GET /api/csrf-token in X-CSRF-Token.',
      );
    }
    if (!safeEqual(sent, expected)) {
      throw new AppError('CSRF_INVALID', 'CSRF token invalid: fetch a new token from GET /api/csrf-token.');
    }
  });
}
