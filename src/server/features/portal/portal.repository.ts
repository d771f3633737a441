import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { firstRow, totalOf } from '../../db/result-rows.js';
import {
  customers,
  grants,
  packages,
  packageVersions,
  portalSessions,
  portalSignInLinks,
  productPackages,
  products,
  sales,
  users,
} from '../../db/schema/index.js';

// The portal's queries. Every one is scoped to the seller of the request's host: a sign-in link or a session of
// another seller's holder finds nothing here, whatever its token.

type Db = Pick<AppContext, 'db'>;

export async function insertSignInLink(
  ctx: Db,
  link: { tokenHash: string; customerId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await ctx.db.insert(portalSignInLinks).values(link);
}

export async function countLinksSince(ctx: Db, customerId: string, since: Date): Promise<number> {
  return totalOf(
    ctx.db
      .select({ total: count() })
      .from(portalSignInLinks)
      .where(and(eq(portalSignInLinks.customerId, customerId), gt(portalSignInLinks.createdAt, since))),
  );
}

/** Spends a link of this seller's holder once (one conditional UPDATE); the customer it signs in, or undefined. */
export async function consumeSignInLink(
  ctx: Db,
  tokenHash: string,
  sellerId: string,
  now: Date,
): Promise<string | undefined> {
  const [link] = await ctx.db
    .update(portalSignInLinks)
    .set({ usedAt: now })
    .where(
      and(
        eq(portalSignInLinks.tokenHash, tokenHash),
        isNull(portalSignInLinks.usedAt),
        gt(portalSignInLinks.expiresAt, now),
        inArray(
          portalSignInLinks.customerId,
          ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.sellerId, sellerId)),
        ),
      ),
    )
    .returning({ customerId: portalSignInLinks.customerId });
  return link?.customerId;
}

/** Why a link could not be spent: used or expired only when it is this seller's; otherwise it is not valid here. */
export async function findLinkOfSeller(
  ctx: Db,
  tokenHash: string,
  sellerId: string,
): Promise<{ usedAt: Date | null; expiresAt: Date } | undefined> {
  return firstRow(
    ctx.db
      .select({ usedAt: portalSignInLinks.usedAt, expiresAt: portalSignInLinks.expiresAt })
      .from(portalSignInLinks)
      .innerJoin(customers, eq(customers.id, portalSignInLinks.customerId))
      .where(and(eq(portalSignInLinks.tokenHash, tokenHash), eq(customers.sellerId, sellerId)))
      .limit(1),
  );
}

