// A seller's slug is the first label of its Composer host (`{slug}.{COMPOSER_DOMAIN}`), so it must be a valid
// DNS label: lowercase letters, digits and inner hyphens, at most 63 characters.

const MAX_SLUG_LENGTH = 40;

/** Labels that would collide with hosts the platform itself may use under COMPOSER_DOMAIN. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin',
  'api',
  'app',
  'assets',
  'cdn',
  'composer',
  'dashboard',
  'docs',
  'help',
  'mail',
  'packages',
  'packgate',
  'portal',
  'repo',
  'static',
  'status',
  'support',
  'www',
]);

/** Turns a code-host username or an e-mail address into a slug base (`Jane.Doe+x@acme.com` → `jane-doe-x`). */
export function slugBase(source: string): string {
  const localPart = source.includes('@') ? source.slice(0, source.indexOf('@')) : source;
  const slug = localPart
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // drop accents left over from NFKD (é → e)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|([^-])-+$/g, '$1')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/(^|[^-])-+$/g, '$1');
  return slug === '' ? 'seller' : slug;
}

/** The first free slug for a base: the base itself, else `base-2`, `base-3`, ... (reserved names are never free). */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base) && !RESERVED_SLUGS.has(base)) return base;
  for (let counter = 2; ; counter++) {
    const suffix = `-${counter}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/(^|[^-])-+$/g, '$1')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
