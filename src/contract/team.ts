import { z } from 'zod';

/**
 * Seller organisations, roles and invitations (issue 33). An organisation IS a seller account: its id is the
 * account's user id. Shared by the server (which enforces every permission on every seller route) and the web app
 * (which hides or disables what the role lacks, with the same sentence the server answers in its 403).
 */

import { isOrganizationRole, ORGANIZATION_ROLES } from './team-roles.js';

export * from './team-roles.js';

export const INVITATION_VALIDITY_DAYS = 7;

const roleSchema = z.enum(ORGANIZATION_ROLES);

export const teamMemberSchema = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  role: roleSchema,
  joinedAt: z.string(),
  /** The member is the person looking. */
  isYou: z.boolean(),
  /** The person who founded the account: can be demoted after a transfer of ownership, never removed. */
  isFounder: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** GET /api/team/members. `limit` is the plan's team-member limit (null: unlimited). */
export const teamMembersSchema = z.object({
  members: z.array(teamMemberSchema),
  limit: z.number().int().nullable(),
  yourRole: roleSchema,
});
export type TeamMembers = z.infer<typeof teamMembersSchema>;

export const teamInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  invitedByEmail: z.string().nullable(),
  createdAt: z.string(),
  lastSentAt: z.string(),
  expiresAt: z.string(),
});
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;

export const teamInvitationsSchema = z.object({ invitations: z.array(teamInvitationSchema) });
export type TeamInvitations = z.infer<typeof teamInvitationsSchema>;

const roleInput = z.string().refine(isOrganizationRole, {
  message: `Role must be one of ${ORGANIZATION_ROLES.join(', ')}`,
});

/** POST /api/team/invitations (201, answers a teamInvitationSchema). Owners may invite owners. */
export const createInvitationInput = z.object({
  email: z.email('Enter a valid e-mail address').max(254),
  role: roleInput,
});
export type CreateInvitationInput = z.infer<typeof createInvitationInput>;

/** PATCH /api/team/members/:memberId (answers a teamMemberSchema). */
export const updateMemberInput = z.object({ role: roleInput });
export type UpdateMemberInput = z.infer<typeof updateMemberInput>;

/** GET /api/team/invitations/preview?token= (no session needed; changes nothing). */
export const invitationPreviewQuery = z.object({ token: z.string().trim().min(1).max(200) });
export const invitationPreviewSchema = z.object({
  organizationName: z.string(),
  email: z.string(),
  role: roleSchema,
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** POST /api/team/invitations/accept: answers the organisation joined (the session now works in it). */
export const acceptInvitationInput = z.object({ token: z.string().trim().min(1).max(200) });
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInput>;

export const organizationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  role: roleSchema,
  isCurrent: z.boolean(),
});
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;

/** GET /api/organizations. */
export const organizationsSchema = z.object({ organizations: z.array(organizationSummarySchema) });
export type Organizations = z.infer<typeof organizationsSchema>;

/** POST /api/organizations/current: answers the organisation now worked in (an organizationSummarySchema). */
export const switchOrganizationInput = z.object({ organizationId: z.uuid() });
export type SwitchOrganizationInput = z.infer<typeof switchOrganizationInput>;

/** Added to GET /api/auth/user: the organisation the session works in, and what the person's role may do there. */
export const currentOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  role: roleSchema,
});
export type CurrentOrganization = z.infer<typeof currentOrganizationSchema>;

/** The answer to POST /api/team/invitations/accept. */
export const acceptInvitationResponse = z.object({ organization: organizationSummarySchema });
export type AcceptInvitationResponse = z.infer<typeof acceptInvitationResponse>;
