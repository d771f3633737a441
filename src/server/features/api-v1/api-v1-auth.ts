import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenPermission } from '../../../contract/developer.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import {
  type ApiTokenSeller,
  type AuthenticatedToken,
  authenticateApiToken,
  hasPermission,
} from '../api-tokens/api-tokens.service.js';
import type { Actor } from '../shared/audit/audit.service.js';
import type { AuthFailureLimiter } from './auth-failure-limit.js';

// Bearer authentication and permissions of /api/v1. A route names the permission it needs in its config; the
// handler reads the typed principal the guard vouched for: `request.apiToken`, and `request.apiActor` for the audit.

export type TokenActor = Actor & { type: 'api_token'; permissions: string[]; seller: ApiTokenSeller };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by /api/v1's bearer guard (authenticateApiRequest); read it through `apiToken`. */
    apiTokenAuth?: AuthenticatedToken;
    /**
     * The API token the request acts with. Every /api/v1 route is behind the bearer guard, which has answered 401
     * before the handler runs; read without one, it answers 401 too.
     */
    readonly apiToken: AuthenticatedToken;
    /** The acting token, as the audit trail records it. */
    readonly apiActor: TokenActor;
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

/**
 * onRequest hook: authenticates the token, then checks the route's permission (403 naming what is missing). A token
 * sent and refused counts against the client's address (auth-failure-limit.ts).
 */
export function authenticateApiRequest(ctx: AppContext, failures: AuthFailureLimiter) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    // A bearer token is not ambient like a cookie: /api/v1 ignores sessions, so CSRF does not apply.
    request.auth = undefined;
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
    request.apiTokenAuth = token;
    const needed = request.routeOptions.config.apiPermission;
    if (needed && !hasPermission(token.permissions, needed)) {
      throw new AppError('FORBIDDEN', `This API token lacks the ${needed} permission.`, {
        suggestion: `Create a token with ${needed} (or * for full access) on /api-tokens.`,
      });
    }
  };
}

/** Gives /api/v1's requests their typed principal: `request.apiToken` and `request.apiActor`. */
export function registerApiTokenPrincipal(app: FastifyInstance): void {
  app.decorateRequest('apiTokenAuth', undefined);
  app.decorateRequest('apiToken', {
    getter(this: FastifyRequest) {
      return requireApiToken(this);
    },
  });
  app.decorateRequest('apiActor', {
    getter(this: FastifyRequest): TokenActor {
      const token = requireApiToken(this);
      return {
        type: 'api_token',
        sellerId: token.sellerId,
        tokenId: token.id,
        permissions: token.permissions,
        // The token acts for the member who created it (issue 33): the audit trail names them.
        person: token.creator,
        seller: token.seller,
      };
    },
  });
}

function requireApiToken(request: FastifyRequest): AuthenticatedToken {
  if (!request.apiTokenAuth) throw new AppError('UNAUTHENTICATED', 'An API token is required.');
  return request.apiTokenAuth;
}
