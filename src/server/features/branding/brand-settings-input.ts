import { z } from 'zod';
import {
  BRAND_NAME_MAX_LENGTH,
  type BrandColorField,
  brandColorFields,
  HEX_COLOR,
  LOGO_PATH_PREFIX,
  type UpdateBrandSettingsInput,
} from '../../../contract/branding.js';

// The rules of PUT /api/user/default-branding, pure so that they are tested without a server. The client shows
// no format checks on colours (spec §5), so the server is the one place that keeps garbage out of the CSS and
// the e-mails the values end up in; each problem names its field.

/** A column value to store: a string, null to clear, or undefined to keep what is saved. */
type Change<T> = T | null | undefined;

export type BrandSettingsChanges = {
  brandName: Change<string>;
  brandLogo: Change<string>;
  brandHideText: boolean | undefined;
  brandDomain: Change<string>;
  supportEmail: Change<string>;
  emailFromName: Change<string>;
  emailFromAddress: Change<string>;
  emailReplyTo: Change<string>;
} & Record<BrandColorField, Change<string>>;

export type DomainRules = {
  /** The app's own host name (PUBLIC_URL's). */
  appHostname: string;
  composerDomain: string;
};

export type ParsedBrandSettings = { changes: BrandSettingsChanges; problems: string[] };

const EMAIL_MAX_LENGTH = 254;
const SENDER_NAME_MAX_LENGTH = 100;
/** Control characters would end a mail header or a line of the page; none belongs in a name. */
function hasControlCharacters(value: string): boolean {
  for (const character of value) if (character < ' ' || character === '\u007f') return true;
  return false;
}
/**
 * Characters that let a display name pose as an address or end the header: `Acme <ceo@bank.com>` would show the
 * bank's address in the holder's mail client although the mail comes from the platform's.
 */
// Apostrophes stay allowed (O'Reilly Media): they cannot open a quoted string in a mail header.
const SENDER_NAME_FORBIDDEN = ['<', '>', '@', '"', '\u201c', '\u201d', '`'];

/** Why a text cannot be an e-mail sender's display name, or undefined when it can. */
export function senderNameProblem(name: string): string | undefined {
  if (name.length > SENDER_NAME_MAX_LENGTH) return `at most ${SENDER_NAME_MAX_LENGTH} characters`;
  if (hasControlCharacters(name)) return 'must be a single line of text';
  if (SENDER_NAME_FORBIDDEN.some((character) => name.includes(character))) {
    return 'must be a plain name such as Acme Support, without <, >, @, double quotes or line breaks';
  }
  return undefined;
}
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const UPLOADED_LOGO_FILE = /^[a-f0-9]{32}\.(?:png|jpg|gif|webp|svg)$/;