export async function insertSession(
  ctx: Db,
  session: { idHash: string; customerId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await ctx.db.insert(portalSessions).values({ ...session, lastSeenAt: session.createdAt });
}

export type SessionRow = {
  idHash: string;
  lastSeenAt: Date;
  customerId: string;
  sellerId: string;
  email: string;
  tokenIssuedAt: Date;
};

/** A live session of a holder of the seller whose host the request came to (one query). */
export async function findSessionOnHost(
  ctx: Db,
  idHash: string,
  sellerSlug: string,
  now: Date,
): Promise<SessionRow | undefined> {
  return firstRow(
    ctx.db
      .select({
        idHash: portalSessions.idHash,
        lastSeenAt: portalSessions.lastSeenAt,
        customerId: customers.id,
        sellerId: customers.sellerId,
        email: customers.email,
        tokenIssuedAt: customers.tokenIssuedAt,
      })
      .from(portalSessions)
      .innerJoin(customers, eq(customers.id, portalSessions.customerId))
      .innerJoin(users, eq(users.id, customers.sellerId))
      .where(and(eq(portalSessions.idHash, idHash), eq(users.slug, sellerSlug), gt(portalSessions.expiresAt, now)))
      .limit(1),
  );
}

export async function touchSession(ctx: Db, idHash: string, now: Date): Promise<void> {
  await ctx.db.update(portalSessions).set({ lastSeenAt: now }).where(eq(portalSessions.idHash, idHash));
}

export async function deleteSession(ctx: Db, idHash: string): Promise<void> {
  await ctx.db.delete(portalSessions).where(eq(portalSessions.idHash, idHash));
}

export type HeldGrantRow = {
  grant: typeof grants.$inferSelect;
  packageName: string;
  description: string | null;
  isPackageActive: boolean;
};

/** Every grant of this holder, with its package (or its product, issue 31), by name. */
export async function listHeldGrants(ctx: Db, customerId: string): Promise<HeldGrantRow[]> {
  const rows = await ctx.db
    .select({
      grant: grants,
      packageName: packages.name,
      productName: products.name,
      description: sql<string | null>`coalesce(${packages.description}, ${products.description})`,
      isPackageActive: packages.isActive,
    })
    .from(grants)
    .leftJoin(packages, eq(packages.id, grants.packageId))
    .leftJoin(products, eq(products.id, grants.productId))
    .where(eq(grants.customerId, customerId))
    .orderBy(asc(sql`coalesce(${packages.name}, ${products.name})`), asc(grants.createdAt));
  return rows.map(({ packageName, productName, isPackageActive, ...row }) => ({
    ...row,
    packageName: packageName ?? productName ?? '',
    // A product is available while it exists; each of its packages is checked where it is installed.
    isPackageActive: isPackageActive ?? true,
  }));
}

/** The packages of these products now (a product's license covers them), by product. */
export async function listProductPackages(
  ctx: Db,
  productIds: string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const byProduct = new Map<string, { id: string; name: string }[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await ctx.db
    .select({ productId: productPackages.productId, id: packages.id, name: packages.name })
    .from(productPackages)
    .innerJoin(packages, eq(packages.id, productPackages.packageId))
    .where(inArray(productPackages.productId, productIds))
    .orderBy(asc(packages.name));
  for (const row of rows) byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row]);
  return byProduct;
}

export type TagRow = { packageId: string; version: string; normalizedVersion: string; publishedAt: Date };

/** The tagged versions of these packages (branches are not versions a license lists). */
export async function listTags(ctx: Db, packageIds: string[]): Promise<TagRow[]> {
  if (packageIds.length === 0) return [];
  return ctx.db
    .select({
      packageId: packageVersions.packageId,
      version: packageVersions.version,
      normalizedVersion: packageVersions.normalizedVersion,
      publishedAt: packageVersions.publishedAt,
    })
    .from(packageVersions)
    .where(and(inArray(packageVersions.packageId, packageIds), eq(packageVersions.kind, 'tag')))
    .orderBy(sql`${packageVersions.publishedAt} desc`);
}

export type ReceiptRow = {
  id: string;
  packageName: string;
  tierName: string;
  amountCents: number;
  currency: string;
  status: 'paid' | 'refunded' | 'disputed';
  isTest: boolean;
  paidAt: Date;
};

/** The holder's sales that took money (paid, later refunded or disputed), newest first. */
export async function listReceipts(ctx: Db, customerId: string): Promise<ReceiptRow[]> {
  const rows = await ctx.db
    .select({
      id: sales.id,
      packageName: packages.name,
      tierName: sales.tierName,
      amountCents: sales.amountCents,
      currency: sales.currency,
      status: sales.status,
      isTest: sales.isTest,
      paidAt: sales.paidAt,
    })
    .from(sales)
    .innerJoin(packages, eq(packages.id, sales.packageId))
    .where(
      and(
        eq(sales.customerId, customerId),
        inArray(sales.status, ['paid', 'refunded', 'disputed']),
        isNotNull(sales.paidAt),
      ),
    )
    .orderBy(desc(sales.paidAt), desc(sales.id));
  return rows.map((row) => ({ ...row, status: row.status as ReceiptRow['status'], paidAt: row.paidAt! }));
}
