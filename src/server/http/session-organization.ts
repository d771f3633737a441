import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { sessions } from '../db/schema/index.js';
import { requireUser, type StartSessionOptions, startSession } from './session.js';

// Which organisation a session works in (issue 33): `sessions.organization_id`, null for the person's own account.
// The sessions table is written only by http/; the teams domain decides who may work where and calls these.

type Db = Pick<Database, 'update' | 'delete'>;

/** Points the request's session at `organizationId` (the person's own account when it is theirs). */
export async function switchSessionOrganization(
  ctx: AppContext,
  request: FastifyRequest,
  organizationId: string,
): Promise<void> {
  const auth = requireUser(request);
  await ctx.db
    .update(sessions)
    .set({ organizationId: organizationId === auth.person.id ? null : organizationId })
    .where(eq(sessions.idHash, auth.sessionIdHash));
}

/**
 * Signs `personId` in (a fresh session, as every sign-in does) working in `organizationId`: an accepted invitation
 * link proves the address, so it is a sign-in.
 */
export async function startSessionInOrganization(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  personId: string,
  organizationId: string,
  /** What the sign-in needs further (a pending second factor, enrolment), as for every other first factor. */
  options: StartSessionOptions = {},
): Promise<void> {
  await startSession(ctx, request, reply, personId, { ...options, organizationId });
}

/**
 * Deletes every session of `personId` working in `organizationId` (a member removed from it); `db` may be the
 * transaction that removes the membership. Answers the sessions' id hashes, for their sockets to be closed after it.
 */
export async function deleteSessionsInOrganization(
  db: Db,
  organizationId: string,
  personId: string,
): Promise<string[]> {
  const deleted = await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.userId, personId),
        sql`coalesce(${sessions.organizationId}, ${sessions.userId}) = ${organizationId}`,
      ),
    )
    .returning({ idHash: sessions.idHash });
  return deleted.map((row) => row.idHash);
}

/** Closes the live sockets of sessions just deleted. */
export function disconnectSessions(ctx: AppContext, idHashes: readonly string[]): void {
  for (const idHash of idHashes) ctx.realtime.disconnectSession(idHash);
}
