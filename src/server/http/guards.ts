import type { FastifyRequest } from 'fastify';
import { requireAdmin, requireUser } from './session.js';

/**
 * Route-level guards for a route's `onRequest` or `preValidation` option: who the caller is and whether they may,
 * decided before Fastify validates the body or query, so an anonymous caller learns nothing of a schema.
 * Never `preHandler`: Fastify validates before it. The handler then reads the typed principal the guard vouched
 * for: `request.seller` after `authenticated`, `request.admin` after `adminOnly` (session.ts gives them). API v1's
 * bearer guard gives `request.apiToken` and `request.apiActor` the same way (features/api-v1/api-v1-auth.ts).
 */
export const authenticated = async (request: FastifyRequest) => {
  requireUser(request);
};
export const adminOnly = async (request: FastifyRequest) => {
  requireAdmin(request);
};
