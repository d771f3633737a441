import type { OrganizationRole, OrganizationSummary, TeamMember, TeamMembers } from '../../../contract/team.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { effectiveRole } from '../../http/permissions.js';
import { type SessionPrincipal, signedInPersonOf } from '../../http/principal.js';
import { deleteSessionsInOrganization, disconnectSessions } from '../../http/session-organization.js';
import { organizationName } from '../../http/session-user.js';
import { deleteTokensOfMember } from '../api-tokens/api-tokens.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { findPlanLimits } from '../subscriptions/subscriptions.service.js';
import type { PersonRow } from './teams.repository.js';
import * as repository from './teams.repository.js';

// Seller organisations (issue 33): members and their roles, and the organisations a person works in; invitations
// are in invitations.service.ts, which shares this file's member rules and messages.
// An organisation is a seller account; its founding person is its owner unless a membership row says otherwise
// (after a transfer of ownership) and can never be removed from it. Every command takes the team's lock, so two
// commands never both pass a check (the last owner, the plan's member limit) that only one of them may.

export const teamMessages = {
  memberNotFound: 'Team member not found',
  invitationNotFound: 'Invitation not found',
  ownerOnly: 'Only an owner can grant the owner role or change an owner’s role.',
  lastOwner: 'An organisation needs at least one owner.',
  lastOwnerSuggestion: 'Make another member owner first.',
  founder: 'The person who founded this account cannot be removed from it.',
  founderSuggestion: 'Change their role instead.',
  ownAddress: 'You cannot invite your own address: you are already a member.',
  alreadyMember: (email: string) => `${email} is already a member of this organisation.`,
  pendingInvitation: (email: string) => `An invitation to ${email} is already waiting to be accepted.`,
  pendingSuggestion: 'Resend the pending invitation instead.',
  linkInvalid: 'This invitation link is not valid.',
  linkUsed: 'This invitation was already used.',
  linkWithdrawn: 'This invitation was withdrawn.',
  linkExpired: 'This invitation has expired.',
  linkSuggestion: 'Ask the organisation for a new invitation.',
  otherAddress: (email: string) => `This invitation was sent to ${email}. Sign out and open the link again.`,
  adminCannotJoin: 'An administrator account cannot join a seller organisation.',
  alreadyJoined: (name: string) => `You are already a member of ${name}.`,
  resendTooSoon: 'This invitation was sent less than a minute ago.',
  organizationNotFound: 'Organisation not found',
  impersonating: 'Return to your admin account before switching organisations.',
} as const;

export type EffectiveMember = {
  /** The membership row's id, or the founder's user id while the founder has no row. */
  id: string;
  hasRow: boolean;
  person: PersonRow;
  role: OrganizationRole;
  joinedAt: Date;
};

export type Db = Parameters<typeof repository.listMemberRows>[0];

/** Every member of the organisation: the rows, and the founding person as owner while they have none. */
export async function effectiveMembers(ctx: Db, organization: PersonRow): Promise<EffectiveMember[]> {
  const rows = await repository.listMemberRows(ctx, organization.id);
  const members: EffectiveMember[] = rows.map(({ member, person }) => ({
    id: member.id,
    hasRow: true,
    person,
    role: member.role,
    joinedAt: member.createdAt,
  }));
  if (organization.userType === 'seller' && !rows.some(({ person }) => person.id === organization.id)) {
    members.unshift({
      id: organization.id,
      hasRow: false,
      person: organization,
      role: 'owner',
      joinedAt: organization.createdAt,
    });
  }
  return members;
}

function presentMember(member: EffectiveMember, organizationId: string, viewerId: string): TeamMember {
  return {
    id: member.id,
    userId: member.person.id,
    email: member.person.email,
    displayName: member.person.displayName,
    role: member.role,
    joinedAt: member.joinedAt.toISOString(),
    isYou: member.person.id === viewerId,
    isFounder: member.person.id === organizationId,
  };
}

/** An admin's own account (no role) may do what an owner may. */
export function isOwner(principal: SessionPrincipal): boolean {
  const role = effectiveRole(principal);
  return role === null || role === 'owner';
}

/** The person's role in the organisation: `owner` for its founder, undefined for someone not a member. */
export async function roleIn(
  ctx: Pick<AppContext, 'db'>,
  organizationId: string,
  personId: string,
): Promise<OrganizationRole | undefined> {
  if (personId === organizationId) return 'owner';
  return (await repository.findMemberRow(ctx, organizationId, personId))?.role;
}

/** The plan's member limit (null: none), its owner included. */
export async function memberLimit(ctx: AppContext, organization: PersonRow) {
  const limits = await findPlanLimits(ctx, organization);
  return limits && limits.maxTeamMembers !== null
    ? { tierName: limits.tierName, max: limits.maxTeamMembers }
    : undefined;
}

export function limitReached(limit: { tierName: string; max: number }): AppError {
  return new AppError(
    'FORBIDDEN',
    `Your ${limit.tierName} plan allows ${limit.max} team member${limit.max === 1 ? '' : 's'}.`,
    {
      title: 'Team Member Limit Reached',
      suggestion: 'Remove a member, withdraw a pending invitation or change to a larger plan.',
    },
  );
}

