// Kept apart from auth.ts and free of zod: the landing page's sign-in dialog needs these, not the schemas.

/** Magic links (admins always; sellers when GitHub sign-in is not configured) are valid this long. */
export const MAGIC_LINK_VALIDITY_MINUTES = 30;

/**
 * At most this many sign-in links are e-mailed to one address per window (sellers, admins and license holders
 * alike). A request beyond it is answered like any other and sends nothing: refusing it would tell who has an
 * account and let anyone lock the owner out. So every sign-in answer carries `signInLinkLimitNote`.
 */
export const SIGN_IN_LINKS_PER_WINDOW = 5;
export const SIGN_IN_LINK_WINDOW_MINUTES = 15;

/**
 * Sign-in requests from one client address per window (sellers, admins, the holders' portal): an office behind
 * one address has many mailboxes, so this is far above the per-mailbox limit (issue 36). Past it, a seller's first
 * request for a mailbox that has had no link in the window is still served, up to the ceiling, so colleagues are
 * not locked out by one who kept asking; past the ceiling nothing is, so no address can mail the whole world.
 */
export const SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS = 60;
export const SIGN_IN_REQUESTS_PER_CLIENT_ADDRESS_CEILING = 180;

/** Why a sign-in answer may promise a link that does not come: said to everyone, so it tells nobody anything. */
export const signInLinkLimitNote = `We send at most ${SIGN_IN_LINKS_PER_WINDOW} links to one address in ${SIGN_IN_LINK_WINDOW_MINUTES} minutes; if you asked more often, use a link you already have.`;

/** The answer to a seller's request for a sign-in link, whatever happened to it. */
export const sellerLinkSentMessage = (email: string) =>
  `A sign-in link is on its way to ${email}. It expires in ${MAGIC_LINK_VALIDITY_MINUTES} minutes. ${signInLinkLimitNote}`;

/** The answer to a request for an admin link, the same for an admin's address, a seller's or nobody's. */
export const adminLinkSentMessage = (email: string) =>
  `If ${email} belongs to an admin account, a magic link is on its way. It expires in ${MAGIC_LINK_VALIDITY_MINUTES} minutes. ${signInLinkLimitNote}`;

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
