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

/** Route-level hooks for Fastify's preHandler option. */
export const authenticated = async (request: FastifyRequest) => {
  requireUser(request);
};
export const adminOnly = async (request: FastifyRequest) => {
  requireAdmin(request);
};
