import {
  type AdminSalesFigures,
  BILLING_OFF_REVENUE_NOTE,
  DEFAULT_CURRENCY,
  formatCents,
  RECENT_TRANSACTIONS_LIMIT,
  type RecentTransaction,
  type SellerSalesSummary,
} from '../../../contract/sales.js';
import type { AppContext } from '../../context.js';
import { utcMonthStart } from '../../lib/calendar.js';
import { findSellerPriceCurrency } from './pricing.repository.js';
import { isTestMode } from './sales.service.js';
import {
  findRecentPlatformInvoices,
  findRecentSales,
  sumPaidSales,
  sumPlatformInvoices,
  sumSellerSales,
} from './sales-figures.repository.js';

// What sales add up to: the seller's Dashboard card and API v1 analytics, and the admin's Overview. Money that
// moved only: paid payments (refunded ones and lost disputes no longer count). The seller's figures never count
// test purchases (no money moved; issue 28), which the lists still show, marked test.

const RECENT_SALES_LIMIT = 10;

const toNumber = (value: unknown) => Number(value ?? 0);

/** The seller's currency: that of their prices (one per seller), USD before they have any. */
async function sellerCurrency(ctx: AppContext, sellerId: string): Promise<string> {
  return (await findSellerPriceCurrency(ctx.db, sellerId)) ?? DEFAULT_CURRENCY;
}

export type SellerSalesTotals = Omit<SellerSalesSummary, 'recentSales'>;

/** The seller's sales totals (also API v1 analytics' sales fields): paid sales, test purchases left out. */
export async function getSellerSalesTotals(ctx: AppContext, sellerId: string): Promise<SellerSalesTotals> {
  const monthStart = utcMonthStart(ctx.clock.now());
  const [totals, currency] = await Promise.all([
    sumSellerSales(ctx.db, sellerId, monthStart),
    sellerCurrency(ctx, sellerId),
  ]);
  const totalSalesCents = toNumber(totals?.totalCents);
  const monthlySalesCents = toNumber(totals?.monthlyCents);
  return {
    totalSalesCents,
    totalSalesFormatted: formatCents(totalSalesCents, currency),
    monthlySalesCents,
    monthlySalesFormatted: formatCents(monthlySalesCents, currency),
    totalPurchases: toNumber(totals?.purchases),
    totalCustomers: toNumber(totals?.customers),
    feesCents: toNumber(totals?.feesCents),
    currency,
  };
}

/** GET /api/sales/summary: the totals and the latest sales. */
export async function getSellerSalesSummary(ctx: AppContext, sellerId: string): Promise<SellerSalesSummary> {
  const [totals, recent] = await Promise.all([
    getSellerSalesTotals(ctx, sellerId),
    findRecentSales(ctx.db, RECENT_SALES_LIMIT, sellerId),
  ]);
  return {
    ...totals,
    recentSales: recent.map(({ sale, packageName }) => ({
      id: sale.id,
      packageName,
      tierName: sale.tierName,
      customerEmail: sale.customerEmail ?? '',
      amountCents: sale.amountCents,
      feeCents: sale.feeCents,
      currency: sale.currency,
      status: sale.status === 'expired' ? 'pending' : sale.status,
      test: sale.isTest,
      createdAt: (sale.paidAt ?? sale.createdAt).toISOString(),
    })),
  };
}

/**
 * The admin Overview's money: sales paid (count and gross), the platform's revenue as fees collected on real paid
 * sales plus paid platform invoices, and the latest of both. Billing off: no money moves, revenue is 0 and says so.
 */
export async function getAdminSalesFigures(ctx: AppContext): Promise<AdminSalesFigures> {
  const billingOff = isTestMode(ctx);
  const [real, test, invoicesSum, recentSales, recentInvoices] = await Promise.all([
    sumPaidSales(ctx.db, false),
    sumPaidSales(ctx.db, true),
    sumPlatformInvoices(ctx.db),
    findRecentSales(ctx.db, RECENT_TRANSACTIONS_LIMIT),
    findRecentPlatformInvoices(ctx.db, RECENT_TRANSACTIONS_LIMIT),
  ]);
  const feesCents = toNumber(real?.feesCents);
  const invoicesCents = toNumber(invoicesSum);
  const transactions: RecentTransaction[] = [
    ...recentSales.map(({ sale, packageName }) => ({
      id: sale.id,
      kind: 'sale' as const,
      description: `${sale.kind === 'renewal' ? 'Renewal' : 'Sale'}: ${packageName} (${sale.tierName})${
        sale.status === 'paid' ? '' : `, ${sale.status}`
      }`,
      amountCents: sale.amountCents,
      feeCents: sale.feeCents,
      currency: sale.currency,
      createdAt: (sale.paidAt ?? sale.createdAt).toISOString(),
      test: sale.isTest,
    })),
    ...recentInvoices.map((invoice) => ({
      id: invoice.id,
      kind: 'invoice' as const,
      description: 'Platform subscription invoice',
      amountCents: invoice.amountPaidCents,
      feeCents: invoice.amountPaidCents,
      currency: invoice.currency,
      createdAt: invoice.paidAt.toISOString(),
      test: false,
    })),
  ]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, RECENT_TRANSACTIONS_LIMIT);
  const counted = billingOff
    ? {
        count: toNumber(real?.count) + toNumber(test?.count),
        gross: toNumber(real?.grossCents) + toNumber(test?.grossCents),
      }
    : { count: toNumber(real?.count), gross: toNumber(real?.grossCents) };
  return {
    totalSales: counted.count,
    grossSalesCents: counted.gross,
    platformRevenue: (feesCents + invoicesCents) / 100,
    feesCents,
    invoicesCents,
    billingOff,
    testFeesCents: toNumber(test?.feesCents),
    revenueNote: billingOff ? BILLING_OFF_REVENUE_NOTE : null,
    recentTransactions: transactions,
  };
}
