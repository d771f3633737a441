import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authUser,
  githubCallbackQuery,
  githubSignInQuery,
  magicLinkCallbackQuery,
  magicLinkRequest,
  magicLinkResponse,
  SIGN_IN_LINK_WINDOW_MINUTES,
  SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS,
  SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS_CEILING,
  successResponse,
  verifyMagicLinkRequest,
  verifyMagicLinkResponse,
} from '../../../contract/auth.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Account } from '../../http/principal.js';
import { endSession, startSession } from '../../http/session.js';
import { presentAuthUser, presentSession } from '../../http/session-user.js';
import {
  beginGithubSignIn,
  completeGithubSignIn,
  OAUTH_STATE_COOKIE,
  OAUTH_STATE_COOKIE_PATH,
  OAUTH_STATE_TTL_MS,
} from './github-sign-in.service.js';
import {
  consumeMagicLink,
  hasMailboxHadSellerLink,
  issueAdminMagicLink,
  issueSellerMagicLink,
  magicLinkError,
} from './magic-link.service.js';
import { type FirstFactor, firstFactorSessionOptions, secondFactorState } from './second-factor.service.js';

/** Per client address; the per-mailbox limit on e-mailed links lives in the magic-link service. */
export const TOKEN_CHECKS_PER_IP = 10;
const RATE_WINDOW = '15 minutes';
const SIGN_IN_WINDOW_MS = SIGN_IN_LINK_WINDOW_MINUTES * 60_000;

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Counts every link request of a client address; read after the body is parsed, to see which mailbox it is for.
  const linkRequestsOfClient = app.createRateLimit({
    max: SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS,
    timeWindow: SIGN_IN_WINDOW_MS,
    keyGenerator: (request: FastifyRequest) => `sign-in-link:${request.ip}`,
  });
  async function limitLinkRequestsOfClient(request: FastifyRequest, body: { email: string; userType: string }) {
    const limit = await linkRequestsOfClient(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    // A colleague's first sign-in goes through though others behind the same address kept asking (up to the
    // route's ceiling). Sellers only: every address can have seller links, so this tells nothing about anyone;
    // admin links go to admins alone, and a difference there would name them.
    const { email, userType } = body;
    if (userType === 'seller' && !ctx.config.github && !(await hasMailboxHadSellerLink(ctx, email))) return;
    throw tooManySignInRequests(limit.ttlInSeconds);
  }

  /** A browser sign-in's last step: the session (its second factor still to pass, if the person has one), then the dashboard. */
  async function signInToDashboard(request: FastifyRequest, reply: FastifyReply, user: Account, method: FirstFactor) {
    await startSession(ctx, request, reply, user.id, await firstFactorSessionOptions(ctx, user, method));
    return reply.redirect('/dashboard');
  }

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
    return signInToDashboard(request, reply, result.user, 'github');
  });

  api.post(
    '/api/auth/magic-link',
    {
      schema: { body: magicLinkRequest, response: { 200: magicLinkResponse } },
      // Every request, before its body is read; limitLinkRequestsOfClient is the lower, per-mailbox-aware bound.
      config: { rateLimit: { max: SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS_CEILING, timeWindow: SIGN_IN_WINDOW_MS } },
      preHandler: async (request) => limitLinkRequestsOfClient(request, request.body),
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
      const options = await firstFactorSessionOptions(ctx, result.user, 'link');
      await startSession(ctx, request, reply, result.user.id, options);
      const user = presentAuthUser(result.user);
      // The admin login page goes on to the verify step, or to enrol, when this says so (issue 33).
      const pending = options.secondFactorPending;
      const enrol = options.data !== undefined;
      if (!pending && !enrol) return { success: true as const, user };
      return {
        success: true as const,
        user: { ...user, secondFactor: { pending, enrolmentRequired: enrol, methods: [] } },
      };
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
      return signInToDashboard(request, reply, result.user, 'link');
    },
  );

  // Spec seller-app §7: the current user, or null. A signed-out visitor is not an error, so no 401 reddens the console.
  // A session short of its second factor reaches this and logout too (issue 33): it says what is still to do.
  const bothGates = { secondFactorGate: 'both' as const };
  api.get(
    '/api/auth/user',
    { schema: { response: { 200: authUser.nullable() } }, config: bothGates },
    async (request, reply) => {
      noStore(reply);
      const auth = request.auth;
      if (!auth) return null;
      if (!auth.secondFactorPending && !auth.mustEnrolSecondFactor) return presentSession(auth);
      return { ...presentSession(auth), secondFactor: await secondFactorState(ctx, auth) };
    },
  );

  const logoutRoute = { schema: { response: { 200: successResponse } }, config: bothGates };
  api.post('/api/auth/logout', logoutRoute, async (request, reply) => {
    await endSession(ctx, request, reply);
    return { success: true as const };
  });
}

function tooManySignInRequests(retryAfterSeconds: number): AppError {
  return new AppError(
    'RATE_LIMITED',
    `Too many sign-in links were asked for from your network: after ${SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS} in ` +
      `${SIGN_IN_LINK_WINDOW_MINUTES} minutes, only an address that has had no link yet gets one.`,
    {
      suggestion: `Use a sign-in link you already have, or try again in ${retryAfterSeconds} seconds.`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );
}

function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
}
