import { z } from 'zod';
import { SIGN_IN_LINK_WINDOW_MINUTES, SIGN_IN_LINKS_PER_WINDOW } from '../../../contract/auth-messages.js';
import {
  PORTAL_LINK_VALIDITY_MINUTES,
  type PortalOverview,
  type PortalRotateTokenResponse,
  type PortalSignInInput,
  portalLinkSentMessage,
  portalMessages,
} from '../../../contract/portal.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { RequestHost } from '../../http/hosts.js';
import type { HolderPrincipal, Principal } from '../../http/principal.js';
import { DAY_MS, HOUR_MS } from '../../lib/clock.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';
import { findHostBrand, getEmailBrand, repositoryUrlFor } from '../branding/branding.service.js';
import { replaceHolderToken } from '../licenses/customers.service.js';
import { findCustomerByEmail } from '../licenses/grants.service.js';
import { describeGrantCoverage } from '../licenses/license-coverage.service.js';
import { findHostSeller, normalizeEmail, type SellerProfile } from '../users/users.service.js';
import * as repository from './portal.repository.js';
import { licenseStanding } from './portal-license-state.js';

// The license holder's portal (issue 13). A holder is a customer row: one seller, one e-mail address. The portal
// lives on that seller's repository host, so a holder of three sellers has three portals, each with its own
// sign-in and session, as Composer keeps one credential per host.

const LINK_VALIDITY_MS = PORTAL_LINK_VALIDITY_MINUTES * 60_000;

/**
 * At most this many links are e-mailed to one holder per window (the per-address limit sits on the route). Beyond
 * it the answer is the same and nothing is sent: refusing would tell that the address holds a license, and would
 * let anyone lock the holder out; the holder already has a link that works, since links outlive the window. The
 * answer says so (portalLinkSentMessage), from the same numbers.
 */
export const LINKS_PER_HOLDER = SIGN_IN_LINKS_PER_WINDOW;
export const LINK_WINDOW_MS = SIGN_IN_LINK_WINDOW_MINUTES * 60_000;

/** A portal session ends after this long, or after this long unused. */
export const SESSION_ABSOLUTE_MS = 7 * DAY_MS;
export const SESSION_IDLE_MS = 12 * HOUR_MS;
// Refreshing lastSeenAt on every request would turn each read into a write.
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** The seller whose host this is, or 404: the portal exists on repository hosts of a seller only. */
export async function getHostSeller(ctx: AppContext, host: RequestHost): Promise<SellerProfile> {
  const seller = await findHostSeller(ctx, host);
  if (!seller) throw new AppError('NOT_FOUND', portalMessages.notAPortalHost);
  return seller;
}

function parseEmail(input: string | undefined): string {
  const email = normalizeEmail(input ?? '');
  if (email === '') throw new AppError('VALIDATION_FAILED', portalMessages.emailRequired);
  if (!z.email().safeParse(email).success) throw new AppError('VALIDATION_FAILED', portalMessages.emailInvalid);
  return email;
}

/**
 * POST /api/portal/sign-in: e-mails a sign-in link for this host when the address holds a license of its seller.
 * The answer is the same in every case (holder or not, throttled or not, mail sent or not).
 * `portalUrl` is the origin the holder asked on (the seller's host), where the link must lead back to.
 */
