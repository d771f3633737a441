import {
  type CreateInvitationInput,
  INVITATION_VALIDITY_DAYS,
  type InvitationPreview,
  type OrganizationRole,
  type OrganizationSummary,
  ROLE_LABELS,
  type TeamInvitation,
} from '../../../contract/team.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { memberPrincipal, personLabel, type SessionPrincipal, signedInPersonOf } from '../../http/principal.js';
import { appUrl } from '../../http/public-urls.js';
import type { RequestAuth } from '../../http/session.js';
import { organizationName } from '../../http/session-user.js';
import { DAY_MS } from '../../lib/clock.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';
import { getEmailBrand } from '../branding/branding.service.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import { createUser, findUserByEmail, normalizeEmail } from '../users/users.service.js';
import type { InvitationRow, PersonRow } from './teams.repository.js';
import * as repository from './teams.repository.js';
import { effectiveMembers, isOwner, limitReached, memberLimit, teamMessages } from './teams.service.js';

// Invitations to a seller organisation (issue 33): inviting by e-mail, resending and withdrawing, and accepting
// through the link, which creates the invitee's account when they have none. The member rules they check (owner
// role, the plan's member limit) are teams.service.ts's; every command that can add a member takes the team's lock.

const INVITATION_VALIDITY_MS = INVITATION_VALIDITY_DAYS * DAY_MS;
/** A resend sends a new link; more than one a minute would only fill the invitee's inbox. */
const RESEND_INTERVAL_MS = 60_000;

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

/** GET /api/team/invitations: the pending ones. */
export async function listInvitations(ctx: AppContext, principal: SessionPrincipal): Promise<TeamInvitation[]> {
  const rows = await repository.listPendingInvitations(ctx, principal.organization.id, ctx.clock.now());
  return rows.map(({ invitation, invitedByEmail }) => presentInvitation(invitation, invitedByEmail));
}

/** POST /api/team/invitations: refuses, writing nothing, what the team or the plan does not allow. */
export async function inviteMember(
  ctx: AppContext,
  principal: SessionPrincipal,
  input: CreateInvitationInput,
): Promise<TeamInvitation> {
  const { organization } = principal;
  const inviter = signedInPersonOf(principal);
  const email = normalizeEmail(input.email);
  const role = input.role as OrganizationRole;
  if (role === 'owner' && !isOwner(principal)) throw new AppError('FORBIDDEN', teamMessages.ownerOnly);
  if (inviter.email && normalizeEmail(inviter.email) === email) {
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
        invitedById: inviter.id,
        createdAt: now,
        lastSentAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_MS),
      },
    );
    await recordAuditEvent(tx, ctx, principal, {
      action: 'member.invited',
      targetType: 'invitation',
      targetId: inserted.id,
      details: { email, role },
    });
    return inserted;
  });
  await sendInvitation(ctx, organization, inviter, invitation, token);
  return presentInvitation(invitation, inviter.email);
}

/** POST /api/team/invitations/:id/resend: a new link (the old one stops working), valid 7 days from now. */
export async function resendInvitation(
  ctx: AppContext,
  principal: SessionPrincipal,
  invitationId: string,
): Promise<TeamInvitation> {
  const { organization } = principal;
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
  await sendInvitation(ctx, organization, signedInPersonOf(principal), renewed, token);
  return presentInvitation(renewed, found.invitedByEmail);
}

/** DELETE /api/team/invitations/:id: its link stops working. */
export async function withdrawInvitation(
  ctx: AppContext,
  principal: SessionPrincipal,
  invitationId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const found = await repository.findInvitation({ db: tx }, principal.organization.id, invitationId);
    if (!found || !(await repository.markWithdrawn({ db: tx }, invitationId, now))) {
      throw new AppError('NOT_FOUND', teamMessages.invitationNotFound);
    }
    await recordAuditEvent(tx, ctx, principal, {
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
    await recordAuditEvent(tx, ctx, memberPrincipal(organization, joiner, invitation.role), {
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