/** GET /api/team/members. */
export async function listMembers(ctx: AppContext, principal: SessionPrincipal): Promise<TeamMembers> {
  const { organization } = principal;
  const members = await effectiveMembers(ctx, organization);
  const limit = await memberLimit(ctx, organization);
  const viewerId = signedInPersonOf(principal).id;
  return {
    members: members.map((member) => presentMember(member, organization.id, viewerId)),
    limit: limit?.max ?? null,
    yourRole: effectiveRole(principal) ?? 'owner',
  };
}

function requireMember(members: EffectiveMember[], memberId: string): EffectiveMember {
  const member = members.find((candidate) => candidate.id === memberId);
  if (!member) throw new AppError('NOT_FOUND', teamMessages.memberNotFound);
  return member;
}

function assertKeepsAnOwner(members: EffectiveMember[], target: EffectiveMember): void {
  const owners = members.filter((member) => member.role === 'owner');
  if (target.role === 'owner' && owners.length <= 1) {
    throw new AppError('CONFLICT', teamMessages.lastOwner, {
      title: 'Last Owner',
      suggestion: teamMessages.lastOwnerSuggestion,
    });
  }
}

/** PATCH /api/team/members/:memberId. */
export async function changeMemberRole(
  ctx: AppContext,
  principal: SessionPrincipal,
  memberId: string,
  role: OrganizationRole,
): Promise<TeamMember> {
  const { organization } = principal;
  const changed = await ctx.db.transaction(async (tx) => {
    await repository.lockTeam({ db: tx }, organization.id);
    const members = await effectiveMembers({ db: tx }, organization);
    const target = requireMember(members, memberId);
    if ((role === 'owner' || target.role === 'owner') && !isOwner(principal)) {
      throw new AppError('FORBIDDEN', teamMessages.ownerOnly);
    }
    if (target.role === role) return target;
    if (role !== 'owner') assertKeepsAnOwner(members, target);
    const row = target.hasRow
      ? await repository.updateMemberRole({ db: tx }, target.id, role)
      : await repository.insertMember(
          { db: tx },
          { organizationId: organization.id, userId: target.person.id, role, createdAt: target.joinedAt },
        );
    await recordAuditEvent(tx, ctx, principal, {
      action: 'member.role_changed',
      targetType: 'member',
      targetId: target.person.id,
      details: { email: target.person.email, from: target.role, to: role },
    });
    return { ...target, id: row.id, hasRow: true, role };
  });
  return presentMember(changed, organization.id, signedInPersonOf(principal).id);
}

/**
 * DELETE /api/team/members/:memberId: the member's sessions working in the organisation end and the API tokens they
 * created in it are deleted, in the same transaction; their open sockets close after it.
 */
export async function removeMember(ctx: AppContext, principal: SessionPrincipal, memberId: string): Promise<void> {
  const { organization } = principal;
  const endedSessions = await ctx.db.transaction(async (tx) => {
    await repository.lockTeam({ db: tx }, organization.id);
    const members = await effectiveMembers({ db: tx }, organization);
    const target = requireMember(members, memberId);
    if (target.person.id === organization.id) {
      throw new AppError('FORBIDDEN', teamMessages.founder, { suggestion: teamMessages.founderSuggestion });
    }
    if (target.role === 'owner' && !isOwner(principal)) throw new AppError('FORBIDDEN', teamMessages.ownerOnly);
    assertKeepsAnOwner(members, target);
    await repository.deleteMember({ db: tx }, target.id);
    const now = ctx.clock.now();
    const tokensDeleted = await deleteTokensOfMember(tx, organization.id, target.person.id, now);
    const sessions = await deleteSessionsInOrganization(tx, organization.id, target.person.id);
    await recordAuditEvent(tx, ctx, principal, {
      action: 'member.removed',
      targetType: 'member',
      targetId: target.person.id,
      details: { email: target.person.email, role: target.role, tokensDeleted, sessionsEnded: sessions.length },
    });
    return sessions;
  });
  disconnectSessions(ctx, endedSessions);
}

/** GET /api/organizations: the person's own account (a seller's) and every organisation they are a member of. */
export async function listOrganizations(ctx: AppContext, principal: SessionPrincipal): Promise<OrganizationSummary[]> {
  const person = signedInPersonOf(principal);
  const currentId = principal.organization.id;
  const memberships = await repository.listMembershipsOf(ctx, person.id);
  const summaries: OrganizationSummary[] = [];
  if (person.userType === 'seller' && !memberships.some(({ organization }) => organization.id === person.id)) {
    summaries.push({
      id: person.id,
      name: organizationName(person),
      slug: person.slug,
      role: 'owner',
      isCurrent: currentId === person.id,
    });
  }
  for (const { organization, role } of memberships) {
    summaries.push({
      id: organization.id,
      name: organizationName(organization),
      slug: organization.slug,
      role,
      isCurrent: currentId === organization.id,
    });
  }
  return summaries;
}

/** POST /api/organizations/current: the organisation to work in, if the person is a member of it. */
export async function chooseOrganization(
  ctx: AppContext,
  principal: SessionPrincipal,
  organizationId: string,
): Promise<OrganizationSummary> {
  if (principal.kind === 'admin' && principal.actingAs === 'owner') {
    throw new AppError('FORBIDDEN', teamMessages.impersonating);
  }
  const chosen = (await listOrganizations(ctx, principal)).find((organization) => organization.id === organizationId);
  if (!chosen) throw new AppError('NOT_FOUND', teamMessages.organizationNotFound);
  return { ...chosen, isCurrent: true };
}
