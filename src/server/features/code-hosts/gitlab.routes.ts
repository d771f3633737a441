import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  connectedCodeHostSchema,
  connectGitlabTokenInput,
  gitlabCallbackQuery,
  gitlabConnectOptionsSchema,
} from '../../../contract/code-host-tokens.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { connectedCodeHost } from './code-hosts.routes.js';
import {
  beginGitlabOAuth,
  connectGitlabToken,
  finishGitlabOAuth,
  GITLAB_CALLBACK_PATH,
} from './gitlab-connect.service.js';

// Connecting GitLab from the Code hosts page: an access token pasted in the form, or OAuth (a browser round trip
// through GitLab, bound to this session by a sealed cookie that holds the state and the PKCE verifier).

const STATE_COOKIE = 'packgate_gitlab_oauth';
const STATE_TTL_SECONDS = 600;
const CODE_HOSTS_PAGE = '/code-hosts';

/** Whom the OAuth round trip connects for: the organisation, and the person who starts it (its owner for a token). */
function oauthOwnerOf(request: FastifyRequest) {
  return { sellerId: request.seller.id, personId: request.principal.person?.id ?? request.seller.id };
}

export async function gitlabRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/code-hosts/gitlab',
    { permission: 'packages:read', schema: { response: { 200: gitlabConnectOptionsSchema } } },
    async () => ({ oauth: ctx.config.gitlab.oauth !== undefined, defaultUrl: ctx.config.gitlab.url }),
  );

  sellerApi.post(
    '/api/code-hosts/gitlab/token',
    {
      permission: 'packages:write',
      schema: { body: connectGitlabTokenInput, response: { 201: connectedCodeHostSchema } },
    },
    async (request) => connectedCodeHost(await connectGitlabToken(ctx, request.principal, request.body)),
  );

  // Browser navigation from the Connect GitLab button: to GitLab's consent page.
  sellerApi.get(
    '/api/code-hosts/gitlab/authorize',
    { permission: 'packages:write', noStore: true },
    async (request, reply) => {
      const { redirectTo, cookie } = beginGitlabOAuth(ctx, oauthOwnerOf(request));
      reply.setCookie(STATE_COOKIE, cookie, {
        path: GITLAB_CALLBACK_PATH,
        httpOnly: true,
        sameSite: 'lax', // sent on GitLab's top-level redirect back to us
        secure: ctx.config.isHttps,
        maxAge: STATE_TTL_SECONDS,
      });
      return reply.redirect(redirectTo);
    },
  );

  // GitLab sends the browser back here; the connection is stored only when the state matches this session's cookie.
  sellerApi.get(
    GITLAB_CALLBACK_PATH,
    { permission: 'packages:write', noStore: true, schema: { querystring: gitlabCallbackQuery } },
    async (request, reply) => {
      const cookie = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, { path: GITLAB_CALLBACK_PATH });
      try {
        await finishGitlabOAuth(ctx, request.principal, oauthOwnerOf(request), { ...request.query, cookie });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return reply.redirect(`${CODE_HOSTS_PAGE}?error=${encodeURIComponent(error.message)}`);
      }
      return reply.redirect(`${CODE_HOSTS_PAGE}?connected=gitlab`);
    },
  );
}
