import { z } from 'zod';
import { secondFactorState } from './security.js';
import { currentOrganizationSchema } from './team.js';

export {
  adminLinkSentMessage,
  MAGIC_LINK_VALIDITY_MINUTES,
  SIGN_IN_LINK_WINDOW_MINUTES,
  SIGN_IN_LINKS_PER_WINDOW,
  SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS,
  SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS_CEILING,
  type SignInErrorCode,
  sellerLinkSentMessage,
  signInErrorMessages,
  signInLinkLimitNote,
} from './auth-messages';

/** The signed-in user as the web app sees it. The code-host token itself never leaves the server. */
export const authUser = z.object({
  id: z.string(),
  userType: z.enum(['seller', 'admin']),
  email: z.string().nullable(),
  githubUsername: z.string().nullable(),
  displayName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  /** Subdomain of the seller's Composer host (`{slug}.{COMPOSER_DOMAIN}`). */
  slug: z.string(),
  /** Tier remembered from `?tier=` at sign-in. */
  selectedTier: z.string().nullable(),
  /** True when a code-host token is stored (the Dashboard's "Private repositories enabled"). */
  hasAccessToken: z.boolean(),
  isImpersonating: z.boolean(),
  /** The admin behind an impersonation. */
  impersonator: z.object({ id: z.string(), email: z.string().nullable() }).optional(),
  /** The organisation the session works in and the person's role there (issue 33); absent for an admin's own account. */
  organization: currentOrganizationSchema.optional(),
  /** What that role may do (contract/team.ts TEAM_PERMISSIONS); an admin's own account: all. */
  permissions: z.array(z.string()).optional(),
  /** Strong sign-in (issue 33): present while the second factor is pending or the person is sent to enrol. */
  secondFactor: secondFactorState.optional(),
});
export type AuthUser = z.infer<typeof authUser>;

/** `tier` is a pricing-tier id; anything that cannot be one is ignored rather than refused. */
const tierId = z
  .string()
  .optional()
  .transform((value) => (value && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined));

export const githubSignInQuery = z.object({ tier: tierId });

export const githubCallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
});

export const magicLinkRequest = z.object({
  email: z.email().max(254),
  userType: z.enum(['admin', 'seller']).default('seller'),
  tier: tierId,
});
export type MagicLinkRequest = z.input<typeof magicLinkRequest>;

export const magicLinkResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Present only when debug routes are enabled (development); otherwise the token travels by e-mail alone. */
  token: z.string().optional(),
});
export type MagicLinkResponse = z.infer<typeof magicLinkResponse>;

export const verifyMagicLinkRequest = z.object({ token: z.string().trim().min(1, 'Token is required').max(200) });

export const verifyMagicLinkResponse = z.object({ success: z.literal(true), user: authUser });
export type VerifyMagicLinkResponse = z.infer<typeof verifyMagicLinkResponse>;

export const magicLinkCallbackQuery = z.object({ token: z.string().max(200).optional() });

export const successResponse = z.object({ success: z.literal(true) });

/** GET /api/debug/session (only when ENABLE_DEBUG_ROUTES): what the /logout-test page shows. */
export const debugSessionResponse = z.object({
  authenticated: z.boolean(),
  user: authUser.nullable(),
  session: z
    .object({
      createdAt: z.string(),
      lastSeenAt: z.string(),
      /** Absolute end of the session. */
      expiresAt: z.string(),
      /** When the session ends if nothing more is requested. */
      idleExpiresAt: z.string(),
      userAgent: z.string().nullable(),
    })
    .nullable(),
  impersonation: z.object({
    active: z.boolean(),
    impersonator: z.object({ id: z.string(), email: z.string().nullable() }).nullable(),
  }),
  cookies: z.object({ session: z.boolean(), csrf: z.boolean() }),
  serverTime: z.string(),
});
export type DebugSession = z.infer<typeof debugSessionResponse>;

export const debugLogoutResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Whether a server session existed and was destroyed. */
  hadSession: z.boolean(),
});
