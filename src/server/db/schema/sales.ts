import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { customers, grants } from './licenses.js';
import { packages } from './packages.js';
import { products } from './products.js';
import { users } from './users.js';

// Selling (issue 11): payout accounts, the prices of packages, and every sale with the fee the platform took.

/** A seller's Stripe Connect (Express) account, as Stripe last reported it. */
export const payoutAccounts = pgTable('payout_accounts', {
  sellerId: uuid('seller_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeAccountId: text('stripe_account_id').notNull().unique(),
  /** test or live keys created it: Stripe keeps the two apart. */
  mode: text('mode', { enum: ['test', 'live'] }).notNull(),
  chargesEnabled: boolean('charges_enabled').notNull().default(false),
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  detailsSubmitted: boolean('details_submitted').notNull().default(false),
  /** Stripe's requirements.disabled_reason, when it restricted the account. */
  disabledReason: text('disabled_reason'),
  createdAt: timestamptzNow('created_at'),
  updatedAt: timestamptzNow('updated_at'),
});

/**
 * A price of a package or of a product (issue 31; exactly one is set): one-time (N months of updates, then frozen) or
 * a monthly/yearly subscription, optionally for a version range ("Version 2 licence").
 */
export const packagePrices = pgTable(
  'package_prices',
  {
    id: uuidPrimaryKey(),
    packageId: uuid('package_id').references(() => packages.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'cascade' }),
    /** The Composer constraint the license bought with this price carries; null = every version. */
    versionConstraint: text('version_constraint'),
    sellerId: belongsTo('seller_id', () => users.id),
    name: text('name').notNull(),
    description: text('description'),
    pricingType: text('pricing_type', { enum: ['one_time', 'subscription'] }).notNull(),
    interval: text('interval', { enum: ['month', 'year'] }),
    updateMonths: integer('update_months'),
    trialDays: integer('trial_days'),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamptzNow('created_at'),
    updatedAt: timestamptzNow('updated_at'),
  },
  (table) => [
    index('package_prices_package_idx').on(table.packageId),
    index('package_prices_product_idx').on(table.productId),
    index('package_prices_seller_idx').on(table.sellerId),
    check('package_prices_one_target', sql`num_nonnulls(${table.packageId}, ${table.productId}) = 1`),
  ],
);

/**
 * A payment for a package: the first one of a checkout (kind `purchase`) or a subscription's renewal (kind
 * `renewal`, one per paid invoice). The fee is the platform's 5%, computed and stored per payment.
 */
export const sales = pgTable(
  'sales',
  {
    id: uuidPrimaryKey(),
    sellerId: belongsTo('seller_id', () => users.id),
    /** The package sold; null when a product was sold (productId). */
    packageId: uuid('package_id').references(() => packages.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    priceId: uuid('price_id').references(() => packagePrices.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['purchase', 'renewal'] })
      .notNull()
      .default('purchase'),
    status: text('status', { enum: ['pending', 'paid', 'refunded', 'disputed', 'expired'] })
      .notNull()
      .default('pending'),
    isTest: boolean('is_test').notNull().default(false),
    pricingType: text('pricing_type', { enum: ['one_time', 'subscription'] }).notNull(),
    tierName: text('tier_name').notNull(),
    customerEmail: text('customer_email'),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    grantId: uuid('grant_id').references(() => grants.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    currency: text('currency').notNull(),
    stripeAccountId: text('stripe_account_id'),
    checkoutSessionId: text('checkout_session_id'),
    paymentIntentId: text('payment_intent_id'),
    subscriptionId: text('subscription_id'),
    invoiceId: text('invoice_id'),
    /** The buyer's new Composer token, sealed under SECRET_KEY, for the success page until tokenVisibleUntil. */
    sealedToken: text('sealed_token'),
    tokenVisibleUntil: timestamptz('token_visible_until'),
    /** The buyer already held a token of this seller: the package was added to it. */
    hadToken: boolean('had_token').notNull().default(false),
    createdAt: timestamptzNow('created_at'),
    paidAt: timestamptz('paid_at'),
    endedAt: timestamptz('ended_at'),
  },
  (table) => [
    uniqueIndex('sales_checkout_session_unique').on(table.checkoutSessionId),
    uniqueIndex('sales_invoice_unique').on(table.invoiceId),
    index('sales_seller_created_idx').on(table.sellerId, table.createdAt),
    index('sales_payment_intent_idx').on(table.paymentIntentId),
    index('sales_subscription_idx').on(table.subscriptionId),
    index('sales_paid_idx').on(table.paidAt).where(sql`status = 'paid'`),
  ],
);

/** A paid invoice of a seller's platform subscription: money the platform collected. */
export const platformInvoices = pgTable('platform_invoices', {
  id: text('id').primaryKey(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  amountPaidCents: integer('amount_paid_cents').notNull(),
  currency: text('currency').notNull(),
  paidAt: timestamptz('paid_at').notNull(),
});