/** undefined (keep) when absent; null (clear) for null or blank; else the trimmed text. */
function textChange(value: string | null | undefined): Change<string> {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A custom Composer host as stored: lower case, no trailing dot; problems say what to change. */
export function parseBrandDomain(value: string, rules: DomainRules): { domain?: string; problem?: string } {
  const domain = value.toLowerCase().replace(/\.$/, '');
  if (/[\s/:@?#]/.test(domain)) {
    return { problem: 'brandDomain: enter a host name only, like composer.acme.com (no https://, port or path)' };
  }
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((label) => DNS_LABEL.test(label))) {
    return { problem: 'brandDomain: must be a host name like composer.acme.com' };
  }
  if (/^\d+$/.test(labels.at(-1)!)) return { problem: 'brandDomain: must be a host name, not an IP address' };
  if (domain === rules.appHostname) return { problem: "brandDomain: can't be this app's own address" };
  if (domain === rules.composerDomain || domain.endsWith(`.${rules.composerDomain}`)) {
    return {
      problem: `brandDomain: a custom domain must be your own, not under ${rules.composerDomain}; your repository already has ${rules.composerDomain} addresses`,
    };
  }
  return { domain };
}

/** Whether a logo path is one the upload endpoint handed to this seller (`/api/branding/logos/{userId}/{file}`). */
export function isOwnUploadedLogo(path: string, userId: string): boolean {
  if (!path.startsWith(`${LOGO_PATH_PREFIX}${userId}/`)) return false;
  return UPLOADED_LOGO_FILE.test(path.slice(`${LOGO_PATH_PREFIX}${userId}/`.length));
}

/** The storage key behind an uploaded logo's path (checked with isOwnUploadedLogo first). */
export function logoStorageKey(path: string): string {
  return `logos/${path.slice(LOGO_PATH_PREFIX.length)}`;
}

function parseLogo(value: string, userId: string): { logo?: string; problem?: string } {
  if (value.startsWith(LOGO_PATH_PREFIX)) {
    return isOwnUploadedLogo(value, userId)
      ? { logo: value }
      : { problem: 'brandLogo: this is not a logo you uploaded; upload the file again' };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'brandLogo: must be an https:// URL of an image, or an uploaded logo' };
  }
  // https only: the package host's page would refuse an http image as mixed content, and other schemes
  // (javascript:, data:) have no place in an <img> the seller's customers load.
  if (url.protocol !== 'https:')
    return { problem: 'brandLogo: must be an https:// URL of an image, or an uploaded logo' };
  if (url.username || url.password)
    return { problem: 'brandLogo: a logo URL must not contain a user name or password' };
  return { logo: url.toString() };
}

/** Checks every field of the PUT body at once, so that the seller sees every problem in one answer. */
export function parseBrandSettingsInput(
  input: UpdateBrandSettingsInput,
  context: { userId: string } & DomainRules,
): ParsedBrandSettings {
  const problems: string[] = [];

  const brandName = textChange(input.brandName);
  if (brandName && brandName.length > BRAND_NAME_MAX_LENGTH) {
    problems.push(`brandName: at most ${BRAND_NAME_MAX_LENGTH} characters`);
  } else if (brandName && hasControlCharacters(brandName)) {
    problems.push('brandName: must be a single line of text');
  }

  let brandLogo = textChange(input.brandLogo);
  if (brandLogo) {
    const parsed = parseLogo(brandLogo, context.userId);
    if (parsed.problem) problems.push(parsed.problem);
    brandLogo = parsed.logo;
  }

  const colors = {} as Record<BrandColorField, Change<string>>;
  for (const field of brandColorFields) {
    const color = textChange(input[field]);
    if (color && !HEX_COLOR.test(color)) {
      problems.push(`${field}: must be a hex colour like #8B5CF6 or #FFF`);
    }
    colors[field] = color ? color.toUpperCase() : color;
  }

  let brandDomain = textChange(input.brandDomain);
  if (brandDomain) {
    const parsed = parseBrandDomain(brandDomain, context);
    if (parsed.problem) problems.push(parsed.problem);
    brandDomain = parsed.domain;
  }

  const emails = {
    supportEmail: textChange(input.supportEmail),
    emailFromAddress: textChange(input.emailFromAddress),
    emailReplyTo: textChange(input.emailReplyTo),
  };
  for (const [field, email] of Object.entries(emails)) {
    if (email && (email.length > EMAIL_MAX_LENGTH || !z.email().safeParse(email).success)) {
      problems.push(`${field}: must be an e-mail address like support@acme.com`);
    }
  }

  const emailFromName = textChange(input.emailFromName);
  const senderProblem = emailFromName ? senderNameProblem(emailFromName) : undefined;
  if (senderProblem) problems.push(`emailFromName: ${senderProblem}`);

  return {
    changes: {
      brandName,
      brandLogo,
      brandHideText: input.brandHideText === null ? false : input.brandHideText,
      ...colors,
      brandDomain,
      ...emails,
      emailFromName,
    },
    problems,
  };
}
