import { and, countDistinct, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { firstRow } from '../../db/result-rows.js';
import { packages, platformInvoices, sales } from '../../db/schema/index.js';
import type { Queryable } from './sales.repository.js';

// The sums and lists of sales (and of the platform's invoices) that sales-figures.service.ts presents.

const ENDED_OR_PAID = ['paid', 'refunded', 'disputed'] as const;

/** The seller's paid sales, test purchases left out: totals, this month's (from `monthStart`), fees, buyers. */
export async function sumSellerSales(db: Queryable, sellerId: string, monthStart: Date) {
  return firstRow(
    db
      .select({
        totalCents: sql<string>`coalesce(sum(${sales.amountCents}), 0)`,
        monthlyCents: sql<string>`coalesce(sum(${sales.amountCents}) filter (where ${sales.paidAt} >= ${monthStart.toISOString()}), 0)`,
        feesCents: sql<string>`coalesce(sum(${sales.feeCents}), 0)`,
        purchases: sql<string>`count(*) filter (where ${sales.kind} = 'purchase')`,
        customers: countDistinct(sql`lower(${sales.customerEmail})`),
      })
      .from(sales)
      .where(and(eq(sales.sellerId, sellerId), eq(sales.status, 'paid'), eq(sales.isTest, false))),
  );
}

/** The latest paid, refunded or disputed sales (the seller's, or everyone's), with their package's name. */
export function findRecentSales(db: Queryable, limit: number, sellerId?: string) {
  return db
    .select({ sale: sales, packageName: packages.name })
    .from(sales)
    .innerJoin(packages, eq(packages.id, sales.packageId))
    .where(
      and(
        sellerId ? eq(sales.sellerId, sellerId) : gte(sales.paidAt, new Date(0)),
        inArray(sales.status, [...ENDED_OR_PAID]),
      ),
    )
    .orderBy(desc(sales.paidAt))
    .limit(limit);
}

/** Every seller's paid sales, real or test: how many, gross and fees. */
export async function sumPaidSales(db: Queryable, isTest: boolean) {
  return firstRow(
    db
      .select({
        count: sql<string>`count(*)`,
        grossCents: sql<string>`coalesce(sum(${sales.amountCents}), 0)`,
        feesCents: sql<string>`coalesce(sum(${sales.feeCents}), 0)`,
      })
      .from(sales)
      .where(and(eq(sales.status, 'paid'), eq(sales.isTest, isTest))),
  );
}

/** What the platform's own subscription invoices brought in. */
export async function sumPlatformInvoices(db: Queryable): Promise<string | undefined> {
  const [invoices] = await db
    .select({ cents: sql<string>`coalesce(sum(${platformInvoices.amountPaidCents}), 0)` })
    .from(platformInvoices);
  return invoices?.cents;
}

export function findRecentPlatformInvoices(db: Queryable, limit: number) {
  return db.select().from(platformInvoices).orderBy(desc(platformInvoices.paidAt)).limit(limit);
}
