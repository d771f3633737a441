import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenPermission } from '../../../contract/developer.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { type AuthenticatedToken, authenticateApiToken, hasPermission } from '../developer/api-tokens.service.js';
import type { Actor } from './audit.service.js';

// Bearer authentication and permissions of /api/v1. A route names the permission it needs in its config.

declare module 'fastify' {
  interface FastifyRequest {
    apiToken?: AuthenticatedToken;
  }
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

/** onRequest hook: authenticates the token, then checks the route's permission (403 naming what is missing). */
export function authenticateApiRequest(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    // A bearer token is not ambient like a cookie: /api/v1 ignores sessions, so CSRF does not apply.
    request.auth = undefined;
    const token = await authenticateApiToken(ctx, bearerToken(request));
    request.apiToken = token;
    const needed = request.routeOptions.config.apiPermission;
    if (needed && !hasPermission(token.permissions, needed)) {
      throw new AppError('FORBIDDEN', `This API token lacks the ${needed} permission.`, {
        suggestion: `Create a token with ${needed} (or * for full access) on /api-tokens.`,
      });
    }
  };
}

export function requireApiToken(request: FastifyRequest): AuthenticatedToken {
  if (!request.apiToken) throw new AppError('UNAUTHENTICATED', 'An API token is required.');
  return request.apiToken;
}

/** The acting token, as the audit trail records it. */
export function tokenActor(request: FastifyRequest): Actor & { permissions: string[] } {
  const token = requireApiToken(request);
  return { type: 'api_token', sellerId: token.sellerId, tokenId: token.id, permissions: token.permissions };
}
