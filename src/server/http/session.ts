import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { firstRow } from '../db/result-rows.js';
import { type OrganizationRole, sessions, users } from '../db/schema/index.js';
import { generateToken, sha256Hex } from '../lib/crypto.js';
import { networkOf } from '../lib/network.js';
import { AppError } from './errors.js';
import {
  type Account,
  adminOf,
  clearPrincipal,
  registerPrincipal,
  sessionPrincipal,
  setPrincipal,
  signedInOrganizationOf,
} from './principal.js';

export type RequestAuth = {
  sessionIdHash: string;
  /**
   * The seller account the request acts on: the organisation the person works in this session (issue 33). Every
   * seller table names this account as its owner, so seller routes read `request.seller` and need not know members.
   */
  user: Account;
  /** The person who signed in (or whom an admin impersonates): who acted, for the audit trail. */
  person: Account;
  /** The person's role in the organisation; null for an admin's own account. */
  role: OrganizationRole | null;
  /** Set while an admin views the app as another user. */
  impersonator?: Account;
  data: Record<string, unknown>;
  /** Signed in by link or GitHub by a person with a second factor, not yet passed (issue 33). */
  secondFactorPending?: boolean;
  /** The platform requires the person to have a second factor and they have none: they enrol before anything else. */
  mustEnrolSecondFactor?: boolean;
};

/** The session data key that marks a person sent to enrol a second factor (http/session-second-factor.ts). */
export const MUST_ENROL_SECOND_FACTOR = 'mustEnrolSecondFactor';

/** Which routes a session still short of its second factor reaches (issue 33); every other one sees no session. */
export type SecondFactorGate = 'pending' | 'enrolment' | 'both';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route a session with a pending second factor ('pending') or one sent to enrol ('enrolment') reaches. */
    secondFactorGate?: SecondFactorGate;
  }
  interface FastifyRequest {
    auth?: RequestAuth;
    /**
     * The signed-in user the request acts as: the seller, or the user an admin impersonates. For routes that declare
     * the `authenticated` guard (http/guards.ts), which has answered 401 before the handler runs, so the handler
     * reads it without a second check. Read without a session (a route that forgot its guard), it answers 401 too.
     */
    readonly seller: Account;
    /** The admin the request answers to (the signed-in admin, or the one behind an impersonation); see `adminOnly`. */
    readonly admin: Account;
  }
}

export function requireUser(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new AppError('UNAUTHENTICATED', 'Please log in to access this resource.');
  return request.auth;
}

export function isAdmin(user: Account): boolean {
  return user.userType === 'admin';
}

/** Admin endpoints answer to the signed-in admin, or to the admin behind an impersonation. */
export function requireAdmin(request: FastifyRequest): Account {
  requireUser(request);
  return adminOf(request.principal);
}

// Refreshing lastSeenAt on every request would turn each read into a write.
const LAST_SEEN_RESOLUTION_MS = 60_000;

export function sessionCookieName(ctx: AppContext): string {
  return ctx.config.isHttps ? '__Host-packgate_session' : 'packgate_session';
}

/** Loads the session behind the cookie (one query) and applies the idle and absolute timeouts. */
/** A session's row by the hash of its cookie (the debug page shows its dates). */
export async function findSessionRow(
  ctx: Pick<AppContext, 'db'>,
  idHash: string,
): Promise<typeof sessions.$inferSelect | undefined> {
  return firstRow(ctx.db.select().from(sessions).where(eq(sessions.idHash, idHash)).limit(1));
}

export async function loadSession(ctx: AppContext, cookieValue: string | undefined): Promise<RequestAuth | undefined> {
  if (!cookieValue) return undefined;
  const idHash = sha256Hex(cookieValue);
  const now = ctx.clock.now();
  const [row] = await ctx.sessionLookup.execute({ idHash, now: now.toISOString() });
  if (!row) return undefined;
  const role = roleInOrganization(row.person, row.organization, row.role);
  // A person removed from the organisation this session works in is signed out at their next request.
  if (row.person.userType === 'seller' && !role) return undefined;
  if (now.getTime() - row.session.lastSeenAt.getTime() > ctx.config.session.idleMs) {
    await ctx.db.delete(sessions).where(eq(sessions.idHash, idHash));
    return undefined;
  }
  if (now.getTime() - row.session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await ctx.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
  }
  let impersonator: Account | undefined;
  if (row.session.impersonatorId) {
    [impersonator] = await ctx.db.select().from(users).where(eq(users.id, row.session.impersonatorId)).limit(1);
  }
  return {
    sessionIdHash: idHash,
    user: row.organization,
    person: row.person,
    role,
    impersonator,
    data: row.session.data,
    secondFactorPending: row.session.secondFactorPending,
    mustEnrolSecondFactor: row.session.data[MUST_ENROL_SECOND_FACTOR] === true,
  };
}

