import { z } from 'zod';

// The developer platform's API tokens (spec admin-and-developer-platform §2 /api-tokens, §3 API token,
// §4, §5, §6, §7, §8): what the /api-tokens page and `/api/developer/tokens` exchange.

/** Spec §6: the 8 permission values, in the order the create dialog lists them. `*` is full access. */
export const API_TOKEN_PERMISSIONS = [
  'packages:read',
  'packages:write',
  'customers:read',
  'customers:write',
  'analytics:read',
  'tokens:read',
  'tokens:write',
  '*',
] as const;
export type ApiTokenPermission = (typeof API_TOKEN_PERMISSIONS)[number];

/** What each permission allows (spec §6), shown beside its checkbox. */
export const API_TOKEN_PERMISSION_DESCRIPTIONS: Record<ApiTokenPermission, string> = {
  'packages:read': 'View package info and pricing tiers',
  'packages:write': 'Create, update, delete packages',
  'customers:read': 'View customers and licenses',
  'customers:write': 'Manage licenses and access',
  'analytics:read': 'View sales and usage analytics',
  'tokens:read': 'View API tokens',
  'tokens:write': 'Create and delete API tokens',
  '*': 'Full access',
};

/** API tokens start with this prefix (Composer tokens start with `pgc_`), so a leaked one is recognisable. */
export const API_TOKEN_PREFIX = 'pga_';
export const API_TOKEN_NAME_MAX_LENGTH = 100;

/** Spec §3 API token. `expiresAt` and `lastUsedAt` are ISO strings or null (never expires / never used). */
export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(z.enum(API_TOKEN_PERMISSIONS)),
  expiresAt: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;
export const apiTokenListSchema = z.array(apiTokenSchema);

/** POST /api/developer/tokens. Spec §5: name non-blank, at least one permission, expiry optional and not in the past. */
export const createApiTokenInput = z.object({
  name: z.string().trim().min(1, 'Token name is required').max(API_TOKEN_NAME_MAX_LENGTH),
  permissions: z
    .array(z.enum(API_TOKEN_PERMISSIONS))
    .min(1, 'Choose at least one permission')
    .max(API_TOKEN_PERMISSIONS.length),
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
});
export type CreateApiTokenInput = z.infer<typeof createApiTokenInput>;

/** The create answer: the token's record plus the plaintext token, shown once and never again. */
export const createdApiTokenSchema = apiTokenSchema.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

/** Spec §4: Active when isActive and not past expiresAt; Inactive when not active; Expired when the expiry has passed. */
export type ApiTokenState = 'active' | 'inactive' | 'expired';
export function apiTokenState(token: Pick<ApiToken, 'isActive' | 'expiresAt'>, now: Date): ApiTokenState {
  if (!token.isActive) return 'inactive';
  if (token.expiresAt && new Date(token.expiresAt).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** Spec §9: 30 requests per minute per token on /api/v1. */
export const API_V1_RATE_LIMIT = { max: 30, windowMs: 60_000 } as const;
/**
 * Failed authentications (a token sent and refused) per client address on /api/v1 (issue 28): beyond them the
 * address is refused, valid tokens included, until the window ends, so that guessing tokens is slowed.
 */
export const API_V1_AUTH_FAILURE_LIMIT = { max: 20, windowMs: 10 * 60_000 } as const;
export const API_V1_VERSION = 'v1';
