import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { debugLogoutResponse, debugSessionResponse } from '../../../contract/auth.js';
import type { AppContext } from '../../context.js';
import { endSession, sessionCookieName } from '../../http/session.js';
import { OAUTH_STATE_COOKIE, OAUTH_STATE_COOKIE_PATH } from '../auth/github-sign-in.service.js';
import { describeSession } from './debug.service.js';

// Registered by buildApp only when ENABLE_DEBUG_ROUTES is on; otherwise these paths answer 404.
const ANONYMOUS_CSRF_COOKIE = 'packgate_csrf';

export async function debugRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/debug/session', { schema: { response: { 200: debugSessionResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return describeSession(ctx, request.auth, {
      session: Boolean(request.cookies[sessionCookieName(ctx)]),
      csrf: Boolean(request.cookies[ANONYMOUS_CSRF_COOKIE]),
    });
  });

  // The same server-side logout as /api/auth/logout, reachable from the debug page to compare the two.
  api.post('/api/debug/test-logout', { schema: { response: { 200: debugLogoutResponse } } }, async (request, reply) => {
    const hadSession = Boolean(request.auth);
    await endSession(ctx, request, reply);
    return { success: true as const, message: 'Test logout: the server session was destroyed.', hadSession };
  });

  // Leaves nothing behind: the session row and every cookie Packgate sets.
  api.post(
    '/api/debug/force-logout',
    { schema: { response: { 200: debugLogoutResponse } } },
    async (request, reply) => {
      const hadSession = Boolean(request.auth);
      await endSession(ctx, request, reply);
      reply.clearCookie(ANONYMOUS_CSRF_COOKIE, { path: '/' });
      reply.clearCookie(OAUTH_STATE_COOKIE, { path: OAUTH_STATE_COOKIE_PATH });
      return {
        success: true as const,
        message: 'Force logout: the server session was destroyed and all cookies cleared.',
        hadSession,
      };
    },
  );
}