/**
 * A seller account is an organisation whose founding person is its owner unless a membership row says otherwise
 * (after a transfer of ownership); in another organisation only a membership row gives a role.
 */
function roleInOrganization(
  person: Account,
  organization: Account,
  memberRole: OrganizationRole | null,
): OrganizationRole | null {
  if (memberRole) return memberRole;
  if (person.id === organization.id && person.userType === 'seller') return 'owner';
  return null;
}

export type StartSessionOptions = {
  impersonatorId?: string;
  data?: Record<string, unknown>;
  /** How the person signed in (`link`, `passkey`, `github`, ...), shown on the sessions page. */
  signInMethod?: string;
  secondFactorPending?: boolean;
  /** The organisation the session works in (issue 33); none: the person's own account. */
  organizationId?: string;
};

/** Starts a fresh session (a new id every sign-in) and drops the one the request came with. */
export async function startSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  options: StartSessionOptions = {},
): Promise<void> {
  await endSession(ctx, request, reply);
  const cookieValue = generateToken('pgs');
  const now = ctx.clock.now();
  await ctx.db.insert(sessions).values({
    idHash: sha256Hex(cookieValue),
    userId,
    impersonatorId: options.impersonatorId ?? null,
    organizationId:
      options.organizationId === undefined || options.organizationId === userId ? null : options.organizationId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.session.absoluteMs),
    userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
    data: options.data ?? {},
    secondFactorPending: options.secondFactorPending ?? false,
    signInMethod: options.signInMethod ?? null,
    network: networkOf(request.ip),
  });
  reply.setCookie(sessionCookieName(ctx), cookieValue, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.isHttps,
    maxAge: Math.floor(ctx.config.session.absoluteMs / 1000),
  });
  request.auth = undefined;
  clearPrincipal(request);
}

export async function endSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const cookieValue = request.cookies[sessionCookieName(ctx)];
  if (cookieValue) {
    const idHash = sha256Hex(cookieValue);
    await ctx.db.delete(sessions).where(eq(sessions.idHash, idHash));
    ctx.realtime.disconnectSession(idHash);
  }
  reply.clearCookie(sessionCookieName(ctx), { path: '/' });
  request.auth = undefined;
  clearPrincipal(request);
}

export function registerSessions(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auth', undefined);
  registerPrincipal(app);
  // `seller` and `admin` are the principal's rows, not a second notion of who acts.
  app.decorateRequest('seller', {
    getter(this: FastifyRequest) {
      requireUser(this);
      return signedInOrganizationOf(this.principal);
    },
  });
  app.decorateRequest('admin', {
    getter(this: FastifyRequest) {
      return requireAdmin(this);
    },
  });
  app.addHook('onRequest', async (request) => {
    const auth = await loadSession(ctx, request.cookies[sessionCookieName(ctx)]);
    request.auth =
      auth && passesSecondFactorGate(auth, request.routeOptions.config?.secondFactorGate) ? auth : undefined;
    // The session's principal, built once here; `authenticated` and `adminOnly` (guards.ts) decide on it.
    if (request.auth) setPrincipal(request, sessionPrincipal(request.auth));
  });
}

/** A session short of its second factor reaches only the routes marked for it; to every other it is signed out. */
function passesSecondFactorGate(auth: RequestAuth, gate: SecondFactorGate | undefined): boolean {
  if (auth.secondFactorPending) return gate === 'pending' || gate === 'both';
  if (auth.mustEnrolSecondFactor) return gate === 'enrolment' || gate === 'both';
  return true;
}
