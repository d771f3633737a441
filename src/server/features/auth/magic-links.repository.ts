import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, totalOf } from '../../db/result-rows.js';
import { magicLinks } from '../../db/schema/index.js';

// The queries of e-mailed sign-in links (the magic_links table, which this domain alone writes). Addresses are
// compared in lower case, as they are stored.

type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;

export type MagicLinkRow = typeof magicLinks.$inferSelect;
export type MagicLinkPurposeValue = MagicLinkRow['purpose'];

/** Marks the link of that hash used if it is of that purpose, unused and not expired, in one statement. */
export async function spendLink(
  db: Queryable,
  tokenHash: string,
  purpose: MagicLinkPurposeValue,
  now: Date,
): Promise<MagicLinkRow | undefined> {
  return firstRow(
    db
      .update(magicLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(magicLinks.tokenHash, tokenHash),
          eq(magicLinks.purpose, purpose),
          isNull(magicLinks.usedAt),
          gt(magicLinks.expiresAt, now),
        ),
      )
      .returning(),
  );
}

export async function findLinkByTokenHash(db: Queryable, tokenHash: string): Promise<MagicLinkRow | undefined> {
  return firstRow(db.select().from(magicLinks).where(eq(magicLinks.tokenHash, tokenHash)).limit(1));
}

export async function insertLink(db: Queryable, values: typeof magicLinks.$inferInsert): Promise<void> {
  await db.insert(magicLinks).values(values);
}

/** Whether a link of that purpose went to the address after `since`. */
export async function hasLinkSince(
  db: Queryable,
  email: string,
  purpose: MagicLinkPurposeValue,
  since: Date,
): Promise<boolean> {
  return hasAnyRow(
    db
      .select({ id: magicLinks.id })
      .from(magicLinks)
      .where(
        and(
          sql`lower(${magicLinks.email}) = ${email}`,
          eq(magicLinks.purpose, purpose),
          gt(magicLinks.createdAt, since),
        ),
      )
      .limit(1),
  );
}

/** How many links went to the address after `since`. */
export async function countLinksSince(db: Queryable, email: string, since: Date): Promise<number> {
  return totalOf(
    db
      .select({ total: count() })
      .from(magicLinks)
      .where(and(sql`lower(${magicLinks.email}) = ${email}`, gt(magicLinks.createdAt, since))),
  );
}
