/**
 * The roles of a seller organisation and what each may do (issue 33), without the API's schemas: the web app's first
 * page reads these to hide or disable what a role lacks, and must not load zod for it (the first JavaScript budget).
 * contract/team.ts re-exports everything here beside the schemas.
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

/** What a developer may do: the packages, their prices and licenses, holders, API tokens and webhooks. */
const DEVELOPER_PERMISSIONS = [
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
] as const;

/** The plan, payouts and the organisation itself (closing it, transferring ownership). */
const OWNER_PERMISSIONS = ['plan:manage', 'payouts:manage', 'organization:manage'] as const;

export const TEAM_PERMISSIONS = [
  ...DEVELOPER_PERMISSIONS,
  'branding:write',
  'team:manage',
  ...OWNER_PERMISSIONS,
] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

const OWNER_ONLY: readonly TeamPermission[] = OWNER_PERMISSIONS;

export const ROLE_PERMISSIONS: Record<OrganizationRole, readonly TeamPermission[]> = {
  owner: TEAM_PERMISSIONS,
  admin: TEAM_PERMISSIONS.filter((permission) => !OWNER_ONLY.includes(permission)),
  developer: DEVELOPER_PERMISSIONS,
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
