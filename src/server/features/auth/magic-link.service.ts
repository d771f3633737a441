import {
  adminLinkSentMessage,
  MAGIC_LINK_VALIDITY_MINUTES,
  SIGN_IN_LINK_WINDOW_MINUTES,
  SIGN_IN_LINKS_PER_WINDOW,
  sellerLinkSentMessage,
} from '../../../contract/auth.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { appUrl } from '../../http/public-urls.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';
import {
  findOrCreateUserByEmail,
  findUserByEmail,
  normalizeEmail,
  type User,
  updateUser,
} from '../users/users.service.js';
import * as repository from './magic-links.repository.js';

export type MagicLinkPurpose = repository.MagicLinkPurposeValue;

const VALIDITY_MS = MAGIC_LINK_VALIDITY_MINUTES * 60_000;

/**
 * At most this many links are e-mailed to one address per window (the per-client-address limits sit on the route). Beyond it
 * a request is answered as usual but sends nothing: refusing it would let anyone lock the owner out by asking
 * for links in their name, and the owner already holds a link that works, since links outlive the window. The
 * answer says so (signInLinkLimitNote), from the same numbers.
 */
export const LINKS_PER_ADDRESS = SIGN_IN_LINKS_PER_WINDOW;
export const LINK_WINDOW_MS = SIGN_IN_LINK_WINDOW_MINUTES * 60_000;

/** token: the link e-mailed by this request; none when nothing was sent (unknown address, or throttled). */
export type IssuedMagicLink = { message: string; token?: string };

/**
 * Admin sign-in (spec admin §2, §8): only pre-created admin accounts get a link. Whatever the address (unknown,
 * a seller's, an admin's) the answer is the same, so that nobody can find out who the admins are by asking.
 */
export async function issueAdminMagicLink(ctx: AppContext, emailInput: string): Promise<IssuedMagicLink> {
  const email = normalizeEmail(emailInput);
  const answer = { message: adminLinkSentMessage(email) };
  const user = await findUserByEmail(ctx, email);
  if (user?.userType !== 'admin') return answer;
  const token = await createLink(ctx, email, 'admin');
  if (!token) return answer;
  const link = appUrl(ctx.config, `/admin/login?token=${encodeURIComponent(token)}`);
  const isSent = await trySendLinkMail(ctx, {
    to: email,
    subject: 'Your Packgate admin sign-in link',
    text: [
      'Hello,',
      '',
      'Use this link to sign in to the Packgate admin area:',
      link,
      '',
      'Or paste this token on the admin login page:',
      token,
      '',
      `The link works once and expires in ${MAGIC_LINK_VALIDITY_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.`,
    ].join('\n'),
    link,
  });
  // A failure is logged but not told: an error only an admin address can cause would name it as one.
  return isSent ? { ...answer, token } : answer;
}

/**
 * Seller sign-in by e-mail, the way in when no code host provides identity. The account is created when the
 * link is opened, so an address nobody has confirmed never becomes an account.
 */
export async function issueSellerMagicLink(
  ctx: AppContext,
  emailInput: string,
  tier: string | undefined,
): Promise<IssuedMagicLink> {
  if (ctx.config.github) {
    // GitHub identity is the source of truth where it is configured: an e-mail link must not bypass it.
    throw new AppError('FORBIDDEN', 'Sellers sign in with GitHub on this Packgate. Please use Sign in with GitHub.', {
      title: 'GitHub Sign-In Required',
    });
  }
  const email = normalizeEmail(emailInput);
  // The same answer when the address has had its links for the window and nothing is sent (see LINKS_PER_ADDRESS).
  const answer = { message: sellerLinkSentMessage(email) };
  const token = await createLink(ctx, email, 'seller', tier);
  if (!token) return answer;
  const link = appUrl(ctx.config, `/api/auth/magic-link/callback?token=${encodeURIComponent(token)}`);
  const isSent = await trySendLinkMail(ctx, {
    to: email,
    subject: 'Your Packgate sign-in link',
    text: [
      'Hello,',
      '',
      'Use this link to sign in to Packgate:',
      link,
      '',
      `The link works once and expires in ${MAGIC_LINK_VALIDITY_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.`,
    ].join('\n'),
    link,
  });
  // Every address gets a link here, so a failed send reveals nothing and the seller should know to retry.
  if (!isSent) {
    throw new AppError('UNAVAILABLE', 'The sign-in e-mail could not be sent. Please try again in a few minutes.');
  }
  return { ...answer, token };
}

