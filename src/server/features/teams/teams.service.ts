import {
  type CreateInvitationInput,
  INVITATION_VALIDITY_DAYS,
  type InvitationPreview,
  type OrganizationRole,
  type OrganizationSummary,
  ROLE_LABELS,
  type TeamInvitation,
  type TeamMember,
  type TeamMembers,
} from '../../../contract/team.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { effectiveRole } from '../../http/permissions.js';
import { appUrl } from '../../http/public-urls.js';
import type { RequestAuth } from '../../http/session.js';
import { deleteSessionsInOrganization, disconnectSessions } from '../../http/session-organization.js';
import { organizationName } from '../../http/session-user.js';
import { DAY_MS } from '../../lib/clock.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';
import { deleteTokensOfMember } from '../api-tokens/api-tokens.service.js';
import { getEmailBrand } from '../branding/branding.service.js';
import { type Actor, personLabel, recordAuditEvent, sessionActor } from '../shared/audit/audit.service.js';
import { findPlanLimits } from '../subscriptions/subscriptions.service.js';
import { createUser, findUserByEmail, normalizeEmail } from '../users/users.service.js';
import type { InvitationRow, PersonRow } from './teams.repository.js';
import * as repository from './teams.repository.js';

// Seller organisations (issue 33): members and their roles, invitations, and the organisations a person works in.
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

const INVITATION_VALIDITY_MS = INVITATION_VALIDITY_DAYS * DAY_MS;
/** A resend sends a new link; more than one a minute would only fill the invitee's inbox. */
const RESEND_INTERVAL_MS = 60_000;

type EffectiveMember = {
  /** The membership row's id, or the founder's user id while the founder has no row. */
  id: string;
  hasRow: boolean;
  person: PersonRow;
  role: OrganizationRole;
  joinedAt: Date;
};

type Db = Parameters<typeof repository.listMemberRows>[0];

