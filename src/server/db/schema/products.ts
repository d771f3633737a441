import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { packages } from './packages.js';
import { users } from './users.js';

// Products (features/products writes these, issue 31): a seller's named set of packages. A license or a price for a
// product covers every package in it, including packages added later, and stops covering one removed from it.

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('products_owner_name_unique').on(table.ownerId, sql`lower(${table.name})`),
    index('products_owner_idx').on(table.ownerId),
  ],
);

export const productPackages = pgTable(
  'product_packages',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    packageId: uuid('package_id')
      .notNull()
      .references(() => packages.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.packageId] }),
    index('product_packages_package_idx').on(table.packageId),
  ],
);
