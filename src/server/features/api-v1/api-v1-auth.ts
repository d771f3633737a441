import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenPermission } from '../../../contract/developer.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { clearPrincipal, setPrincipal, type TokenPrincipal } from '../../http/principal.js';
import { type AuthenticatedToken, authenticateApiToken, hasPermission } from '../api-tokens/api-tokens.service.js';
import type { AuthFailureLimiter } from './auth-failure-limit.js';

// Bearer authentication and permissions of /api/v1. A route names the permission it needs in its config; the
// bearer guard builds the token's principal once (http/principal.ts) and the handler reads it as `request.principal`.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The API token permission the route needs (spec §6); `*` holds them all. */
    apiPermission?: ApiTokenPermission;
  }
}

const BEARER_PREFIX = 'bearer ';
/** Longer than any token we issue; a longer header is not ours and is not hashed. */
const MAX_AUTHORIZATION_LENGTH = 300;

/** The token of an `Authorization: Bearer ...` header, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  if (header.slice(0, BEARER_PREFIX.length).toLowerCase() !== BEARER_PREFIX) return undefined;
  return header.slice(BEARER_PREFIX.length).trim() || undefined;
}

/**
 * onRequest hook: authenticates the token, then checks the route's permission (403 naming what is missing). A token
 * sent and refused counts against the client's address (auth-failure-limit.ts).
 */
export function authenticateApiRequest(ctx: AppContext, failures: AuthFailureLimiter) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    // A bearer token is not ambient like a cookie: /api/v1 ignores sessions, so CSRF does not apply.
    request.auth = undefined;
    clearPrincipal(request);
    const sent = bearerToken(request);
    let token: AuthenticatedToken;
    try {
      token = await authenticateApiToken(ctx, sent);
    } catch (error) {
      if (sent !== undefined && error instanceof AppError && error.code === 'UNAUTHENTICATED') {
        await failures.recordFailure(request);
      }
      throw error;
    }
    setPrincipal(request, tokenPrincipal(token));
    const needed = request.routeOptions.config.apiPermission;
    if (needed && !hasPermission(token.permissions, needed)) {
      throw new AppError('FORBIDDEN', `This API token lacks the ${needed} permission.`, {
        suggestion: `Create a token with ${needed} (or * for full access) on /api-tokens.`,
      });
    }
  };
}

/** What an authenticated token acts as: the organisation's row came with it, so writes need not read it again. */
function tokenPrincipal(token: AuthenticatedToken): TokenPrincipal {
  return {
    kind: 'api_token',
    sellerId: token.sellerId,
    tokenId: token.id,
    permissions: token.permissions,
    // The token acts for the member who created it (issue 33): the audit trail names them.
    person: token.creator,
    organization: token.seller,
  };
}
