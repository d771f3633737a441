import { boolean, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz, timestamptzNow } from './columns.js';
import { users } from './users.js';

export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamptzNow('updated_at'),
});

export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  icon: text('icon').notNull().default('package'),
  priceCents: integer('price_cents').notNull(),
  currency: text('currency').notNull().default('usd'),
  description: text('description').notNull().default(''),
  features: jsonb('features').$type<string[]>().notNull().default([]),
  maxCustomers: integer('max_customers').notNull().default(-1),
  maxPackages: integer('max_packages').notNull().default(-1),
  /** Members an organisation on this plan may have, owner included; -1 = unlimited. */
  maxTeamMembers: integer('max_team_members').notNull().default(-1),
  isMostPopular: boolean('is_most_popular').notNull().default(false),
  isFeatured: boolean('is_featured').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: timestamptzNow('created_at'),
  updatedAt: timestamptzNow('updated_at'),
});

export const platformSubscriptions = pgTable('platform_subscriptions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** trial, active, inactive (payment failed) or expired (ended); trial expiry is computed from trialEndsAt. */
  status: text('status', { enum: ['trial', 'active', 'inactive', 'expired'] }).notNull(),
  tierId: text('tier_id').notNull(),
  trialStartedAt: timestamptz('trial_started_at'),
  trialEndsAt: timestamptz('trial_ends_at'),
  currentPeriodEnd: timestamptz('current_period_end'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  providerCustomerId: text('provider_customer_id'),
  providerSubscriptionId: text('provider_subscription_id'),
  /**
   * When a paid subscription stopped giving access (a failed payment, or its end); null while it gives access.
   * The license holders' grace period counts from here (a trial's from trialEndsAt).
   */
  accessEndedAt: timestamptz('access_ended_at'),
  /**
   * When the provider's state last written here was fetched: a webhook that fetched earlier but wrote later
   * must not overwrite a newer state.
   */
  providerSyncedAt: timestamptz('provider_synced_at'),
  createdAt: timestamptzNow('created_at'),
  updatedAt: timestamptzNow('updated_at'),
});

/**
 * Stripe prices made for a tier. Stripe prices are immutable: a tier whose price changes gets a new one,
 * and test and live mode each have their own.
 */
export const stripePrices = pgTable(
  'stripe_prices',
  {
    tierId: text('tier_id').notNull(),
    mode: text('mode', { enum: ['test', 'live'] }).notNull(),
    priceCents: integer('price_cents').notNull(),
    currency: text('currency').notNull(),
    productId: text('product_id').notNull(),
    priceId: text('price_id').notNull(),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [primaryKey({ columns: [table.tierId, table.mode, table.priceCents, table.currency] })],
);
