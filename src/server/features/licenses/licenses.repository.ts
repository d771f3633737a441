import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { type KeysetPosition, olderThan, positionMicros } from '../../db/keyset-page.js';
import { firstRow } from '../../db/result-rows.js';
import { customers, grants, packages, products } from '../../db/schema/index.js';

// The queries of licenses (the grants table, which this domain alone writes) and of issuing them (customers). A
// license is shown with its holder's address and its package's or product's name (packages and products domains,
// read only).

type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

export type GrantRow = typeof grants.$inferSelect;
export type NewGrantRow = typeof grants.$inferInsert;
export type CustomerRow = typeof customers.$inferSelect;
export type GrantChanges = Partial<Omit<NewGrantRow, 'id' | 'customerId' | 'createdAt'>>;

/** A license as the seller's lists show it. */
export type LicenseListRow = {
  grant: GrantRow;
  email: string;
  packageName: string | null;
  productName: string | null;
  micros: string | number;
};

export type LicenseFilterQuery = {
  licenseId?: string;
  packageId?: string;
  productId?: string;
  /** Lower case. */
  email?: string;
  customerIds?: string[];
  /** Only licenses older than this position (keyset paging). */
  after?: KeysetPosition;
};

/** The seller's licenses matching the filter, newest first, `limit` of them when given. */
export function selectLicensesOfSeller(
  db: Queryable,
  sellerId: string,
  filter: LicenseFilterQuery,
  limit?: number,
): Promise<LicenseListRow[]> {
  const conditions: (SQL | undefined)[] = [
    eq(customers.sellerId, sellerId),
    filter.licenseId !== undefined ? eq(grants.id, filter.licenseId) : undefined,
    filter.packageId !== undefined ? eq(grants.packageId, filter.packageId) : undefined,
    filter.productId !== undefined ? eq(grants.productId, filter.productId) : undefined,
    filter.email !== undefined ? sql`lower(${customers.email}) = ${filter.email}` : undefined,
    filter.customerIds !== undefined ? inArray(grants.customerId, filter.customerIds) : undefined,
    filter.after ? olderThan(grants.createdAt, grants.id, filter.after) : undefined,
  ];
  const query = db
    .select({
      grant: grants,
      email: customers.email,
      packageName: packages.name,
      productName: products.name,
      micros: positionMicros(grants.createdAt),
    })
    .from(grants)
    .innerJoin(customers, eq(customers.id, grants.customerId))
    .leftJoin(packages, eq(packages.id, grants.packageId))
    // A product's license (issue 31) is named by the product.
    .leftJoin(products, eq(products.id, grants.productId))
    .where(and(...conditions))
    .orderBy(desc(grants.createdAt), desc(grants.id));
  return limit === undefined ? query : query.limit(limit);
}

/** Changes a license; undefined when it is gone. */
export async function updateGrantRow(
  db: Queryable,
  grantId: string,
  changes: GrantChanges,
): Promise<GrantRow | undefined> {
  return firstRow(db.update(grants).set(changes).where(eq(grants.id, grantId)).returning());
}

export async function findPurchaseGrant(db: Queryable, grantId: string): Promise<GrantRow | undefined> {
  return firstRow(
    db
      .select()
      .from(grants)
      .where(and(eq(grants.id, grantId), eq(grants.kind, 'purchase')))
      .limit(1),
  );
}

/** Changes a purchase's license; undefined when there is none of that id. */
export async function updatePurchaseGrant(
  db: Queryable,
  grantId: string,
  changes: GrantChanges,
): Promise<GrantRow | undefined> {
  return firstRow(
    db
      .update(grants)
      .set(changes)
      .where(and(eq(grants.id, grantId), eq(grants.kind, 'purchase')))
      .returning(),
  );
}

/** The seller's temporary licenses of a package (or the one of that id), newest first, with their holder's address. */
export function selectTemporaryLicenses(
  db: Queryable,
  sellerId: string,
  packageId: string,
  licenseId?: string,
): Promise<{ grant: GrantRow; email: string }[]> {
  return db
    .select({ grant: grants, email: customers.email })
    .from(grants)
    .innerJoin(customers, eq(customers.id, grants.customerId))
    .where(
      and(
        licenseId !== undefined ? eq(grants.id, licenseId) : undefined,
        eq(grants.packageId, packageId),
        eq(grants.kind, 'temporary'),
        eq(customers.sellerId, sellerId),
      ),
    )
    .orderBy(desc(grants.createdAt), desc(grants.id));
}

/** Revokes a license that is active; undefined when it is not. */
export async function revokeActiveGrant(db: Queryable, grantId: string, now: Date): Promise<GrantRow | undefined> {
  return firstRow(
    db
      .update(grants)
      .set({ status: 'revoked', revokedAt: now })
      .where(and(eq(grants.id, grantId), eq(grants.status, 'active')))
      .returning(),
  );
}

/** The seller's packages among the ids, with their names (a license names its package). */
export function selectOwnedPackageNames(
  db: Queryable,
  sellerId: string,
  packageIds: string[],
): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: packages.id, name: packages.name })
    .from(packages)
    .where(and(inArray(packages.id, packageIds), eq(packages.ownerId, sellerId)));
}

/** Holds the seller's new holders until the transaction `tx` ends, so that two cannot both pass the plan's count. */
export async function lockHolderLimitOf(tx: Queryable, sellerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`holder-limit:${sellerId}`}))`);
}

/** Inserts the holder unless the seller has one of that address (then undefined). */
export async function insertCustomerIfNew(
  db: Queryable,
  values: typeof customers.$inferInsert,
): Promise<CustomerRow | undefined> {
  return firstRow(db.insert(customers).values(values).onConflictDoNothing().returning());
}

/** Inserts the license unless the holder has one of that package or product (then undefined). */
export async function insertGrantIfNew(db: Queryable, values: NewGrantRow): Promise<GrantRow | undefined> {
  return firstRow(db.insert(grants).values(values).onConflictDoNothing().returning());
}

/** The holder's license of the package or product, locked until the transaction `tx` ends. */
export async function lockHolderGrant(
  tx: Queryable,
  customerId: string,
  target: { packageId: string | null; productId: string | null },
): Promise<GrantRow | undefined> {
  return firstRow(
    tx
      .select()
      .from(grants)
      .where(
        and(
          eq(grants.customerId, customerId),
          target.packageId ? eq(grants.packageId, target.packageId) : eq(grants.productId, target.productId!),
        ),
      )
      .for('update'),
  );
}
