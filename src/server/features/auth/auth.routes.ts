import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authUser,
  githubCallbackQuery,
  githubSignInQuery,
  magicLinkCallbackQuery,
  magicLinkRequest,
  magicLinkResponse,
  successResponse,
  verifyMagicLinkRequest,
  verifyMagicLinkResponse,
} from '../../../contract/auth.js';
import type { AppContext } from '../../context.js';
import { endSession, startSession } from '../../http/session.js';
import { presentAuthUser, presentSession } from '../../http/session-user.js';
import {
  beginGithubSignIn,
  completeGithubSignIn,
  OAUTH_STATE_COOKIE,
  OAUTH_STATE_COOKIE_PATH,
  OAUTH_STATE_TTL_MS,
} from './github-sign-in.service.js';
import { consumeMagicLink, issueAdminMagicLink, issueSellerMagicLink, magicLinkError } from './magic-link.service.js';

/** Per client address; the per-address limit on e-mailed links lives in the magic-link service. */
export const MAGIC_LINK_REQUESTS_PER_IP = 10;
export const TOKEN_CHECKS_PER_IP = 10;
const RATE_WINDOW = '15 minutes';

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Browser navigation: to GitHub when configured, else to the landing page's e-mail sign-in form.
  api.get('/api/auth/github', { schema: { querystring: githubSignInQuery } }, async (request, reply) => {
    const { tier } = request.query;
    noStore(reply);
    if (!ctx.config.github) {
      return reply.redirect(tier ? `/?signin=email&tier=${encodeURIComponent(tier)}` : '/?signin=email');
    }
    const { redirectTo, cookie } = beginGithubSignIn(ctx, tier);
    reply.setCookie(OAUTH_STATE_COOKIE, cookie, {
      path: OAUTH_STATE_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax', // sent on GitHub's top-level redirect back to us
      secure: ctx.config.isHttps,
      maxAge: OAUTH_STATE_TTL_MS / 1000,
    });
    return reply.redirect(redirectTo);
  });

  // Every failure lands on `/?error={code}` (codes and texts: signInErrorMessages in contract/auth.ts).
  api.get('/api/auth/github/callback', { schema: { querystring: githubCallbackQuery } }, async (request, reply) => {
    noStore(reply);
    const stateCookie = request.cookies[OAUTH_STATE_COOKIE];
    reply.clearCookie(OAUTH_STATE_COOKIE, { path: OAUTH_STATE_COOKIE_PATH });
    const auth = request.auth;
    const result = await completeGithubSignIn(ctx, {
      ...request.query,
      stateCookie,
      signedInUserId: auth && !auth.impersonator ? auth.user.id : undefined,
    });
    if (!result.ok) return reply.redirect(`/?error=${result.reason}`);
    await startSession(ctx, request, reply, result.user.id);
    return reply.redirect('/dashboard');
  });

  api.post(
    '/api/auth/magic-link',
    {
      schema: { body: magicLinkRequest, response: { 200: magicLinkResponse } },
      config: { rateLimit: { max: MAGIC_LINK_REQUESTS_PER_IP, timeWindow: RATE_WINDOW } },
    },
    async (request) => {
      const { email, userType, tier } = request.body;
      const issued =
        userType === 'admin' ? await issueAdminMagicLink(ctx, email) : await issueSellerMagicLink(ctx, email, tier);
      // Spec admin §7: the token may come back in the answer, in development only.
      return {
        success: true as const,
        message: issued.message,
        ...(ctx.config.enableDebugRoutes && issued.token ? { token: issued.token } : {}),
      };
    },
  );

  // The admin login's token step (spec admin §2, §8).
  api.post(
    '/api/auth/verify-magic-link',
    {
      schema: { body: verifyMagicLinkRequest, response: { 200: verifyMagicLinkResponse } },
      config: { rateLimit: { max: TOKEN_CHECKS_PER_IP, timeWindow: RATE_WINDOW } },
    },
    async (request, reply) => {
      const result = await consumeMagicLink(ctx, request.body.token, 'admin');
      if (!result.ok) throw magicLinkError(result.reason);
      await startSession(ctx, request, reply, result.user.id);
      return { success: true as const, user: presentAuthUser(result.user) };
    },
  );

  // The seller's e-mailed link (when GitHub is not configured) opens here.
  api.get(
    '/api/auth/magic-link/callback',
    {
      schema: { querystring: magicLinkCallbackQuery },
      config: { rateLimit: { max: TOKEN_CHECKS_PER_IP, timeWindow: RATE_WINDOW } },
    },
    async (request, reply) => {
      noStore(reply);
      const { token } = request.query;
      const result = token ? await consumeMagicLink(ctx, token, 'seller') : ({ ok: false, reason: 'invalid' } as const);
      if (!result.ok) return reply.redirect(`/?signin=email&error=${result.reason}`);
      await startSession(ctx, request, reply, result.user.id);
      return reply.redirect('/dashboard');
    },
  );

  // Spec seller-app §7: the current user, or null. A signed-out visitor is not an error, so no 401 reddens the console.
  api.get('/api/auth/user', { schema: { response: { 200: authUser.nullable() } } }, async (request, reply) => {
    noStore(reply);
    return request.auth ? presentSession(request.auth) : null;
  });

  api.post('/api/auth/logout', { schema: { response: { 200: successResponse } } }, async (request, reply) => {
    await endSession(ctx, request, reply);
    return { success: true as const };
  });
}

function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}