export async function requestSignInLink(
  ctx: AppContext,
  host: RequestHost,
  portalUrl: string,
  input: PortalSignInInput | null | undefined,
): Promise<{ message: string; token?: string }> {
  const seller = await getHostSeller(ctx, host);
  const email = parseEmail(input?.email);
  const answer = { message: portalLinkSentMessage(email) };
  const customer = await findCustomerByEmail(ctx.db, seller.id, email);
  if (!customer) return answer;
  const now = ctx.clock.now();
  const sent = await repository.countLinksSince(ctx, customer.id, new Date(now.getTime() - LINK_WINDOW_MS));
  if (sent >= LINKS_PER_HOLDER) return answer;

  const token = generateToken('pgpl');
  await repository.insertSignInLink(ctx, {
    tokenHash: sha256Hex(token),
    customerId: customer.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + LINK_VALIDITY_MS),
  });
  const brand = await getEmailBrand(ctx, seller);
  const brandName = brand.brandName ?? 'your license portal';
  const link = `${portalUrl}/portal?token=${encodeURIComponent(token)}`;
  const support = brand.supportEmail ? ['', `Questions? Write to ${brand.supportEmail}.`] : [];
  try {
    await ctx.mailer.send({
      to: customer.email,
      subject: brand.brandName ? `Sign in to your ${brand.brandName} licenses` : 'Sign in to your licenses',
      text: [
        'Hello,',
        '',
        `Use this link to sign in to ${brand.brandName ? `the ${brand.brandName} license portal` : brandName}:`,
        link,
        '',
        `The link works once and expires in ${PORTAL_LINK_VALIDITY_MINUTES} minutes. If you did not ask for it, you can ignore this e-mail.`,
        ...support,
      ].join('\n'),
      fromName: brand.fromName,
      replyTo: brand.replyTo,
      links: [link],
      reference: `portal-sign-in:${customer.id}`,
    });
  } catch (error) {
    // Not told: an error only a holder's address can cause would name it as one.
    ctx.log.error({ err: error }, 'portal sign-in e-mail could not be sent');
    return answer;
  }
  return { ...answer, token };
}

/** POST /api/portal/sign-in/verify: spends the link (this seller's only) and starts a session; the cookie value. */
export async function verifySignInLink(
  ctx: AppContext,
  host: RequestHost,
  tokenInput: string | undefined,
): Promise<{ cookieValue: string; email: string }> {
  const seller = await getHostSeller(ctx, host);
  const token = (tokenInput ?? '').trim();
  if (token === '') throw new AppError('VALIDATION_FAILED', portalMessages.linkInvalid);
  const tokenHash = sha256Hex(token);
  const now = ctx.clock.now();
  const customerId = await repository.consumeSignInLink(ctx, tokenHash, seller.id, now);
  if (!customerId) {
    const link = await repository.findLinkOfSeller(ctx, tokenHash, seller.id);
    if (!link) throw new AppError('BAD_REQUEST', portalMessages.linkInvalid, { title: 'Invalid Link' });
    if (link.usedAt) throw new AppError('BAD_REQUEST', portalMessages.linkUsed, { title: 'Link Already Used' });
    throw new AppError('BAD_REQUEST', portalMessages.linkExpired, { title: 'Link Expired' });
  }
  const cookieValue = generateToken('pgps');
  await repository.insertSession(ctx, {
    idHash: sha256Hex(cookieValue),
    customerId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
  });
  const session = await findHolder(ctx, host, cookieValue);
  if (!session) throw new AppError('BAD_REQUEST', portalMessages.linkInvalid, { title: 'Invalid Link' });
  return { cookieValue, email: session.email };
}

/** The holder behind a portal cookie, on this host only; undefined when signed out, expired or another seller's. */
export async function findHolder(
  ctx: AppContext,
  host: RequestHost,
  cookieValue: string | undefined,
): Promise<HolderPrincipal | undefined> {
  if (!cookieValue || host.kind !== 'repository' || !host.seller) return undefined;
  const idHash = sha256Hex(cookieValue);
  const now = ctx.clock.now();
  const row = await repository.findSessionOnHost(ctx, idHash, host.seller.slug, now);
  if (!row) return undefined;
  const idleMs = now.getTime() - row.lastSeenAt.getTime();
  if (idleMs > SESSION_IDLE_MS) {
    await repository.deleteSession(ctx, idHash);
    return undefined;
  }
  if (idleMs > LAST_SEEN_RESOLUTION_MS) await repository.touchSession(ctx, idHash, now);
  return {
    kind: 'portal_holder',
    sessionIdHash: idHash,
    sellerId: row.sellerId,
    person: null,
    customerId: row.customerId,
    email: row.email,
    tokenIssuedAt: row.tokenIssuedAt,
  };
}

