import { z } from 'zod';

// Strong sign-in (issue 33 item 5): passkeys, an authenticator app (TOTP), recovery codes, and the signed-in sessions.
// WebAuthn's own JSON (the options the browser gets, the response it sends back) is @simplewebauthn's shape; the
// contract bounds its size and passes it through, and the server's verification is what refuses a bad one.

/** How many one-time recovery codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;

/** The sentence every security screen shows (issue 33: say so on the screen). */
export const LOST_FACTORS_NOTICE =
  'If you lose every passkey and your authenticator app, only a recovery code or another owner of your organisation can get you back in. Keep your recovery codes somewhere safe.';

/** A WebAuthn response as the browser's @simplewebauthn/browser gives it; verified by the server, bounded here. */
const webauthnResponse = z
  .object({ id: z.string().min(1).max(1400), rawId: z.string().min(1).max(1400), type: z.literal('public-key') })
  .loose()
  .refine((value) => JSON.stringify(value).length <= 64_000, { message: 'The passkey response is too large.' });

export const passkeyRegistrationRequest = z.object({
  response: webauthnResponse,
  /** The name the person gives the passkey (e.g. "MacBook Touch ID"). */
  name: z.string().trim().min(1).max(100).default('Passkey'),
});
export type PasskeyRegistrationRequest = z.input<typeof passkeyRegistrationRequest>;

export const passkeyAuthenticationRequest = z.object({ response: webauthnResponse });

/** The WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON or ...RequestOptionsJSON). */
export const webauthnOptions = z.record(z.string(), z.unknown());

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const renamePasskeyRequest = z.object({ name: z.string().trim().min(1).max(100) });
export const passkeyIdParams = z.object({ passkeyId: z.uuid() });

export const totpEnrolmentResponse = z.object({
  /** otpauth://totp/... for the authenticator app. */
  uri: z.string(),
  /** The same secret in base32, to type in. */
  secret: z.string(),
  /** The URI as a QR code, an SVG data: URL. */
  qrCode: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentResponse>;

/** A six-digit authenticator code; spaces are allowed and removed. */
const totpCode = z
  .string()
  .max(20)
  .transform((value) => value.replaceAll(' ', ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

export const totpCodeRequest = z.object({ code: totpCode });
export const recoveryCodeRequest = z.object({ code: z.string().trim().min(1).max(40) });

/** Recovery codes, shown once, when a set is made. */
export const recoveryCodesResponse = z.object({ codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesResponse>;

/** A sign-in answer: whether the session still has to pass a second factor. */
export const secondFactorResult = z.object({
  success: z.literal(true),
  /** Recovery codes made on the first factor's enrolment; shown once. */
  recoveryCodes: z.array(z.string()).optional(),
});

export const securityOverview = z.object({
  passkeys: z.array(passkeySchema),
  totpEnabled: z.boolean(),
  recoveryCodesRemaining: z.number().int(),
  /** Whether the platform requires this person to have a second factor. */
  secondFactorRequired: z.boolean(),
});
export type SecurityOverview = z.infer<typeof securityOverview>;

export const signedInSession = z.object({
  /** An opaque id for this list (not the cookie, not its hash). */
  id: z.string(),
  device: z.string(),
  /** The network the session began on, e.g. "203.0.113.0/24", or null when unknown. */
  network: z.string().nullable(),
  signInMethod: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof signedInSession>;
export const signedInSessionsResponse = z.array(signedInSession);
export const sessionIdParams = z.object({ sessionId: z.string().regex(/^[0-9a-f]{16}$/) });

/** The second-factor state of the session, in GET /api/auth/user. */
export const secondFactorState = z.object({
  /** Signed in by link or GitHub, the second factor still to pass. */
  pending: z.boolean(),
  /** The platform requires a second factor and the person has none: they are sent to enrol first. */
  enrolmentRequired: z.boolean(),
  /** Which factors the person can use for the verify step. */
  methods: z.array(z.enum(['passkey', 'totp', 'recovery_code'])),
});
export type SecondFactorState = z.infer<typeof secondFactorState>;
