import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { customers } from './licenses.js';

// A license holder's credentials (features/credentials writes these, issue 32): named Composer tokens of kinds
// developer, ci, deploy and bot, and the CI identities (OIDC) a holder trusts to trade for a short-lived token.

export const holderTokenKinds = ['developer', 'ci', 'deploy', 'bot'] as const;
export type HolderTokenKind = (typeof holderTokenKinds)[number];

export const holderTokens = pgTable(
  'holder_tokens',
  {
    id: uuidPrimaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    /** "Ana's laptop", "GitHub Actions", "Production deploy". */
    name: text('name').notNull(),
    /** Developer tokens take a seat where a license limits seats; the other kinds never do. */
    kind: text('kind', { enum: holderTokenKinds }).notNull().default('developer'),
    /** SHA-256 of the token (`pgc_` + 30 base62 + 6 checksum, or an older token); the token is shown once. */
    tokenHash: text('token_hash').notNull(),
    /** The token's last four characters, to tell tokens apart on screens; never enough to use it. */
    tokenHint: text('token_hint'),
    /** Who made it: the holder in the portal, the seller on Management or API v1, a sale, an OIDC exchange. */
    createdBy: text('created_by', { enum: ['holder', 'seller', 'api', 'sale', 'oidc', 'migration'] })
      .notNull()
      .default('seller'),
    expiresAt: timestamptz('expires_at'),
    /** Written at most once a minute. */
    lastUsedAt: timestamptz('last_used_at'),
    /** Set when rotated: the token that replaces it. The old one works until `expiresAt` (the overlap's end). */
    replacedById: uuid('replaced_by_id'),
    rotatedAt: timestamptz('rotated_at'),
    revokedAt: timestamptz('revoked_at'),
    /** Reported by a secret scanner: when, and where it was found. */
    leakedAt: timestamptz('leaked_at'),
    leakUrl: text('leak_url'),
    /** The CI identity an OIDC-exchanged token was minted for. */
    oidcTrustId: uuid('oidc_trust_id'),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [
    uniqueIndex('holder_tokens_token_hash_unique').on(table.tokenHash),
    index('holder_tokens_customer_idx').on(table.customerId),
  ],
);

/** A CI identity a holder trusts: an OIDC issuer, the audience its tokens carry, and the subject they must match. */
export const oidcTrusts = pgTable(
  'oidc_trusts',
  {
    id: uuidPrimaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    name: text('name').notNull(),
    /** `https://token.actions.githubusercontent.com`, `https://gitlab.com`, or any issuer URL. */
    issuer: text('issuer').notNull(),
    audience: text('audience').notNull(),
    /** The `sub` a job's token must carry, e.g. `repo:acme/shop:ref:refs/heads/main`. */
    subject: text('subject').notNull(),
    createdBy: text('created_by', { enum: ['holder', 'seller', 'api'] })
      .notNull()
      .default('holder'),
    lastUsedAt: timestamptz('last_used_at'),
    createdAt: timestamptzNow('created_at'),
  },
  (table) => [index('oidc_trusts_customer_idx').on(table.customerId), index('oidc_trusts_issuer_idx').on(table.issuer)],
);

/** A CI job's token already exchanged (SHA-256 of the JWT, or of issuer + jti): a replay is refused until it expires. */
export const oidcTokenUses = pgTable(
  'oidc_token_uses',
  {
    tokenHash: text('token_hash').primaryKey(),
    trustId: belongsTo('trust_id', () => oidcTrusts.id),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptzNow('used_at'),
  },
  (table) => [index('oidc_token_uses_expires_idx').on(table.expiresAt)],
);
