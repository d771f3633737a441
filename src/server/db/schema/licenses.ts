import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { packages } from './packages.js';
import { products } from './products.js';
import { users } from './users.js';

// Licenses (features/licenses writes these): the holders a seller licenses to, their licenses (grants) and the
// downloads counted against them. Moved out of packages.ts without changing a column (issue 29 item 6).

/** A seller's license holder: one Composer token per seller and e-mail. */
export const customers = pgTable(
  'customers',
  {
    id: uuidPrimaryKey(),
    sellerId: belongsTo('seller_id', () => users.id),
    email: text('email').notNull(),
    /**
     * SHA-256 of the holder's first Composer token, from before named tokens (issue 32): holder_tokens holds every
     * token now (migration 0028 copied these), so this column is no longer read to decide access; null for holders
     * created since.
     */
    tokenHash: text('token_hash'),
    tokenIssuedAt: timestamptzNow('token_issued_at'),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [
    uniqueIndex('customers_seller_email_unique').on(table.sellerId, sql`lower(${table.email})`),
    uniqueIndex('customers_token_hash_unique').on(table.tokenHash),
    // Management's and API v1's holder lists page newest first by (created_at, id) (db/keyset-page.ts, issue 34).
    index('customers_seller_created_idx').on(table.sellerId, table.createdAt, table.id),
  ],
);

export const minimumStabilities = ['stable', 'RC', 'beta', 'alpha', 'dev'] as const;
export type MinimumStability = (typeof minimumStabilities)[number];

/**
 * A license: what one license holder may install of one package or of one product (every package in it), until when,
 * how often, which versions (a Composer constraint and a minimum stability) and for how many developer seats.
 */
export const grants = pgTable(
  'grants',
  {
    id: uuidPrimaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    /** The package licensed; null when the license is for a product. Exactly one of packageId and productId is set. */
    packageId: uuid('package_id').references(() => packages.id, { onDelete: 'cascade' }),
    /** The product licensed (issue 31): covers every package in it, as the product is at each request. */
    productId: uuid('product_id').references(() => products.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['purchase', 'temporary', 'manual'] }).notNull(),
    /** A Composer constraint (`^1.0`, `>=2.0 <3.0`) the versions must match; null = every version. */
    versionConstraint: text('version_constraint'),
    /** The least stable versions covered: `stable`, `RC`, `beta`, `alpha` or `dev` (everything). */
    minimumStability: text('minimum_stability', { enum: minimumStabilities }).notNull().default('dev'),
    /** How many developer tokens the holder may have at once; null = unlimited. CI, deploy and bot tokens take none. */
    seats: integer('seats'),
    status: text('status', { enum: ['active', 'revoked'] })
      .notNull()
      .default('active'),
    expiresAt: timestamptz('expires_at'),
    /** At expiry: `access` ends everything; `updates` freezes (versions released before expiry stay installable). */
    endMode: text('end_mode', { enum: ['access', 'updates'] })
      .notNull()
      .default('access'),
    downloadLimit: integer('download_limit'),
    downloadCount: integer('download_count').notNull().default(0),
    lastUsedAt: timestamptz('last_used_at'),
    note: text('note'),
    createdAt: timestamptzNow('created_at'),
    revokedAt: timestamptz('revoked_at'),
    /**
     * Any change the seller makes (expiry, end mode, status, limit) moves it: it takes part in the Last-Modified
     * of the holder's metadata, which must change whenever what the grant shows changes. Download counting and
     * lastUsedAt are written with raw SQL and leave it alone.
     */
    updatedAt: timestamptzNow('updated_at').$onUpdate(() => new Date()),
  },
  (table) => [
    uniqueIndex('grants_customer_package_unique').on(table.customerId, table.packageId),
    uniqueIndex('grants_customer_product_unique').on(table.customerId, table.productId),
    index('grants_package_idx').on(table.packageId),
    index('grants_product_idx').on(table.productId),
    // API v1's license list pages newest first by (created_at, id) (db/keyset-page.ts, issue 34).
    index('grants_created_idx').on(table.createdAt, table.id),
    check('grants_one_target', sql`num_nonnulls(${table.packageId}, ${table.productId}) = 1`),
  ],
);

export const downloads = pgTable(
  'downloads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    grantId: belongsTo('grant_id', () => grants.id),
    packageId: belongsTo('package_id', () => packages.id),
    version: text('version').notNull(),
    downloadedAt: timestamptzNow('downloaded_at'),
    /** The client's network, never its address: `203.0.113.0/24` (IPv4) or `2001:db8:1::/48` (IPv6); null if unknown. */
    clientNetwork: text('client_network'),
  },
  (table) => [
    index('downloads_package_time_idx').on(table.packageId, table.downloadedAt),
    index('downloads_grant_idx').on(table.grantId),
  ],
);
