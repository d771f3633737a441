import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, writtenRow } from '../../db/result-rows.js';
import { grants, packages, productPackages, products } from '../../db/schema/index.js';

// The queries of products (the `products` and `product_packages` tables, which this domain alone writes). Two reads
// join another domain's table: a package's name and owner (packages domain) and a product's active licenses (licenses
// domain); they only read, and in the same statement as the product's rows.

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;
export type ProductPackage = { productId: string; id: string; name: string };

export async function findProductOfSeller(
  db: Pick<Database, 'select'>,
  sellerId: string,
  productId: string,
): Promise<ProductRow | undefined> {
  return firstRow(
    db
      .select()
      .from(products)
      .where(and(eq(products.id, productId), eq(products.ownerId, sellerId))),
  );
}

export function selectProductsOfSeller(db: Pick<Database, 'select'>, sellerId: string): Promise<ProductRow[]> {
  return db.select().from(products).where(eq(products.ownerId, sellerId)).orderBy(asc(products.name));
}

/** The products' packages, by package name. */
export function selectPackagesOfProducts(
  db: Pick<Database, 'select'>,
  productIds: string[],
): Promise<ProductPackage[]> {
  return db
    .select({ productId: productPackages.productId, id: packages.id, name: packages.name })
    .from(productPackages)
    .innerJoin(packages, eq(packages.id, productPackages.packageId))
    .where(inArray(productPackages.productId, productIds))
    .orderBy(asc(packages.name));
}

/** How many active licenses each product has (products without one are absent). */
export function countActiveLicensesOfProducts(
  db: Pick<Database, 'select'>,
  productIds: string[],
): Promise<{ productId: string | null; total: number }[]> {
  return db
    .select({ productId: grants.productId, total: count() })
    .from(grants)
    .where(and(inArray(grants.productId, productIds), eq(grants.status, 'active')))
    .groupBy(grants.productId);
}

/** Which of the ids are packages the seller owns. */
export function selectOwnedPackageIds(
  db: Pick<Database, 'select'>,
  sellerId: string,
  packageIds: string[],
): Promise<{ id: string }[]> {
  return db
    .select({ id: packages.id })
    .from(packages)
    .where(and(inArray(packages.id, packageIds), eq(packages.ownerId, sellerId)));
}

/** The seller's product of that name, compared without case. */
export async function findProductNamed(
  db: Pick<Database, 'select'>,
  sellerId: string,
  name: string,
): Promise<{ id: string } | undefined> {
  return firstRow(
    db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.ownerId, sellerId), sql`lower(${products.name}) = ${name.toLowerCase()}`)),
  );
}

export async function insertProduct(db: Queryable, values: NewProductRow): Promise<ProductRow> {
  return writtenRow(db.insert(products).values(values).returning(), 'The new product');
}

export async function updateProductRow(
  db: Queryable,
  productId: string,
  changes: Partial<Pick<ProductRow, 'name' | 'description'>> & { updatedAt: Date },
): Promise<ProductRow> {
  return writtenRow(
    db.update(products).set(changes).where(eq(products.id, productId)).returning(),
    "The product's change",
  );
}

export async function insertProductPackages(
  db: Pick<Database, 'insert'>,
  productId: string,
  packageIds: string[],
  addedAt: Date,
): Promise<void> {
  await db.insert(productPackages).values(packageIds.map((packageId) => ({ productId, packageId, addedAt })));
}

export async function deleteProductPackages(
  db: Pick<Database, 'delete'>,
  productId: string,
  packageIds: string[],
): Promise<void> {
  await db
    .delete(productPackages)
    .where(and(eq(productPackages.productId, productId), inArray(productPackages.packageId, packageIds)));
}

/** Locks the product's row until the transaction `tx` ends. */
export async function lockProduct(tx: Pick<Database, 'select'>, productId: string): Promise<void> {
  await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for('update');
}

export async function deleteProductRow(db: Pick<Database, 'delete'>, productId: string): Promise<void> {
  await db.delete(products).where(eq(products.id, productId));
}