/** Every member of the organisation: the rows, and the founding person as owner while they have none. */
async function effectiveMembers(ctx: Db, organization: PersonRow): Promise<EffectiveMember[]> {
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

function presentInvitation(invitation: InvitationRow, invitedByEmail: string | null): TeamInvitation {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invitedByEmail,
    createdAt: invitation.createdAt.toISOString(),
    lastSentAt: invitation.lastSentAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/** An admin's own account (no role) may do what an owner may. */
function isOwner(auth: RequestAuth): boolean {
  const role = effectiveRole(auth);
  return role === null || role === 'owner';
}

/** The plan's member limit (null: none), its owner included. */
async function memberLimit(ctx: AppContext, organization: PersonRow) {
  const limits = await findPlanLimits(ctx, organization);
  return limits && limits.maxTeamMembers !== null
    ? { tierName: limits.tierName, max: limits.maxTeamMembers }
    : undefined;
}

function limitReached(limit: { tierName: string; max: number }): AppError {
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
export async function listMembers(ctx: AppContext, auth: RequestAuth): Promise<TeamMembers> {
  const members = await effectiveMembers(ctx, auth.user);
  const limit = await memberLimit(ctx, auth.user);
  return {
    members: members.map((member) => presentMember(member, auth.user.id, auth.person.id)),
    limit: limit?.max ?? null,
    yourRole: effectiveRole(auth) ?? 'owner',
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
  auth: RequestAuth,
  actor: Actor,
  memberId: string,
  role: OrganizationRole,
): Promise<TeamMember> {
  const organization = auth.user;
  const changed = await ctx.db.transaction(async (tx) => {
    await repository.lockTeam({ db: tx }, organization.id);
    const members = await effectiveMembers({ db: tx }, organization);
    const target = requireMember(members, memberId);
    if ((role === 'owner' || target.role === 'owner') && !isOwner(auth)) {
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
    await recordAuditEvent(tx, ctx, actor, {
      action: 'member.role_changed',
      targetType: 'member',
      targetId: target.person.id,
      details: { email: target.person.email, from: target.role, to: role },
    });
    return { ...target, id: row.id, hasRow: true, role };
  });
  return presentMember(changed, organization.id, auth.person.id);
}

/**
 * DELETE /api/team/members/:memberId: the member's sessions working in the organisation end and the API tokens they
 * created in it are deleted, in the same transaction; their open sockets close after it.
 */
export async function removeMember(ctx: AppContext, auth: RequestAuth, actor: Actor, memberId: string): Promise<void> {
  const organization = auth.user;
  const endedSessions = await ctx.db.transaction(async (tx) => {
    await repository.lockTeam({ db: tx }, organization.id);
    const members = await effectiveMembers({ db: tx }, organization);
    const target = requireMember(members, memberId);
    if (target.person.id === organization.id) {
      throw new AppError('FORBIDDEN', teamMessages.founder, { suggestion: teamMessages.founderSuggestion });
    }
    if (target.role === 'owner' && !isOwner(auth)) throw new AppError('FORBIDDEN', teamMessages.ownerOnly);
    assertKeepsAnOwner(members, target);
    await repository.deleteMember({ db: tx }, target.id);
    const now = ctx.clock.now();
    const tokensDeleted = await deleteTokensOfMember(tx, organization.id, target.person.id, now);
    const sessions = await deleteSessionsInOrganization(tx, organization.id, target.person.id);
    await recordAuditEvent(tx, ctx, actor, {
      action: 'member.removed',
      targetType: 'member',
      targetId: target.person.id,
      details: { email: target.person.email, role: target.role, tokensDeleted, sessionsEnded: sessions.length },
    });
    return sessions;
  });
  disconnectSessions(ctx, endedSessions);
}

/** GET /api/team/invitations: the pending ones. */
export async function listInvitations(ctx: AppContext, auth: RequestAuth): Promise<TeamInvitation[]> {
  const rows = await repository.listPendingInvitations(ctx, auth.user.id, ctx.clock.now());
  return rows.map(({ invitation, invitedByEmail }) => presentInvitation(invitation, invitedByEmail));
}

/** POST /api/team/invitations: refuses, writing nothing, what the team or the plan does not allow. */
export async function inviteMember(
  ctx: AppContext,
  auth: RequestAuth,
  actor: Actor,
  input: CreateInvitationInput,
): Promise<TeamInvitation> {
  const organization = auth.user;
  const email = normalizeEmail(input.email);
  const role = input.role as OrganizationRole;
  if (role === 'owner' && !isOwner(auth)) throw new AppError('FORBIDDEN', teamMessages.ownerOnly);
  if (auth.person.email && normalizeEmail(auth.person.email) === email) {
    throw new AppError('VALIDATION_FAILED', teamMessages.ownAddress);
  }
  const limit = await memberLimit(ctx, organization);
  const token = generateToken('pgi');
  const now = ctx.clock.now();
  const invitation = await ctx.db.transaction(async (tx) => {
    await repository.lockTeam({ db: tx }, organization.id);
    if (await repository.isMemberAddress({ db: tx }, organization.id, email)) {
      throw new AppError('ALREADY_EXISTS', teamMessages.alreadyMember(email));
    }
    if (await repository.findPendingInvitationTo({ db: tx }, organization.id, email, now)) {
      throw new AppError('ALREADY_EXISTS', teamMessages.pendingInvitation(email), {
        title: 'Invitation Pending',
        suggestion: teamMessages.pendingSuggestion,
      });
    }
    if (limit) {
      const members = (await effectiveMembers({ db: tx }, organization)).length;
      const pending = await repository.countPendingInvitations({ db: tx }, organization.id, now);
      if (members + pending >= limit.max) throw limitReached(limit);
    }
    const inserted = await repository.insertInvitation(
      { db: tx },
      {
        organizationId: organization.id,
        email,
        role,
        tokenHash: sha256Hex(token),
        invitedById: auth.person.id,
        createdAt: now,
        lastSentAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS),
      },
    );
    await recordAuditEvent(tx, ctx, actor, {
      action: 'member.invited',
      targetType: 'invitation',
      targetId: inserted.id,
      details: { email, role },
    });
    return inserted;
  });
  await sendInvitation(ctx, organization, auth.person, invitation, token);
  return presentInvitation(invitation, auth.person.email);
}

/** POST /api/team/invitations/:id/resend: a new link (the old one stops working), valid 7 days from now. */
export async function resendInvitation(
  ctx: AppContext,
  auth: RequestAuth,
  invitationId: string,
): Promise<TeamInvitation> {
  const organization = auth.user;
  const now = ctx.clock.now();
  const found = await repository.findInvitation(ctx, organization.id, invitationId);
  if (!found || !isPending(found.invitation, now)) throw new AppError('NOT_FOUND', teamMessages.invitationNotFound);
  if (now.getTime() - found.invitation.lastSentAt.getTime() < RESEND_INTERVAL_MS) {
    throw new AppError('RATE_LIMITED', teamMessages.resendTooSoon, { suggestion: 'Try again in a minute.' });
  }
  const token = generateToken('pgi');
  const renewed = await repository.renewInvitation(
    ctx,
    invitationId,
    { tokenHash: sha256Hex(token), lastSentAt: now, expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS) },
    now,
  );
  if (!renewed) throw new AppError('NOT_FOUND', teamMessages.invitationNotFound);
  await sendInvitation(ctx, organization, auth.person, renewed, token);
  return presentInvitation(renewed, found.invitedByEmail);
}

/** DELETE /api/team/invitations/:id: its link stops working. */
export async function withdrawInvitation(
  ctx: AppContext,
  auth: RequestAuth,
  actor: Actor,
  invitationId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const found = await repository.findInvitation({ db: tx }, auth.user.id, invitationId);
    if (!found || !(await repository.markWithdrawn({ db: tx }, invitationId, now))) {
      throw new AppError('NOT_FOUND', teamMessages.invitationNotFound);
    }
    await recordAuditEvent(tx, ctx, actor, {
      action: 'invitation.withdrawn',
      targetType: 'invitation',
      targetId: invitationId,
      details: { email: found.invitation.email, role: found.invitation.role },
    });
  });
}

function isPending(invitation: InvitationRow, now: Date): boolean {
  return !invitation.acceptedAt && !invitation.withdrawnAt && invitation.expiresAt.getTime() > now.getTime();
}

const linkError = (message: string) =>
  new AppError('BAD_REQUEST', message, { title: 'Invalid Invitation', suggestion: teamMessages.linkSuggestion });

/** The invitation behind a link, or the reason it cannot be used. */
async function findUsableInvitation(ctx: AppContext, token: string) {
  const found = await repository.findInvitationByTokenHash(ctx, sha256Hex(token.trim()));
  if (!found) throw linkError(teamMessages.linkInvalid);
  const { invitation } = found;
  if (invitation.acceptedAt) throw linkError(teamMessages.linkUsed);
  if (invitation.withdrawnAt) throw linkError(teamMessages.linkWithdrawn);
  if (invitation.expiresAt.getTime() <= ctx.clock.now().getTime()) throw linkError(teamMessages.linkExpired);
  return found;
}

/** GET /api/team/invitations/preview: what the link offers; changes nothing. */
export async function previewInvitation(ctx: AppContext, token: string): Promise<InvitationPreview> {
  const { invitation, organization } = await findUsableInvitation(ctx, token);
  return {
    organizationName: organizationName(organization),
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

export type AcceptedInvitation = { person: PersonRow; organization: OrganizationSummary };

/**
 * POST /api/team/invitations/accept. With a session, the person signed in must be the one invited; without one,
 * the link proves the address: the person is found by it, or their account is created. The route then starts or
 * switches the session to work in the organisation.
 */
export async function acceptInvitation(
  ctx: AppContext,
  token: string,
  signedIn: RequestAuth | undefined,
): Promise<AcceptedInvitation> {
  const { invitation, organization } = await findUsableInvitation(ctx, token);
  let person: PersonRow | undefined = signedIn?.person;
  if (person && normalizeEmail(person.email ?? '') !== invitation.email) {
    throw new AppError('FORBIDDEN', teamMessages.otherAddress(invitation.email));
  }
  person ??= await findUserByEmail(ctx, invitation.email);
  if (person?.userType === 'admin') throw new AppError('FORBIDDEN', teamMessages.adminCannotJoin);
  if (person && (await repository.isMemberAddress(ctx, organization.id, invitation.email))) {
    throw new AppError('ALREADY_EXISTS', teamMessages.alreadyJoined(organizationName(organization)));
  }
  const limit = await memberLimit(ctx, organization);
  // Created before the transaction: a slug taken by a simultaneous sign-up is retried, which a transaction cannot.
  person ??= await createUser(ctx, { userType: 'seller', email: invitation.email });
  const joiner = person;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await repository.lockTeam({ db: tx }, organization.id);
    if (limit && (await effectiveMembers({ db: tx }, organization)).length >= limit.max) throw limitReached(limit);
    if (!(await repository.markAccepted({ db: tx }, invitation.id, joiner.id, now))) {
      throw linkError(teamMessages.linkUsed);
    }
    await repository.insertMember(
      { db: tx },
      {
        organizationId: organization.id,
        userId: joiner.id,
        role: invitation.role,
        invitedById: invitation.invitedById,
        createdAt: now,
      },
    );
    await recordAuditEvent(tx, ctx, sessionActor(organization.id, { id: joiner.id, label: personLabel(joiner) }), {
      action: 'member.joined',
      targetType: 'member',
      targetId: joiner.id,
      details: { email: invitation.email, role: invitation.role, invitationId: invitation.id },
    });
  });
  return {
    person: joiner,
    organization: {
      id: organization.id,
      name: organizationName(organization),
      slug: organization.slug,
      role: invitation.role,
      isCurrent: true,
    },
  };
}

/** GET /api/organizations: the person's own account (a seller's) and every organisation they are a member of. */
export async function listOrganizations(ctx: AppContext, auth: RequestAuth): Promise<OrganizationSummary[]> {
  const person = auth.person;
  const memberships = await repository.listMembershipsOf(ctx, person.id);
  const summaries: OrganizationSummary[] = [];
  if (person.userType === 'seller' && !memberships.some(({ organization }) => organization.id === person.id)) {
    summaries.push({
      id: person.id,
      name: organizationName(person),
      slug: person.slug,
      role: 'owner',
      isCurrent: auth.user.id === person.id,
    });
  }
  for (const { organization, role } of memberships) {
    summaries.push({
      id: organization.id,
      name: organizationName(organization),
      slug: organization.slug,
      role,
      isCurrent: auth.user.id === organization.id,
    });
  }
  return summaries;
}

/** POST /api/organizations/current: the organisation to work in, if the person is a member of it. */
export async function chooseOrganization(
  ctx: AppContext,
  auth: RequestAuth,
  organizationId: string,
): Promise<OrganizationSummary> {
  if (auth.impersonator) throw new AppError('FORBIDDEN', teamMessages.impersonating);
  const chosen = (await listOrganizations(ctx, auth)).find((organization) => organization.id === organizationId);
  if (!chosen) throw new AppError('NOT_FOUND', teamMessages.organizationNotFound);
  return { ...chosen, isCurrent: true };
}

/** The invitation e-mail, in the organisation's brand; the link leads to the app's join page (PUBLIC_URL). */
async function sendInvitation(
  ctx: AppContext,
  organization: PersonRow,
  inviter: PersonRow,
  invitation: InvitationRow,
  token: string,
): Promise<void> {
  const brand = await getEmailBrand(ctx, organization);
  const name = brand.brandName ?? organizationName(organization);
  const link = appUrl(ctx.config, `/team/join?token=${encodeURIComponent(token)}`);
  const support = brand.supportEmail ? ['', `Questions? Write to ${brand.supportEmail}.`] : [];
  await ctx.mailer.send({
    to: invitation.email,
    subject: `${personLabel(inviter)} invited you to join ${name} on Packgate`,
    text: [
      'Hello,',
      '',
      `${personLabel(inviter)} invited you to join ${name} as ${ROLE_LABELS[invitation.role]}.`,
      'Open this link to accept (you will be signed in, or your account created, with this e-mail address):',
      link,
      '',
      `The link works once and expires in ${INVITATION_VALIDITY_DAYS} days. If you did not expect it, you can ignore this e-mail.`,
      ...support,
    ].join('\n'),
    fromName: brand.fromName,
    replyTo: brand.replyTo,
    links: [link],
    reference: `invitation:${invitation.id}`,
  });
}
