import { and, asc, count, desc, eq, gt, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, totalOf, writtenRow } from '../../db/result-rows.js';
import { type OrganizationRole, organizationInvitations, organizationMembers, users } from '../../db/schema/index.js';

// Queries of organization_members and organization_invitations (issue 33); only the teams domain writes them.
// An organisation is a seller account (`users.id`); its founding person is its owner unless a membership row says
// otherwise, and accounts made before teams have that row (migration 0027), newer ones may not.

type Db = { db: Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'> };

export type MemberRow = typeof organizationMembers.$inferSelect;
export type InvitationRow = typeof organizationInvitations.$inferSelect;
export type PersonRow = typeof users.$inferSelect;

/** Serialises the team commands of one organisation (roles, removals, invitations, joins) in `tx`. */
export async function lockTeam(ctx: Db, organizationId: string): Promise<void> {
  await ctx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`team:${organizationId}`}))`);
}

export type MemberWithPerson = { member: MemberRow; person: PersonRow };

/** The organisation's membership rows with their people, oldest first. */
export async function listMemberRows(ctx: Db, organizationId: string): Promise<MemberWithPerson[]> {
  return ctx.db
    .select({ member: organizationMembers, person: users })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(asc(organizationMembers.createdAt), asc(organizationMembers.id));
}

/** The organisation's membership row that `which` picks (by its person or by its own id). */
function findMemberRowWhere(ctx: Db, organizationId: string, which: SQL): Promise<MemberRow | undefined> {
  return firstRow(
    ctx.db
      .select()
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), which))
      .limit(1),
  );
}

export async function findMemberRow(ctx: Db, organizationId: string, userId: string): Promise<MemberRow | undefined> {
  return findMemberRowWhere(ctx, organizationId, eq(organizationMembers.userId, userId));
}

export async function findMemberRowById(
  ctx: Db,
  organizationId: string,
  memberId: string,
): Promise<MemberRow | undefined> {
  return findMemberRowWhere(ctx, organizationId, eq(organizationMembers.id, memberId));
}

export async function insertMember(ctx: Db, values: typeof organizationMembers.$inferInsert): Promise<MemberRow> {
  const [row] = await ctx.db.insert(organizationMembers).values(values).onConflictDoNothing().returning();
  if (row) return row;
  const existing = await findMemberRow(ctx, values.organizationId, values.userId);
  if (!existing) throw new Error('membership insert returned nothing');
  return existing;
}

export async function updateMemberRole(ctx: Db, memberId: string, role: OrganizationRole): Promise<MemberRow> {
  return writtenRow(
    ctx.db.update(organizationMembers).set({ role }).where(eq(organizationMembers.id, memberId)).returning(),
    "The member's new role",
  );
}

export async function deleteMember(ctx: Db, memberId: string): Promise<void> {
  await ctx.db.delete(organizationMembers).where(eq(organizationMembers.id, memberId));
}

/** The organisations `personId` is a member of (by a row), with their role; their own account is added by the service. */
export async function listMembershipsOf(
  ctx: Db,
  personId: string,
): Promise<{ organization: PersonRow; role: OrganizationRole }[]> {
  const organization = alias(users, 'organization');
  return ctx.db
    .select({ organization, role: organizationMembers.role })
    .from(organizationMembers)
    .innerJoin(organization, eq(organization.id, organizationMembers.organizationId))
    .where(and(eq(organizationMembers.userId, personId), isNull(organization.closedAt)))
    .orderBy(asc(organizationMembers.createdAt));
}

/** Invitations not yet accepted, withdrawn or expired. */
const pending = (now: Date) =>
  and(
    isNull(organizationInvitations.acceptedAt),
    isNull(organizationInvitations.withdrawnAt),
    gt(organizationInvitations.expiresAt, now),
  );

export type InvitationWithInviter = { invitation: InvitationRow; invitedByEmail: string | null };

/** Invitations, each with the address of the person who sent it (null once that person is gone). */
const invitationsWithInviter = (ctx: Db) =>
  ctx.db
    .select({ invitation: organizationInvitations, invitedByEmail: users.email })
    .from(organizationInvitations)
    .leftJoin(users, eq(users.id, organizationInvitations.invitedById));

export async function listPendingInvitations(
  ctx: Db,
  organizationId: string,
  now: Date,
): Promise<InvitationWithInviter[]> {
  return invitationsWithInviter(ctx)
    .where(and(eq(organizationInvitations.organizationId, organizationId), pending(now)))
    .orderBy(desc(organizationInvitations.createdAt), desc(organizationInvitations.id));
}

export async function countPendingInvitations(
  ctx: Db,
  organizationId: string,
  now: Date,
  except?: string,
): Promise<number> {
  return totalOf(
    ctx.db
      .select({ total: count() })
      .from(organizationInvitations)
      .where(
        and(
          eq(organizationInvitations.organizationId, organizationId),
          pending(now),
          except ? ne(organizationInvitations.id, except) : undefined,
        ),
      ),
  );
}

export async function findPendingInvitationTo(
  ctx: Db,
  organizationId: string,
  email: string,
  now: Date,
): Promise<InvitationRow | undefined> {
  return firstRow(
    ctx.db
      .select()
      .from(organizationInvitations)
      .where(
        and(
          eq(organizationInvitations.organizationId, organizationId),
          sql`lower(${organizationInvitations.email}) = ${email}`,
          pending(now),
        ),
      )
      .limit(1),
  );
}

export async function findInvitation(
  ctx: Db,
  organizationId: string,
  invitationId: string,
): Promise<InvitationWithInviter | undefined> {
  return firstRow(
    invitationsWithInviter(ctx)
      .where(
        and(eq(organizationInvitations.organizationId, organizationId), eq(organizationInvitations.id, invitationId)),
      )
      .limit(1),
  );
}

export async function findInvitationByTokenHash(
  ctx: Db,
  tokenHash: string,
): Promise<{ invitation: InvitationRow; organization: PersonRow } | undefined> {
  return firstRow(
    ctx.db
      .select({ invitation: organizationInvitations, organization: users })
      .from(organizationInvitations)
      .innerJoin(users, eq(users.id, organizationInvitations.organizationId))
      .where(eq(organizationInvitations.tokenHash, tokenHash))
      .limit(1),
  );
}

export async function insertInvitation(
  ctx: Db,
  values: typeof organizationInvitations.$inferInsert,
): Promise<InvitationRow> {
  return writtenRow(ctx.db.insert(organizationInvitations).values(values).returning(), 'The new invitation');
}

/** A new link for a pending invitation; undefined when it is no longer pending. */
export async function renewInvitation(
  ctx: Db,
  invitationId: string,
  values: { tokenHash: string; lastSentAt: Date; expiresAt: Date },
  now: Date,
): Promise<InvitationRow | undefined> {
  return firstRow(
    ctx.db
      .update(organizationInvitations)
      .set(values)
      .where(and(eq(organizationInvitations.id, invitationId), pending(now)))
      .returning(),
  );
}

export async function markWithdrawn(ctx: Db, invitationId: string, now: Date): Promise<boolean> {
  return hasAnyRow(
    ctx.db
      .update(organizationInvitations)
      .set({ withdrawnAt: now })
      .where(and(eq(organizationInvitations.id, invitationId), pending(now)))
      .returning({ id: organizationInvitations.id }),
  );
}

/** Spends the invitation: false when another request spent, withdrew or outlived it first (single use). */
export async function markAccepted(ctx: Db, invitationId: string, personId: string, now: Date): Promise<boolean> {
  return hasAnyRow(
    ctx.db
      .update(organizationInvitations)
      .set({ acceptedAt: now, acceptedById: personId })
      .where(and(eq(organizationInvitations.id, invitationId), pending(now)))
      .returning({ id: organizationInvitations.id }),
  );
}

/** True when `email` names a person who is a member of the organisation (its founder included). */
export async function isMemberAddress(ctx: Db, organizationId: string, email: string): Promise<boolean> {
  return hasAnyRow(
    ctx.db
      .select({ id: users.id })
      .from(users)
      .leftJoin(
        organizationMembers,
        and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, users.id)),
      )
      .where(
        and(
          sql`lower(${users.email}) = ${email}`,
          or(eq(users.id, organizationId), sql`${organizationMembers.id} is not null`),
        ),
      )
      .limit(1),
  );
}
