import { z } from 'zod';

// A seller's brand (spec seller-app §2 Branding fields, §3 Brand settings, §4 Logo upload, §5, §9): the package
// host's page and the license holders' e-mails wear it.

/** Spec §3 defaults: purple accent, white background, light grey card and border, dark and mid grey text, white header. */
export const BRAND_COLOR_DEFAULTS = {
  brandColor: '#8B5CF6',
  brandBackgroundColor: '#FFFFFF',
  brandCardColor: '#F9FAFB',
  brandBorderColor: '#E5E7EB',
  brandTextColor: '#111827',
  brandSecondaryTextColor: '#6B7280',
  brandHeaderColor: '#FFFFFF',
} as const;

export const brandColorFields = [
  'brandColor',
  'brandBackgroundColor',
  'brandCardColor',
  'brandBorderColor',
  'brandTextColor',
  'brandSecondaryTextColor',
  'brandHeaderColor',
] as const;
export type BrandColorField = (typeof brandColorFields)[number];

/** The seven colour fields of a schema's shape, each checked by a schema `makeField` makes, in brandColorFields' order. */
export function brandColorShape<T extends z.ZodType>(makeField: () => T): Record<BrandColorField, T> {
  return Object.fromEntries(brandColorFields.map((field) => [field, makeField()])) as Record<BrandColorField, T>;
}

/** Spec §5 and §9: 5 MB, counted in binary megabytes. */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;
/** What the file input accepts (spec §5 "The input accepts images only"); the server decides by content. */
export const LOGO_ACCEPT = 'image/svg+xml,image/png,image/jpeg,image/gif,image/webp';
/** The multipart field the upload is read from (spec §7). */
export const LOGO_FIELD = 'logo';
/** Uploaded logos are served under this path; a brandLogo starting with it must be the seller's own upload. */
export const LOGO_PATH_PREFIX = '/api/branding/logos/';

export const BRAND_NAME_MAX_LENGTH = 100;

export const brandingMessages = {
  invalidFileType: { error: 'Invalid file type', message: 'Please upload an image file (SVG, PNG, JPG, GIF, or WebP)' },
  fileTooLarge: { error: 'File too large', message: 'Please upload an image smaller than 5MB' },
  saved: 'Default branding settings saved successfully.',
  logoUploaded: 'Logo uploaded',
} as const;

/** `#RGB` or `#RRGGBB`: anything else could break out of the CSS it is put in. */
export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * GET /api/branding/host: the brand of the seller whose package host (slug subdomain or verified custom domain) the
 * request came to; null on any other host. Only what the public page shows; colours and name already defaulted.
 */
export const publicBrandResponse = z.object({
  brandName: z.string(),
  brandLogo: z.string().nullable(),
  brandHideText: z.boolean(),
  ...brandColorShape(() => z.string()),
  supportEmail: z.string().nullable(),
});
export type PublicBrand = z.infer<typeof publicBrandResponse>;

/** GET /api/branding/host: the brand, and the repository entry's name the package host's commands give (the slug). */
export const hostBrandResponse = publicBrandResponse.extend({ repositoryName: z.string() });
export type HostBrand = z.infer<typeof hostBrandResponse>;

/**
 * GET and PUT /api/user/default-branding answer this: the seller's settings, unset colours and name filled with
 * their defaults so that the form shows what the package host shows.
 * - brandName: the saved name, else the seller's display name, else their username (or e-mail's local part).
 * - brandLogo: an https URL or `/api/branding/logos/{userId}/{file}` from the upload; null without one.
 * - brandDomain: the custom Composer host (`composer.acme.com`); null without one.
 * - brandDomainVerifiedAt: ISO time its CNAME was last verified; null until then, and again after it changes.
 * - domainCnameTarget: what brandDomain's CNAME must point to (`{slug}.{COMPOSER_DOMAIN}`), for the DNS dialog.
 * - repositoryUrl: the seller's Composer repository URL as license e-mails give it (the verified domain if any).
 * - updatedAt: ISO time of the last save; null when never saved.
 */
export const brandSettingsResponse = publicBrandResponse.extend({
  brandDomain: z.string().nullable(),
  brandDomainVerifiedAt: z.string().nullable(),
  emailFromName: z.string().nullable(),
  emailFromAddress: z.string().nullable(),
  emailReplyTo: z.string().nullable(),
  domainCnameTarget: z.string(),
  repositoryUrl: z.string(),
  updatedAt: z.string().nullable(),
});
export type BrandSettings = z.infer<typeof brandSettingsResponse>;

const optionalText = (max: number) => z.string().max(max).nullish();

/**
 * PUT /api/user/default-branding. A field left out keeps its saved value; null or '' clears it (a colour or the
 * name then reads its default again). Formats are checked by the service so that each error names its field.
 */
export const updateBrandSettingsInput = z.object({
  brandName: optionalText(1000),
  brandLogo: optionalText(4096),
  brandHideText: z.boolean().nullish(),
  ...brandColorShape(() => optionalText(100)),
  brandDomain: optionalText(1000),
  supportEmail: optionalText(1000),
  emailFromName: optionalText(1000),
  emailFromAddress: optionalText(1000),
  emailReplyTo: optionalText(1000),
});
export type UpdateBrandSettingsInput = z.infer<typeof updateBrandSettingsInput>;

/** POST /api/user/upload-logo-temp (multipart, field `logo`): where the stored logo is served. */
export const uploadLogoResponse = z.object({ logoUrl: z.string() });
export type UploadLogoResponse = z.infer<typeof uploadLogoResponse>;

/**
 * POST /api/user/default-branding/verify-domain: looks up brandDomain's CNAME now.
 * - verified: the CNAME points at the seller's host (or COMPOSER_DOMAIN); brandDomainVerifiedAt is then set.
 * - message: what was found, and what to change when it is not right.
 * - settings: the settings after the check.
 */
export const verifyDomainResponse = z.object({
  verified: z.boolean(),
  message: z.string(),
  settings: brandSettingsResponse,
});
export type VerifyDomainResponse = z.infer<typeof verifyDomainResponse>;
