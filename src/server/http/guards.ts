import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import type { RequestAuth, SessionUser } from './session.js';

export function requireUser(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'Please log in to access this resource.');
  return request.auth;
}

export function isAdmin(user: SessionUser): boolean {
  return user.userType === 'admin';
}

/** Admin endpoints answer to the signed-in admin, or to the admin behind an impersonation. */
export function requireAdmin(request: FastifyRequest): SessionUser {
  const auth = requireUser(request);
  const admin = auth.impersonator ?? auth.user;
  if (!isAdmin(admin)) throw new AppError('FORBIDDEN', 'This action requires an administrator account.');
  return admin;
}

/**
 * Route-level guards for a route's `onRequest` or `preValidation` option: who the caller is and whether they may,
 * decided before Fastify validates the body or query, so an anonymous caller learns nothing of a schema.
 * Never `preHandler`: Fastify validates before it.
 */
export const authenticated = async (request: FastifyRequest) => {
  requireUser(request);
};
export const adminOnly = async (request: FastifyRequest) => {
  requireAdmin(request);
};
