import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, writtenRow } from '../../db/result-rows.js';
import { brandSettings, users } from '../../db/schema/index.js';

// The queries of a seller's brand (the brand_settings table, which this domain alone writes). The seller's name and
// slug come from the users table (users domain), read only, in the statements that need them with the brand.

type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;

export type BrandRow = typeof brandSettings.$inferSelect;
export type BrandChanges = Partial<Omit<typeof brandSettings.$inferInsert, 'userId'>>;
export type BrandSeller = Pick<typeof users.$inferSelect, 'id' | 'slug' | 'displayName' | 'githubUsername' | 'email'>;

export async function findBrandRow(db: Queryable, userId: string): Promise<BrandRow | undefined> {
  return firstRow(db.select().from(brandSettings).where(eq(brandSettings.userId, userId)).limit(1));
}

export async function findBrandSeller(db: Queryable, userId: string): Promise<BrandSeller | undefined> {
  return firstRow(
    db
      .select({
        id: users.id,
        slug: users.slug,
        displayName: users.displayName,
        githubUsername: users.githubUsername,
        email: users.email,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
  );
}

/** Whether another seller has verified `domain` (lower case). */
export async function isDomainVerifiedByAnother(db: Queryable, domain: string, userId: string): Promise<boolean> {
  return hasAnyRow(
    db
      .select({ userId: brandSettings.userId })
      .from(brandSettings)
      .where(
        sql`lower(${brandSettings.brandDomain}) = ${domain} and ${brandSettings.userId} <> ${userId} and ${brandSettings.brandDomainVerifiedAt} is not null`,
      )
      .limit(1),
  );
}

/** Writes the brand's changed fields, creating its row the first time. */
export async function upsertBrand(
  db: Queryable,
  userId: string,
  changes: BrandChanges,
  brandHideText: boolean,
): Promise<BrandRow> {
  return writtenRow(
    db
      .insert(brandSettings)
      .values({ userId, ...changes, brandHideText })
      .onConflictDoUpdate({ target: brandSettings.userId, set: changes })
      .returning(),
    'The brand',
  );
}

/** The seller of that slug with their brand (null when they never saved one). */
export async function findSellerWithBrandBySlug(
  db: Queryable,
  slug: string,
): Promise<{ seller: typeof users.$inferSelect; brand: BrandRow | null } | undefined> {
  return firstRow(
    db
      .select({ seller: users, brand: brandSettings })
      .from(users)
      .leftJoin(brandSettings, eq(brandSettings.userId, users.id))
      .where(eq(users.slug, slug))
      .limit(1),
  );
}

/** Sets or clears the domain's verification, only if the brand's domain is still `domain`; undefined otherwise. */
export async function setDomainVerifiedAt(
  db: Queryable,
  userId: string,
  domain: string,
  verifiedAt: Date | null,
): Promise<BrandRow | undefined> {
  return firstRow(
    db
      .update(brandSettings)
      .set({ brandDomainVerifiedAt: verifiedAt })
      .where(sql`${brandSettings.userId} = ${userId} and ${brandSettings.brandDomain} = ${domain}`)
      .returning(),
  );
}

/** Clears the logo and the brand's contact fields. */
export async function clearBrandPersonalData(db: Pick<Database, 'update'>, sellerId: string, now: Date): Promise<void> {
  await db
    .update(brandSettings)
    .set({
      brandLogo: null,
      brandName: null,
      supportEmail: null,
      emailFromName: null,
      emailFromAddress: null,
      emailReplyTo: null,
      updatedAt: now,
    })
    .where(eq(brandSettings.userId, sellerId));
}

async function findSlugOfVerifiedDomain(db: Queryable, matches: SQL): Promise<string | undefined> {
  const [row] = await db
    .select({ slug: users.slug })
    .from(brandSettings)
    .innerJoin(users, eq(users.id, brandSettings.userId))
    .where(and(matches, isNotNull(brandSettings.brandDomainVerifiedAt)))
    .limit(1);
  return row?.slug;
}

/** The slug of the seller who verified `hostname` (lower case) as their brand domain. */
export function findSlugByVerifiedDomain(db: Queryable, hostname: string): Promise<string | undefined> {
  // lower(brand_domain) is what the unique index covers, so this is an index lookup.
  return findSlugOfVerifiedDomain(db, sql`lower(${brandSettings.brandDomain}) = ${hostname}`);
}

/** The slug of the seller whose verified brand domain lives in `zone` (the portal's host is portal.<zone>). */
export function findSlugByVerifiedZone(db: Queryable, zone: string): Promise<string | undefined> {
  const domain = sql`lower(${brandSettings.brandDomain})`;
  // zoneOfDomain in SQL: a name of three or more labels lives in the zone after its first label, a name of two labels
  // is its own zone. Verified names are few, and misses are cached like every other answer.
  return findSlugOfVerifiedDomain(
    db,
    sql`((substr(${domain}, strpos(${domain}, '.') + 1) = ${zone} and ${domain} like '%.%.%')
      or (${domain} = ${zone} and ${domain} not like '%.%.%'))`,
  );
}
