import { z } from 'zod';
import { entityId } from './ids.js';

// A license holder's named Composer tokens (issue 32): each with a name, a kind, an optional expiry, its creation and
// last use. The token itself is in the answer that creates it (or rotates to it) and never again.

export const holderTokenKindValues = ['developer', 'ci', 'deploy', 'bot'] as const;
export type HolderTokenKindValue = (typeof holderTokenKindValues)[number];

/** What each kind is for, as the portal and Management say it. */
export const holderTokenKindLabels: Record<HolderTokenKindValue, string> = {
  developer: 'Developer (takes a seat)',
  ci: 'CI pipeline',
  deploy: 'Deployment',
  bot: 'Update bot',
};

export const HOLDER_TOKEN_NAME_MAX = 100;
export const ROTATION_OVERLAP_MAX_HOURS = 168;
export const ROTATION_OVERLAP_DEFAULT_HOURS = 24;

/**
 * active: works. overlap: rotated, works until expiresAt. leaked: reported by a secret scanner, works until expiresAt.
 * expired, revoked, replaced (its overlap is over): no longer works.
 */
export const holderTokenStates = ['active', 'overlap', 'leaked', 'expired', 'revoked', 'replaced'] as const;
export type HolderTokenState = (typeof holderTokenStates)[number];

export const holderTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(holderTokenKindValues),
  /** The token's last four characters, to tell tokens apart. */
  tokenHint: z.string().nullable(),
  state: z.enum(holderTokenStates),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** When it stops working: its expiry, the end of a rotation's overlap, or 24 hours after a reported leak. */
  expiresAt: z.string().nullable(),
  rotatedAt: z.string().nullable(),
  replacedById: z.string().nullable(),
  revokedAt: z.string().nullable(),
  leakedAt: z.string().nullable(),
  /** Where a secret scanner found it. */
  leakUrl: z.string().nullable(),
});
export type HolderToken = z.infer<typeof holderTokenSchema>;

/** A token just created or rotated to: the token is here once. */
export const createdHolderTokenSchema = holderTokenSchema.extend({ token: z.string() });
export type CreatedHolderToken = z.infer<typeof createdHolderTokenSchema>;

export const createHolderTokenInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'name is required')
      .max(HOLDER_TOKEN_NAME_MAX, `name must be at most ${HOLDER_TOKEN_NAME_MAX} characters`),
    kind: z.enum(holderTokenKindValues),
    expiresAt: z.iso.datetime({ offset: true }).nullish(),
  })
  .meta({ examples: [{ name: 'GitHub Actions', kind: 'ci' }] });
export type CreateHolderTokenInput = z.input<typeof createHolderTokenInput>;

export const rotateHolderTokenInput = z
  .object({
    overlapHours: z.number().int().min(0).max(ROTATION_OVERLAP_MAX_HOURS).optional(),
  })
  .meta({ examples: [{ overlapHours: 24 }] });
export type RotateHolderTokenInput = z.input<typeof rotateHolderTokenInput>;

export const customerIdParams = z.object({ customerId: entityId });
export const holderTokenParams = z.object({ customerId: entityId, tokenId: entityId });
export const portalTokenParams = z.object({ tokenId: entityId });

export const holderTokenMessages = {
  notFound: 'Token not found',
  alreadyRotated: 'This token was already rotated: rotate its replacement instead.',
  notLive: 'This token no longer works, so it cannot be rotated: create a new one.',
  expiresInPast: 'expiresAt must be in the future',
} as const;

/** What happens to a holder's token a secret scanner reports as leaked: revoked at once, or marked and kept 24 hours. */
export const leakedTokenActions = ['revoke', 'mark'] as const;
export const leakedTokenSettingSchema = z.object({ leakedTokenAction: z.enum(leakedTokenActions) });
export type LeakedTokenSetting = z.infer<typeof leakedTokenSettingSchema>;
export const LEAKED_TOKEN_SETTING_PATH = '/api/settings/leaked-tokens';
