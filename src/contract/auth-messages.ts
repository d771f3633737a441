// Kept apart from auth.ts and free of zod: the landing page's sign-in dialog needs these, not the schemas.

/** Magic links (admins always; sellers when GitHub sign-in is not configured) are valid this long. */
export const MAGIC_LINK_VALIDITY_MINUTES = 30;

/**
 * Why a browser sign-in ended on `/?error={code}` (GitHub) or `/?signin=email&error={code}` (e-mail link),
 * with the text the web app shows for each.
 */
export const signInErrorMessages = {
  github_state: 'Your sign-in attempt expired or was started in another browser. Please sign in again.',
  github_denied: 'GitHub sign-in was cancelled.',
  github_failed: 'GitHub could not confirm your sign-in. Please try again in a moment.',
  github_account_conflict:
    'This GitHub account or its e-mail address is already linked to another Packgate account. Please contact support.',
  expired: 'This sign-in link has expired. Request a new one below.',
  used: 'This sign-in link has already been used. Request a new one below.',
  invalid: 'This sign-in link is not valid. Request a new one below.',
} as const;
export type SignInErrorCode = keyof typeof signInErrorMessages;
