import { z } from 'zod';

/**
 * Seller organisations, roles and invitations (issue 33). An organisation IS a seller account: its id is the
 * account's user id. Shared by the server (which enforces every permission on every seller route) and the web app
 * (which hides or disables what the role lacks, with the same sentence the server answers in its 403).
 */

export const ORGANIZATION_ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

export const ROLE_LABELS: Record<OrganizationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  support: 'Support',
  viewer: 'Viewer',
};

export const ROLE_DESCRIPTIONS: Record<OrganizationRole, string> = {
  owner: 'Everything, including the plan, payouts, closing the organisation and transferring ownership.',
  admin: 'Everything except the plan, payouts and ownership.',
  developer: 'Packages, prices, licenses, holders, API tokens up to their own permissions, and webhooks.',
  support: 'Holders and licenses (issue, extend, revoke, reset tokens); packages read-only.',
  viewer: 'Read-only dashboard and analytics.',
};

export const TEAM_PERMISSIONS = [
  'dashboard:read',
  'analytics:read',
  'packages:read',
  'packages:write',
  'prices:write',
  'customers:read',
  'customers:write',
  'tokens:read',
  'tokens:write',
  'webhooks:write',
  'branding:write',
  'team:manage',
  'plan:manage',
  'payouts:manage',
  'organization:manage',
] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

const OWNER_ONLY: readonly TeamPermission[] = ['plan:manage', 'payouts:manage', 'organization:manage'];

export const ROLE_PERMISSIONS: Record<OrganizationRole, readonly TeamPermission[]> = {
  owner: TEAM_PERMISSIONS,
  admin: TEAM_PERMISSIONS.filter((permission) => !OWNER_ONLY.includes(permission)),
  developer: [
    'dashboard:read',
    'analytics:read',
    'packages:read',
    'packages:write',
    'prices:write',
    'customers:read',
    'customers:write',
    'tokens:read',
    'tokens:write',
    'webhooks:write',
  ],
  support: ['dashboard:read', 'packages:read', 'customers:read', 'customers:write'],
  viewer: ['dashboard:read', 'analytics:read', 'packages:read'],
};

export function isOrganizationRole(value: unknown): value is OrganizationRole {
  return typeof value === 'string' && (ORGANIZATION_ROLES as readonly string[]).includes(value);
}

export function isTeamPermission(value: unknown): value is TeamPermission {
  return typeof value === 'string' && (TEAM_PERMISSIONS as readonly string[]).includes(value);
}

export function roleCan(role: OrganizationRole, permission: TeamPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** What each permission lets a person do, completing "Your role (viewer) cannot …". */
const PERMISSION_ACTIONS: Record<TeamPermission, string> = {
  'dashboard:read': 'see the dashboard',
  'analytics:read': 'see analytics',
  'packages:read': 'see packages',
  'packages:write': 'change packages',
  'prices:write': 'change prices',
  'customers:read': 'see customers and licenses',
  'customers:write': 'change customers and licenses',
  'tokens:read': 'see API tokens',
  'tokens:write': 'change API tokens',
  'webhooks:write': 'manage webhooks',
  'branding:write': 'change branding',
  'team:manage': 'manage the team',
  'plan:manage': 'manage the plan and billing',
  'payouts:manage': 'manage payouts',
  'organization:manage': 'manage the organisation',
};

/** The server's 403 message and the web's disabled-button reason, e.g. "Your role (support) cannot change packages." */
export function forbiddenMessage(role: OrganizationRole, permission: TeamPermission): string {
  return `Your role (${role}) cannot ${PERMISSION_ACTIONS[permission]}.`;
}

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
