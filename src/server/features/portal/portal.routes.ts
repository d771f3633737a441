import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SIGN_IN_LINK_WINDOW_MINUTES, SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS } from '../../../contract/auth-messages.js';
import {
  portalMessageResponse,
  portalMessages,
  portalOverviewResponse,
  portalRotateTokenResponse,
  portalSessionResponse,
  portalSignInInput,
  portalVerifyInput,
} from '../../../contract/portal.js';
import type { AppContext } from '../../context.js';
import { csrfTokenFor } from '../../http/csrf.js';
import { AppError } from '../../http/errors.js';
import { routesGuardedBy } from '../../http/guarded-routes.js';
import { findPrincipal, type HolderPrincipal, setPrincipal } from '../../http/principal.js';
import { appUrl, hostUrl } from '../../http/public-urls.js';
import { safeEqual } from '../../lib/crypto.js';
import { exportHolderData } from '../licenses/holder-export.service.js';
import * as portal from './portal.service.js';
import { portalOidcRoutes } from './portal-oidc.routes.js';
import { portalTokenRoutes } from './portal-tokens.routes.js';

// The license holder's portal API, on a seller's repository host only (GET /portal is the web app's page).

const RATE_WINDOW = '1 minute';
/**
 * Sign-in requests per client address, high enough for an office behind one address (the per-holder limit is in
 * the service). No first-request allowance here, unlike the seller's sign-in: links go to holders only, so
 * serving some addresses past the limit and not others would tell who holds a license.
 */
const SIGN_IN_REQUESTS_PER_CLIENT = {
  max: SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS,
  timeWindow: SIGN_IN_LINK_WINDOW_MINUTES * 60_000,
};
const LINK_CHECKS_PER_IP = 20;
/** Token rotations per holder and hour: each one e-mails the holder. */
const ROTATIONS_PER_HOUR = 5;

/** Host-only (no Domain attribute): the browser sends it back to this seller's host alone. */
function cookieName(ctx: AppContext): string {
  return ctx.config.isHttps ? '__Host-packgate_portal' : 'packgate_portal';
}

/** The holder signed in to this portal, if any (a seller's session on the same host is not one). */
function signedInHolder(request: FastifyRequest): HolderPrincipal | undefined {
  const principal = findPrincipal(request);
  return principal?.kind === 'portal_holder' ? principal : undefined;
}

export async function portalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const holderApi = routesGuardedBy(scope, signedIn);
    // Before anything is parsed: a host of no seller has no portal, and the session counts on this host only. The
    // holder's principal is built here, once (http/principal.ts); `signedIn` and the handlers read it.
    scope.addHook('onRequest', async (request) => {
      await portal.getHostSeller(ctx, request.requestHost);
      const holder = await portal.findHolder(ctx, request.requestHost, request.cookies[cookieName(ctx)]);
      if (holder) setPrincipal(request, holder);
    });
    // A signed-in seller's session is checked by the app's CSRF hook; a holder's portal calls are checked here,
    // against the token GET /api/csrf-token gives this browser on this host.
    scope.addHook('onRequest', async (request, reply) => {
      if (request.method === 'GET' || request.method === 'HEAD' || request.auth) return;
      requirePortalCsrf(ctx, request, reply);
    });

    api.get('/api/portal/session', { schema: { response: { 200: portalSessionResponse } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const holder = signedInHolder(request);
      return holder ? { email: holder.email } : null;
    });

    api.post(
      '/api/portal/sign-in',
      {
        schema: { body: portalSignInInput, response: { 200: portalMessageResponse } },
        config: { rateLimit: SIGN_IN_REQUESTS_PER_CLIENT },
      },
      async (request) => {
        // The link leads back to the seller's host the holder asked on, written from that resolved name and
        // PUBLIC_URL's scheme and port: never from the Host header (issue 28).
        const host = request.requestHost;
        const portalUrl = host.kind === 'repository' ? hostUrl(ctx.config, host.hostname) : appUrl(ctx.config);
        const { message } = await portal.requestSignInLink(ctx, host, portalUrl, request.body);
        return { message };
      },
    );

    api.post(
      '/api/portal/sign-in/verify',
      {
        schema: { body: portalVerifyInput, response: { 200: portalSessionResponse.unwrap() } },
        config: { rateLimit: { max: LINK_CHECKS_PER_IP, timeWindow: RATE_WINDOW } },
      },
      async (request, reply) => {
        const started = await portal.verifySignInLink(ctx, request.requestHost, request.body?.token);
        // A new session id at every sign-in; the one the browser came with (if any) ends.
        await portal.signOut(ctx, findPrincipal(request));
        reply.setCookie(cookieName(ctx), started.cookieValue, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: ctx.config.isHttps,
          maxAge: Math.floor(portal.SESSION_ABSOLUTE_MS / 1000),
        });
        return { email: started.email };
      },
    );

    api.post(
      '/api/portal/sign-out',
      { schema: { response: { 200: portalMessageResponse } } },
      async (request, reply) => {
        await portal.signOut(ctx, findPrincipal(request));
        reply.clearCookie(cookieName(ctx), { path: '/' });
        return { message: portalMessages.signedOut };
      },
    );

    holderApi.get(
      '/api/portal/licenses',
      { noStore: true, schema: { response: { 200: portalOverviewResponse } } },
      async (request) => portal.getOverview(ctx, request.requestHost, portal.requireHolder(findPrincipal(request))),
    );

    // "Download my data" (issue 35): the holder's own licenses and downloads with this seller, as a JSON file.
    holderApi.get('/api/portal/export', {}, async (request, reply) => {
      const holder = portal.requireHolder(findPrincipal(request));
      const data = await exportHolderData(ctx, holder.sellerId, holder.customerId);
      const day = data.exportedAt.slice(0, 10);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="my-licenses-${day}.json"`)
        .send(data);
    });

    holderApi.post(
      '/api/portal/token',
      {
        noStore: true,
        schema: { response: { 200: portalRotateTokenResponse } },
        config: {
          rateLimit: {
            max: ROTATIONS_PER_HOUR,
            timeWindow: '1 hour',
            keyGenerator: (request: FastifyRequest) =>
              `portal-holder:${signedInHolder(request)?.customerId ?? request.ip}`,
          },
        },
      },
      async (request) => portal.rotateToken(ctx, portal.requireHolder(findPrincipal(request))),
    );

    await portalOidcRoutes(holderApi, ctx);
    await portalTokenRoutes(holderApi, ctx);
  });
}

async function signedIn(request: FastifyRequest): Promise<void> {
  portal.requireHolder(findPrincipal(request));
}

function requirePortalCsrf(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): void {
  const sent = request.headers['x-csrf-token'];
  if (typeof sent !== 'string' || sent === '') {
    throw new AppError('CSRF_INVALID', 'CSRF token missing: send the token from GET /api/csrf-token in X-CSRF-Token.');
  }
  if (!safeEqual(sent, csrfTokenFor(ctx, request, reply))) {
    throw new AppError('CSRF_INVALID', 'CSRF token invalid: fetch a new token from GET /api/csrf-token.');
  }
}
