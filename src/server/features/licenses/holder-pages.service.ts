import { and, desc, eq, exists, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { type KeysetPosition, olderThan, pageOf, positionMicros } from '../../db/keyset-page.js';
import { customers, grants, packages, products } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';

// A seller's license holders one page at a time, newest first (issue 34 item 4): Management's Access Management
// and API v1's customer list read 100,000 holders this way without loading them all.

export type HolderOnPage = typeof customers.$inferSelect & { position: KeysetPosition };

export type HolderPageQuery = {
  limit: number;
  /** The position after which the page starts; the first page without. */
  after?: KeysetPosition;
  /** Only holders with at least one license (API v1's customers). */
  licensedOnly?: boolean;
  /** Holders whose e-mail, or the name of a package or product they hold, contains this, ignoring case. */
  search?: string;
};

export const holderPageMessages = {
  holderGone: 'The license holder this page starts after no longer exists. Load the list again from the start.',
} as const;

/** One page of the seller's holders, newest first, with the cursor of the next page (null on the last). */
export async function findHolderPage(
  ctx: AppContext,
  sellerId: string,
  query: HolderPageQuery,
): Promise<{ holders: HolderOnPage[]; nextCursor: string | null }> {
  const search = query.search?.trim();
  const rows = await ctx.db
    .select({ customer: customers, micros: positionMicros(customers.createdAt) })
    .from(customers)
    .where(
      and(
        eq(customers.sellerId, sellerId),
        query.after ? olderThan(customers.createdAt, customers.id, query.after) : undefined,
        query.licensedOnly ? exists(grantsOfHolder(ctx.db)) : undefined,
        search ? holderMatches(ctx.db, search) : undefined,
      ),
    )
    .orderBy(desc(customers.createdAt), desc(customers.id))
    .limit(query.limit + 1);
  const page = pageOf(
    rows.map(({ customer, micros }) => ({ ...customer, position: { micros, id: customer.id } })),
    query.limit,
  );
  return { holders: page.rows, nextCursor: page.nextCursor };
}

/** Where the page after this holder starts (Management's `after`); a holder not the seller's is refused (400). */
export async function holderPosition(ctx: AppContext, sellerId: string, customerId: string): Promise<KeysetPosition> {
  const [row] = await ctx.db
    .select({ micros: positionMicros(customers.createdAt) })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.sellerId, sellerId)));
  if (!row) throw new AppError('VALIDATION_FAILED', holderPageMessages.holderGone);
  return { micros: row.micros, id: customerId };
}

type Db = AppContext['db'];

const grantsOfHolder = (db: Db) => db.select({ one: sql`1` }).from(grants).where(eq(grants.customerId, customers.id));

/** The search as a LIKE pattern: its own % and _ are plain characters. */
const containing = (search: string) => `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

function holderMatches(db: Db, search: string): SQL | undefined {
  const pattern = containing(search);
  const heldNames = db
    .select({ one: sql`1` })
    .from(grants)
    .leftJoin(packages, eq(packages.id, grants.packageId))
    .leftJoin(products, eq(products.id, grants.productId))
    .where(and(eq(grants.customerId, customers.id), or(ilike(packages.name, pattern), ilike(products.name, pattern))));
  return or(ilike(customers.email, pattern), exists(heldNames));
}
