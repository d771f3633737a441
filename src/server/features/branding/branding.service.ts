import {
  BRAND_COLOR_DEFAULTS,
  type BrandSettings,
  brandColorFields,
  HEX_COLOR,
  type HostBrand,
  type UpdateBrandSettingsInput,
  type VerifyDomainResponse,
} from '../../../contract/branding.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../http/errors.js';
import type { RequestHost } from '../../http/hosts.js';
import { appUrl } from '../../http/public-urls.js';
import {
  isOwnUploadedLogo,
  logoStorageKey,
  parseBrandSettingsInput,
  senderNameProblem,
} from './brand-settings-input.js';
import type { BrandRow, BrandSeller } from './branding.repository.js';
import * as repository from './branding.repository.js';
import { type CnameResolver, checkCname, forgetCustomDomains } from './custom-domains.js';
import { repositoryUrlFor } from './repository-url.js';

// The repository URL follows the seller's verified custom domain, which branding owns; licenses and
// API v1 ask branding for it.
export { type RepositorySeller, repositoryUrlFor } from './repository-url.js';

// A seller's brand: the settings form (GET/PUT /api/user/default-branding), the public brand of a package host,
// custom-domain verification, and what license e-mails take from it. Unset colours and name read the spec's
// defaults, so every reader gets a complete brand without knowing them.

type Seller = BrandSeller;

/** The name a seller is known by before they choose a brand name: display name, username, e-mail's local part. */
export function defaultBrandName(seller: Pick<Seller, 'displayName' | 'githubUsername' | 'email' | 'slug'>): string {
  return (
    seller.displayName?.trim() || seller.githubUsername?.trim() || seller.email?.split('@')[0]?.trim() || seller.slug
  );
}

function findBrandRow(ctx: Pick<AppContext, 'db'>, userId: string): Promise<BrandRow | undefined> {
  return repository.findBrandRow(ctx.db, userId);
}

async function getSeller(ctx: Pick<AppContext, 'db'>, userId: string): Promise<Seller> {
  const seller = await repository.findBrandSeller(ctx.db, userId);
  if (!seller) throw new AppError('NOT_FOUND', 'User not found');
  return seller;
}

function colorsOf(row: BrandRow | undefined) {
  const colors = { ...BRAND_COLOR_DEFAULTS } as Record<(typeof brandColorFields)[number], string>;
  for (const field of brandColorFields) {
    const saved = row?.[field];
    // Values were checked on save; a row written by other means still must not reach CSS unchecked.
    if (saved && HEX_COLOR.test(saved)) colors[field] = saved;
  }
  return colors;
}

/** The seller's Composer repository URL: the verified custom domain when there is one. */
function sellerRepositoryUrl(ctx: Pick<AppContext, 'config'>, seller: Seller, row: BrandRow | undefined): string {
  const brandDomain = row?.brandDomainVerifiedAt ? (row.brandDomain ?? undefined) : undefined;
  return repositoryUrlFor(ctx, { slug: seller.slug, brandDomain });
}

