import type { FastifyRequest } from 'fastify';
import { requireAdmin, requireUser } from './session.js';

/**
 * Route-level guards for a route's `onRequest` or `preValidation` option: who the caller is and whether they may,
 * decided before Fastify validates the body or query, so an anonymous caller learns nothing of a schema.
 * Never `preHandler`: Fastify validates before it. The handler then reads the principal the session built
 * (`request.principal`, http/principal.ts; `request.seller` and `request.admin` are its rows, session.ts gives them).
 * API v1's bearer guard and the portal's holder hook put theirs on `request.principal` the same way.
 */
export const authenticated = async (request: FastifyRequest) => {
  requireUser(request);
};
export const adminOnly = async (request: FastifyRequest) => {
  requireAdmin(request);
};