export type ConsumeFailure = 'invalid' | 'expired' | 'used';
export type ConsumeResult = { ok: true; user: User } | { ok: false; reason: ConsumeFailure };

/**
 * Spends a token once: a single conditional UPDATE marks it used, so two concurrent verifications cannot
 * both succeed. Returns the account to start a session for.
 */
export async function consumeMagicLink(
  ctx: AppContext,
  token: string,
  purpose: MagicLinkPurpose,
): Promise<ConsumeResult> {
  const tokenHash = sha256Hex(token.trim());
  const now = ctx.clock.now();
  const link = await repository.spendLink(ctx.db, tokenHash, purpose, now);
  if (!link) return { ok: false, reason: await whyUnusable(ctx, tokenHash, purpose) };

  if (purpose === 'admin') {
    const user = await findUserByEmail(ctx, link.email);
    // The account may have been demoted or removed after the link was sent.
    if (user?.userType !== 'admin') {
      throw new AppError('FORBIDDEN', 'This email is not registered as an admin account.');
    }
    return { ok: true, user };
  }

  // GitHub may have been configured after the link was sent; from then on GitHub alone signs sellers in.
  if (ctx.config.github) return { ok: false, reason: 'invalid' };
  const { user } = await findOrCreateUserByEmail(ctx, link.email);
  if (link.selectedTier && link.selectedTier !== user.selectedTier) {
    return { ok: true, user: await updateUser(ctx, user.id, { selectedTier: link.selectedTier }) };
  }
  return { ok: true, user };
}

/** The admin verify endpoint's 400 answers; spec admin §8 matches on 'not valid', 'expired', 'already been used'. */
export function magicLinkError(reason: ConsumeFailure): AppError {
  switch (reason) {
    case 'used':
      return new AppError(
        'BAD_REQUEST',
        'This magic link has already been used. Please request a new magic link to log in again.',
        { title: 'Token Already Used' },
      );
    case 'expired':
      return new AppError(
        'BAD_REQUEST',
        `This magic link has expired. It was valid for ${MAGIC_LINK_VALIDITY_MINUTES} minutes; please request a new one.`,
        { title: 'Token Expired' },
      );
    case 'invalid':
      return new AppError('BAD_REQUEST', 'This magic link token is not valid. Check the token and try again.', {
        title: 'Invalid Token',
        suggestion: 'Request a new magic link if the problem persists.',
      });
  }
}

async function whyUnusable(ctx: AppContext, tokenHash: string, purpose: MagicLinkPurpose): Promise<ConsumeFailure> {
  const link = await repository.findLinkByTokenHash(ctx.db, tokenHash);
  if (!link || link.purpose !== purpose) return 'invalid';
  if (link.usedAt) return 'used';
  return 'expired';
}

/** Stores a new link and returns its token; undefined when the address has had its links for this window. */
async function createLink(
  ctx: AppContext,
  email: string,
  purpose: MagicLinkPurpose,
  selectedTier?: string,
): Promise<string | undefined> {
  if (await isAddressThrottled(ctx, email)) return undefined;
  const token = generateToken('pgml');
  const now = ctx.clock.now();
  await repository.insertLink(ctx.db, {
    tokenHash: sha256Hex(token),
    email,
    purpose,
    selectedTier: selectedTier ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + VALIDITY_MS),
  });
  return token;
}

/** Whether a seller link went to this mailbox in the current window (the per-client-address limit spares the rest). */
export async function hasMailboxHadSellerLink(ctx: AppContext, emailInput: string): Promise<boolean> {
  const windowStart = new Date(ctx.clock.now().getTime() - LINK_WINDOW_MS);
  return repository.hasLinkSince(ctx.db, normalizeEmail(emailInput), 'seller', windowStart);
}

// Counted in the database rather than in memory so the limit holds across processes and restarts.
async function isAddressThrottled(ctx: AppContext, email: string): Promise<boolean> {
  const windowStart = new Date(ctx.clock.now().getTime() - LINK_WINDOW_MS);
  return (await repository.countLinksSince(ctx.db, email, windowStart)) >= LINKS_PER_ADDRESS;
}

/** Whether the mail went out; a failure is logged (without the link). */
async function trySendLinkMail(
  ctx: AppContext,
  mail: { to: string; subject: string; text: string; link: string },
): Promise<boolean> {
  try {
    await ctx.mailer.send({ to: mail.to, subject: mail.subject, text: mail.text, links: [mail.link] });
    return true;
  } catch (error) {
    ctx.log.error({ err: error, to: mail.to }, 'magic link e-mail could not be sent');
    return false;
  }
}
