import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OrganizationRole, users } from '../db/schema/index.js';
import { AppError } from './errors.js';

// Who acts in a request (issue 29 item 3): one type, built once by the guard that let the request in (the session's
// `authenticated` and `adminOnly` in guards.ts, API v1's bearer guard, the portal's holder hook) and read as
// `request.principal`. Commands in the domains take it (or a part derived here) and the audit trail records it.

/** A row of `users`: a person, or an organisation (a seller account) whose founding person shares its id. */
export type Account = typeof users.$inferSelect;

/** A person as the audit trail names them at the time they act. */
export type ActingPerson = { id: string; label: string };

type Acting = {
  /** The organisation (seller account) whose data the request acts on: every seller table names it as owner. */
  sellerId: string;
  /** The person who acted, as the audit trail names them; for an API token its creator; null where none did. */
  person: ActingPerson | null;
};

/** A person signed in to an organisation they are a member of. */
export type MemberPrincipal = Acting & {
  kind: 'member';
  organization: Account;
  member: Account;
  role: OrganizationRole;
};

/**
 * An admin: on their own account (`actingAs: 'admin'`), or viewing the app as a seller's person, acting as the
 * organisation's owner (`actingAs: 'owner'`, `person` then names the impersonated person).
 */
export type AdminPrincipal = Acting & {
  kind: 'admin';
  admin: Account;
  organization: Account;
  actingAs: 'admin' | 'owner';
  /** The person's row the session shows: the admin, or the organisation's person the admin views the app as. */
  viewedAs: Account;
};

/** Who a signed-in session acts as: a member of the organisation it works in, or an admin. */
export type SessionPrincipal = MemberPrincipal | AdminPrincipal;

/** An API token of an organisation, with what it may do now; its organisation's row was read with it. */
export type TokenPrincipal = Acting & {
  kind: 'api_token';
  tokenId: string;
  permissions: string[];
  organization: Account;
};

/** A license holder signed in to a seller's portal. */
export type HolderPrincipal = Acting & {
  kind: 'portal_holder';
  customerId: string;
  email: string;
  /** The portal session the holder signed in with (signing out ends it). */
  sessionIdHash: string;
  /** When the holder's Composer token was issued (the portal's overview shows it). */
  tokenIssuedAt: Date;
};

/** Nobody in a request: a job or an outside system's notice acting on an organisation's data (no person). */
export type SystemPrincipal = Acting & { kind: 'system' };

export type Principal = MemberPrincipal | AdminPrincipal | TokenPrincipal | HolderPrincipal | SystemPrincipal;

/** How the audit trail names a person at the time they act: their display name, else their e-mail address. */
export function personLabel(person: { displayName: string | null; email: string | null; slug?: string }): string {
  return person.displayName?.trim() || person.email || person.slug || 'Unknown';
}

/** An account as the person who acts. */
export function actingPerson(person: Account): ActingPerson {
  return { id: person.id, label: personLabel(person) };
}

/** What a signed-in session (http/session.ts's RequestAuth) acts as. */
export function sessionPrincipal(auth: {
  user: Account;
  person: Account;
  role: OrganizationRole | null;
  impersonator?: Account;
}): SessionPrincipal {
  const acting = { sellerId: auth.user.id, person: actingPerson(auth.person), organization: auth.user };
  if (auth.impersonator) {
    return { ...acting, kind: 'admin', admin: auth.impersonator, actingAs: 'owner', viewedAs: auth.person };
  }
  if (auth.role) return { ...acting, kind: 'member', member: auth.person, role: auth.role };
  return { ...acting, kind: 'admin', admin: auth.user, actingAs: 'admin', viewedAs: auth.person };
}

/** A person acting in an organisation outside a signed-in request (accepting an invitation). */
export function memberPrincipal(organization: Account, member: Account, role: OrganizationRole): MemberPrincipal {
  return { kind: 'member', sellerId: organization.id, person: actingPerson(member), organization, member, role };
}

/** Nobody: the platform acting on an organisation's data (a job, an outside notice). */
export function systemPrincipal(sellerId: string): SystemPrincipal {
  return { kind: 'system', sellerId, person: null };
}

/** The organisation's row a signed-in session or an API token acts on (a portal holder or the platform has none). */
export function organizationOf(principal: Principal): Account {
  if (principal.kind === 'portal_holder' || principal.kind === 'system') {
    throw new AppError('FORBIDDEN', 'This action requires a seller account.');
  }
  return principal.organization;
}

/** A signed-in session's principal; any other principal (a token, a holder, the platform) is not signed in. */
export function signedInOf(principal: Principal): SessionPrincipal {
  if (principal.kind !== 'member' && principal.kind !== 'admin') {
    throw new AppError('UNAUTHENTICATED', 'Please log in to access this resource.');
  }
  return principal;
}

/** The organisation a signed-in session works in (`request.seller`). */
export function signedInOrganizationOf(principal: Principal): Account {
  return signedInOf(principal).organization;
}

/** The signed-in person's own row: the member, the admin, or the person an admin views the app as. */
export function signedInPersonOf(principal: SessionPrincipal): Account {
  return principal.kind === 'member' ? principal.member : principal.viewedAs;
}

/** The admin a session answers to (`request.admin`): the signed-in admin, or the one behind an impersonation. */
export function adminOf(principal: Principal): Account {
  if (principal.kind !== 'admin' || principal.admin.userType !== 'admin') {
    throw new AppError('FORBIDDEN', 'This action requires an administrator account.');
  }
  return principal.admin;
}

/** The API token a request acts with (API v1's routes, all behind its bearer guard). */
export function tokenOf(principal: Principal): TokenPrincipal {
  if (principal.kind !== 'api_token') throw new AppError('UNAUTHENTICATED', 'An API token is required.');
  return principal;
}

const principals = new WeakMap<FastifyRequest, Principal>();

/** Called by a guard once it has let the request in. */
export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  principals.set(request, principal);
}

/** The request's principal when a guard set one (a portal page that is open to anyone reads this). */
export function findPrincipal(request: FastifyRequest): Principal | undefined {
  return principals.get(request);
}

/** Clears the principal when the request's session ends or starts afresh. */
export function clearPrincipal(request: FastifyRequest): void {
  principals.delete(request);
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who acts in this request, as the route's guard built it. Read on a route without a guard (one that forgot it),
     * it answers 401.
     */
    readonly principal: Principal;
  }
}

export function registerPrincipal(app: FastifyInstance): void {
  app.decorateRequest('principal', {
    getter(this: FastifyRequest): Principal {
      const principal = principals.get(this);
      if (!principal) throw new AppError('UNAUTHENTICATED', 'Please log in to access this resource.');
      return principal;
    },
  });
}