/** The holder the portal's hook signed in (http/principal.ts); any other principal, or none, is not one. */
export function requireHolder(principal: Principal | undefined): HolderPrincipal {
  const holder = principal?.kind === 'portal_holder' ? principal : undefined;
  if (!holder) throw new AppError('UNAUTHENTICATED', portalMessages.signInRequired);
  return holder;
}

export async function signOut(ctx: AppContext, principal: Principal | undefined): Promise<void> {
  if (principal?.kind === 'portal_holder') await repository.deleteSession(ctx, principal.sessionIdHash);
}

/** GET /api/portal/licenses: every license the signed-in holder has from this seller, as Composer treats it. */
export async function getOverview(
  ctx: AppContext,
  host: RequestHost,
  holder: HolderPrincipal,
): Promise<PortalOverview> {
  const seller = await getHostSeller(ctx, host);
  const [held, receipts, hostBrand, emailBrand] = await Promise.all([
    repository.listHeldGrants(ctx, holder.customerId),
    repository.listReceipts(ctx, holder.customerId),
    findHostBrand(ctx, host),
    getEmailBrand(ctx, seller),
  ]);
  const productPackages = await repository.listProductPackages(ctx, [
    ...new Set(held.flatMap((row) => (row.grant.productId ? [row.grant.productId] : []))),
  ]);
  // The packages each license covers: its own, or its product's now.
  const packagesOf = (grant: (typeof held)[number]['grant']) =>
    grant.productId ? (productPackages.get(grant.productId) ?? []) : [];
  const tags = await repository.listTags(ctx, [
    ...new Set(
      held.flatMap((row) => (row.grant.packageId ? [row.grant.packageId] : packagesOf(row.grant).map((p) => p.id))),
    ),
  ]);
  const now = ctx.clock.now();
  return {
    email: holder.email,
    sellerName: hostBrand?.brandName ?? seller.slug,
    supportEmail: hostBrand?.supportEmail ?? null,
    repositoryUrl: repositoryUrlFor(ctx, { slug: seller.slug, brandDomain: emailBrand.verifiedDomain }),
    repositoryName: seller.slug,
    tokenIssuedAt: holder.tokenIssuedAt.toISOString(),
    licenses: held.map(({ grant, packageName, description, isPackageActive }) => {
      const standing = licenseStanding(
        {
          packageName,
          packageIsActive: isPackageActive,
          status: grant.status,
          expiresAt: grant.expiresAt,
          endMode: grant.endMode,
          downloadLimit: grant.downloadLimit,
          downloadCount: grant.downloadCount,
        },
        tags.filter((tag) =>
          grant.productId
            ? packagesOf(grant).some((pkg) => pkg.id === tag.packageId)
            : tag.packageId === grant.packageId,
        ),
        now,
      );
      const packageNames = grant.productId ? packagesOf(grant).map((pkg) => pkg.name) : [packageName];
      const covers = describeGrantCoverage(grant, { productId: grant.productId, name: packageName, packageNames });
      return {
        id: grant.id,
        packageName,
        description,
        kind: grant.kind,
        ...standing,
        expiresAt: grant.expiresAt?.toISOString() ?? null,
        downloadCount: grant.downloadCount,
        downloadLimit: grant.downloadLimit,
        lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
        covers,
        packageNames,
      };
    }),
    receipts: receipts.map((receipt) => ({ ...receipt, paidAt: receipt.paidAt.toISOString() })),
  };
}

/**
 * POST /api/portal/token: a new Composer token for the signed-in holder, through the licenses domain (which owns
 * the token and e-mails it in the seller's brand); the old one is refused from its next request. The seller's
 * audit trail records it as the dashboard's and API v1's resets are, done by the license holder.
 */
export async function rotateToken(ctx: AppContext, holder: HolderPrincipal): Promise<PortalRotateTokenResponse> {
  const replaced = await replaceHolderToken(ctx, holder, holder.email, {
    notify: true,
    byHolder: true,
  });
  return {
    token: replaced.token,
    tokenIssuedAt: replaced.tokenIssuedAt.toISOString(),
    message: `Your new token is shown once here and was e-mailed to ${replaced.email}. The previous token no longer works.`,
  };
}
