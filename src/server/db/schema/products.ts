import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { packages } from './packages.js';
import { users } from './users.js';

// Products (features/products writes these, issue 31): a seller's named set of packages. A license or a price for a
// product covers every package in it, including packages added later, and stops covering one removed from it.

export const products = pgTable(
  'products',
  {
    id: uuidPrimaryKey(),
    ownerId: belongsTo('owner_id', () => users.id),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: timestamptzNow('created_at'),
    updatedAt: timestamptzNow('updated_at'),
  },
  (table) => [
    uniqueIndex('products_owner_name_unique').on(table.ownerId, sql`lower(${table.name})`),
    index('products_owner_idx').on(table.ownerId),
  ],
);

export const productPackages = pgTable(
  'product_packages',
  {
    productId: belongsTo('product_id', () => products.id),
    packageId: belongsTo('package_id', () => packages.id),
    addedAt: timestamptzNow('added_at'),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.packageId] }),
    index('product_packages_package_idx').on(table.packageId),
  ],
);