function presentSettings(ctx: Pick<AppContext, 'config'>, seller: Seller, row: BrandRow | undefined): BrandSettings {
  return {
    brandName: row?.brandName || defaultBrandName(seller),
    brandLogo: row?.brandLogo ?? null,
    brandHideText: row?.brandHideText ?? false,
    ...colorsOf(row),
    brandDomain: row?.brandDomain ?? null,
    brandDomainVerifiedAt: row?.brandDomainVerifiedAt?.toISOString() ?? null,
    supportEmail: row?.supportEmail ?? null,
    emailFromName: row?.emailFromName ?? null,
    emailFromAddress: row?.emailFromAddress ?? null,
    emailReplyTo: row?.emailReplyTo ?? null,
    domainCnameTarget: `${seller.slug}.${ctx.config.composerDomain}`,
    repositoryUrl: sellerRepositoryUrl(ctx, seller, row),
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** GET /api/user/default-branding: the seller's settings, defaults filled in. */
export async function getBrandSettings(ctx: AppContext, userId: string): Promise<BrandSettings> {
  const [seller, row] = await Promise.all([getSeller(ctx, userId), findBrandRow(ctx, userId)]);
  return presentSettings(ctx, seller, row);
}

/**
 * PUT /api/user/default-branding: checks every field (400 naming each bad one), refuses a domain another seller
 * has verified (409), stores, and answers the saved settings. A changed domain must be verified again; a domain
 * others have claimed but not verified is no obstacle, since a claim proves nothing.
 */
export async function updateBrandSettings(
  ctx: AppContext,
  userId: string,
  input: UpdateBrandSettingsInput,
): Promise<BrandSettings> {
  const { changes, problems } = parseBrandSettingsInput(input, {
    userId,
    appHostname: new URL(ctx.config.publicUrl).hostname.toLowerCase(),
    composerDomain: ctx.config.composerDomain,
  });
  if (problems.length > 0) {
    throw new AppError('VALIDATION_FAILED', `Invalid branding settings: ${problems.join('; ')}`, {
      suggestion: 'Correct the named fields and save again.',
    });
  }
  const [seller, current] = await Promise.all([getSeller(ctx, userId), findBrandRow(ctx, userId)]);

  if (changes.brandLogo && changes.brandLogo !== current?.brandLogo && isOwnUploadedLogo(changes.brandLogo, userId)) {
    if (!(await ctx.storage.head(logoStorageKey(changes.brandLogo)))) {
      throw new AppError('VALIDATION_FAILED', 'Invalid branding settings: brandLogo: the uploaded logo was not found', {
        suggestion: 'Upload the logo again, then save.',
      });
    }
  }

  if (changes.brandDomain) {
    if (await repository.isDomainVerifiedByAnother(ctx.db, changes.brandDomain, userId))
      throw domainTakenError(changes.brandDomain);
  }

  // undefined keeps the saved value; Drizzle leaves undefined keys out of the statement.
  const values = { ...changes, updatedAt: ctx.clock.now() };
  const isDomainChanged = changes.brandDomain !== undefined && changes.brandDomain !== (current?.brandDomain ?? null);
  const update = isDomainChanged ? { ...values, brandDomainVerifiedAt: null } : values;
  const saved = await repository.upsertBrand(ctx.db, userId, update, update.brandHideText ?? false);
  if (isDomainChanged) forgetCustomDomains(ctx, current?.brandDomain, changes.brandDomain);
  return presentSettings(ctx, seller, saved);
}

function domainTakenError(domain: string): AppError {
  return new AppError('ALREADY_EXISTS', `brandDomain: ${domain} is already verified by another seller`, {
    suggestion: 'Use a host name of your own domain, such as composer.yourcompany.com.',
  });
}

/** GET /api/branding/host: the brand of the seller whose package host this is; null anywhere else. */
export async function findHostBrand(ctx: AppContext, host: RequestHost): Promise<HostBrand | null> {
  if (host.kind !== 'repository' || !host.seller) return null;
  const found = await repository.findSellerWithBrandBySlug(ctx.db, host.seller.slug);
  if (!found) return null;
  const brand = found.brand ?? undefined;
  return {
    brandName: brand?.brandName || defaultBrandName(found.seller),
    brandLogo: brand?.brandLogo ?? null,
    brandHideText: brand?.brandHideText ?? false,
    ...colorsOf(brand),
    supportEmail: brand?.supportEmail ?? null,
    repositoryName: found.seller.slug,
  };
}

/**
 * POST /api/user/default-branding/verify-domain: looks the CNAME up now. Verified sets brandDomainVerifiedAt, unless
 * another seller verified the name first (409: the unique index on verified names decides, races included); a
 * definite failure (no record, another target) clears it, since the domain no longer reaches the seller; a DNS
 * outage changes nothing.
 */
export async function verifyBrandDomain(
  ctx: AppContext,
  userId: string,
  resolver: CnameResolver = ctx.cnameResolver,
): Promise<VerifyDomainResponse> {
  const [seller, row] = await Promise.all([getSeller(ctx, userId), findBrandRow(ctx, userId)]);
  if (!row?.brandDomain) {
    throw new AppError('BAD_REQUEST', 'Set a custom domain in Brand Settings and save it before verifying.');
  }
  const sellerHost = `${seller.slug}.${ctx.config.composerDomain}`;
  const check = await checkCname(resolver, row.brandDomain, { sellerHost });
  let saved = row;
  if (check.verified || check.isDefinite) {
    let updated: BrandRow | undefined;
    try {
      // Only if the domain is still the one checked: a save in between wins.
      updated = await repository.setDomainVerifiedAt(
        ctx.db,
        userId,
        row.brandDomain,
        check.verified ? ctx.clock.now() : null,
      );
    } catch (error) {
      if (isUniqueViolation(error, 'brand_settings_verified_domain_unique')) throw domainTakenError(row.brandDomain);
      throw error;
    }
    if (updated) saved = updated;
    forgetCustomDomains(ctx, row.brandDomain);
  }
  return { verified: check.verified, message: check.message, settings: presentSettings(ctx, seller, saved) };
}

/** What a license e-mail takes from the seller's brand (DESIGN: the platform still sends it). */
export type EmailBrand = {
  /** Sender display name: emailFromName, else the brand name; undefined leaves MAIL_FROM as it is. */
  fromName?: string;
  /** The name the e-mail's text uses: brandName, else the seller's display name or username; else nobody. */
  brandName?: string;
  /** emailReplyTo, else emailFromAddress, else supportEmail; undefined when none is set. */
  replyTo?: string;
  accentColor: string;
  /** An absolute URL for the e-mail's header, when the seller has a logo. */
  logoUrl?: string;
  isTextHidden: boolean;
  supportEmail?: string;
  /** The verified custom domain, for the repository URL. */
  verifiedDomain?: string;
};

export async function getEmailBrand(
  ctx: AppContext,
  seller: Pick<Seller, 'id' | 'displayName' | 'githubUsername'>,
): Promise<EmailBrand> {
  const row = await findBrandRow(ctx, seller.id);
  // Unlike the settings form, no fallback to the e-mail address or slug: a holder would not recognise those.
  const brandName = row?.brandName || seller.displayName?.trim() || seller.githubUsername?.trim() || undefined;
  const logo = row?.brandLogo;
  return {
    // A brand name is free text; it becomes the sender's display name only if it could have been saved as one.
    fromName: row?.emailFromName || (brandName && !senderNameProblem(brandName) ? brandName : undefined),
    brandName,
    // The From address stays MAIL_FROM's: sending as the seller's own domain would fail SPF and DMARC without
    // their DNS, so the address the seller chose receives the replies instead.
    replyTo: row?.emailReplyTo || row?.emailFromAddress || row?.supportEmail || undefined,
    accentColor: colorsOf(row).brandColor,
    // Uploaded logos are served by the app: an e-mail needs the absolute URL.
    logoUrl: logo ? (logo.startsWith('/') ? appUrl(ctx.config, logo) : logo) : undefined,
    isTextHidden: Boolean(logo && row?.brandHideText),
    supportEmail: row?.supportEmail ?? undefined,
    verifiedDomain: row?.brandDomainVerifiedAt ? (row.brandDomain ?? undefined) : undefined,
  };
}
