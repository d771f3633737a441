import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import {
  forbiddenMessage,
  type OrganizationRole,
  roleCan,
  TEAM_PERMISSIONS,
  type TeamPermission,
} from '../../contract/team.js';
import { AppError } from './errors.js';
import { authenticated } from './guards.js';
import { type SessionPrincipal, signedInOf } from './principal.js';
import { isAdmin, requireUser } from './session.js';

// Role enforcement on every seller route (issue 33). A route the signed-in seller uses declares the permission it
// needs in its config (`config: { permission: 'packages:write' }`); one hook, before validation, answers 403 with
// the contract's sentence when the person's role in the organisation the session works in lacks it. `signed-in`
// marks a route any signed-in person may use whatever their role (their organisations, switching between them).
// The routes test (features/teams/roles-matrix.int.test.ts) fails when a route behind `authenticated` declares none.

export const ANY_SIGNED_IN = 'signed-in';
export type RoutePermission = TeamPermission | typeof ANY_SIGNED_IN;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The team permission a signed-in person's role needs for this route (contract/team.ts). */
    permission?: RoutePermission;
  }
  interface FastifyInstance {
    /** Every route as registered, with the permission it declares: what the routes test walks. */
    readonly declaredRoutes: DeclaredRoute[];
  }
}

export type DeclaredRoute = {
  method: string;
  url: string;
  permission: RoutePermission | undefined;
  /** Behind the `authenticated` guard: a route a signed-in seller uses. */
  isSellerRoute: boolean;
};

/**
 * The role the person acts with: a member's role; an admin viewing the app as a seller acts as its owner, whatever
 * the founder's role; an admin's own account has none.
 */
export function effectiveRole(principal: SessionPrincipal): OrganizationRole | null {
  if (principal.kind === 'member') return principal.role;
  return principal.actingAs === 'owner' ? 'owner' : null;
}

/** What the person may do in the organisation the session works in; an admin's own account may do everything. */
export function permissionsOf(principal: SessionPrincipal): readonly TeamPermission[] {
  const role = effectiveRole(principal);
  if (role) return TEAM_PERMISSIONS.filter((permission) => roleCan(role, permission));
  return principal.kind === 'admin' && isAdmin(principal.admin) ? TEAM_PERMISSIONS : [];
}

/** Throws the contract's 403 unless the session's role holds `permission` (services call it for finer checks). */
export function requirePermission(principal: SessionPrincipal, permission: TeamPermission): void {
  if (permissionsOf(principal).includes(permission)) return;
  const role: OrganizationRole = effectiveRole(principal) ?? 'viewer';
  throw new AppError('FORBIDDEN', forbiddenMessage(role, permission));
}

export const CLOSED_ACCOUNT_MESSAGE =
  'This account is closed: its data can be read and downloaded from Settings until it is erased, not changed.';

/**
 * A closed account (issue 35) stays readable, and its owner may still download the export, until the erasure; nothing
 * in it changes any more, so closing cannot be undone by issuing licenses or adding packages afterwards.
 */
function refuseChangesToClosedAccount(principal: SessionPrincipal, permission: TeamPermission): void {
  if (!principal.organization.closedAt) return;
  if (permission.endsWith(':read') || permission === 'organization:manage') return;
  throw new AppError('FORBIDDEN', CLOSED_ACCOUNT_MESSAGE);
}

function hasGuard(hooks: RouteOptions['onRequest'] | RouteOptions['preValidation'], guard: unknown): boolean {
  if (!hooks) return false;
  return Array.isArray(hooks) ? hooks.includes(guard as never) : hooks === guard;
}

export function registerPermissionCheck(app: FastifyInstance): void {
  const declared: DeclaredRoute[] = [];
  app.decorate('declaredRoutes', declared);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      declared.push({
        method,
        url: route.url,
        permission: route.config?.permission,
        isSellerRoute: hasGuard(route.onRequest, authenticated) || hasGuard(route.preValidation, authenticated),
      });
    }
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const needed = request.routeOptions.config?.permission;
    if (!needed) return;
    requireUser(request);
    if (needed === ANY_SIGNED_IN) return;
    const principal = signedInOf(request.principal);
    requirePermission(principal, needed);
    refuseChangesToClosedAccount(principal, needed);
  });
}
