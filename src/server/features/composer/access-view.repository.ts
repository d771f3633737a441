import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/result-rows.js';
import {
  customers,
  grants,
  type HolderTokenKind,
  holderTokens,
  type MinimumStability,
  packages,
  platformSubscriptions,
  productPackages,
  products,
  users,
} from '../../db/schema/index.js';
import { type LicenseTerms, parseLicenseTerms } from '../../lib/composer-versions/license-terms.js';
import { InvalidConstraintError } from '../../lib/composer-versions/version-constraints.js';
import type { GrantFacts } from '../licenses/grant-rules.js';
import type { SellerSubscriptionFacts } from '../subscriptions/license-holder-grace-rules.js';

// A token's access view, in one statement: the named token with its own state, its holder, their seller and the
// seller's subscription, and every license covering each package of that seller, directly or through a product as
// the product is now, with its terms parsed. The warm path keeps it per token (access-cache.ts); the services decide
// every request from it at the request's time. Also the token's last use, the one thing written from it.

export type GrantRow = GrantFacts & {
  grantId: string;
  packageId: string;
  metadataUpdatedAt: Date;
  grantUpdatedAt: Date;
};

/** The seller's subscription as the raw statements select it (`sellerColumns`). */
type RawSellerColumns = {
  seller_user_type: 'seller' | 'admin';
  seller_status: 'trial' | 'active' | 'inactive' | 'expired' | null;
  seller_trial_ends_at: Date | string | null;
  seller_period_end: Date | string | null;
  seller_cancel_at_period_end: boolean | null;
  seller_access_ended_at: Date | string | null;
  seller_subscription_updated_at: Date | string | null;
};

/** Needs `u` (the seller) and `ps` (their subscription, left-joined) in the statement. */
const sellerColumns = sql`u.user_type as seller_user_type, ps.status as seller_status,
  ps.trial_ends_at as seller_trial_ends_at, ps.current_period_end as seller_period_end,
  ps.cancel_at_period_end as seller_cancel_at_period_end, ps.access_ended_at as seller_access_ended_at,
  ps.updated_at as seller_subscription_updated_at`;

// PGlite and node-postgres both return timestamptz as Date; a string is accepted in case a driver does not.
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

const toDateOrNull = (value: Date | string | null): Date | null => (value === null ? null : toDate(value));

function sellerFromRow(row: RawSellerColumns): SellerSubscriptionFacts {
  return {
    userType: row.seller_user_type,
    subscription:
      row.seller_status === null
        ? undefined
        : {
            status: row.seller_status,
            trialEndsAt: toDateOrNull(row.seller_trial_ends_at),
            currentPeriodEnd: toDateOrNull(row.seller_period_end),
            cancelAtPeriodEnd: row.seller_cancel_at_period_end ?? false,
            accessEndedAt: toDateOrNull(row.seller_access_ended_at),
            updatedAt: toDate(row.seller_subscription_updated_at!),
          },
  };
}

/** The token's own facts (holder_tokens): the service decides each request from them at the request's time. */
export type TokenFacts = {
  tokenId: string;
  kind: HolderTokenKind;
  /** The end of the token's life; for a rotated token, the end of its overlap. */
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Set when rotated: the new token's id, and when. */
  replacedById: string | null;
  rotatedAt: Date | null;
  /** Reported by a secret scanner and kept (not revoked) until its expiresAt, as the seller chose. */
  leakedAt: Date | null;
  /** As read with the view: the last-use write (at most once a minute) starts from it. */
  lastUsedAt: Date | null;
};

/**
 * One license covering one package: the grant's own facts (a product grant covers each package currently in the
 * product) and its version terms, parsed once when the view is read.
 */
export type CoveringGrant = GrantRow & {
  terms: LicenseTerms;
  /** The product the grant is for, when it covers the package through one. */
  productId: string | null;
  productName: string | null;
  /** When what the grant shows last changed: its own terms, and the product's packages for a product grant. */
  coverageUpdatedAt: Date;
};

/** A package the token's holder holds at least one license for, with every license that covers it. */
export type PackageAccess = {
  packageId: string;
  packageName: string;
  /** Direct grants first, then product grants, each in id order: the order the dist door picks a grant in. */
  grants: CoveringGrant[];
};

/** Everything the rules need to decide any request of one token, as of the moment it was read. */
export type TokenView = {
  customerId: string;
  sellerId: string;
  sellerSlug: string;
  seller: SellerSubscriptionFacts;
  token: TokenFacts;
  /** Packages of the token's own seller the holder is licensed for (directly or through products), in name order. */
  packages: Map<string, PackageAccess>;
  /**
   * The latest change of any of the holder's licenses or of the products they cover: part of every p2 file's
   * Last-Modified, since one license's change can change what the union of several shows.
   */
  coverageUpdatedAt: Date;
};

type RawViewGrant = Omit<GrantRow, 'expiresAt' | 'metadataUpdatedAt' | 'grantUpdatedAt'> & {
  expiresAt: number | string | null;
  metadataUpdatedAt: number | string;
  grantUpdatedAt: number | string;
  coverageUpdatedAt: number | string;
  productId: string | null;
  productName: string | null;
  versionConstraint: string | null;
  minimumStability: MinimumStability;
};

type RawTokenColumns = {
  token_id: string;
  token_kind: HolderTokenKind;
  token_expires_at: Date | string | null;
  token_revoked_at: Date | string | null;
  token_replaced_by_id: string | null;
  token_rotated_at: Date | string | null;
  token_leaked_at: Date | string | null;
  token_last_used_at: Date | string | null;
};

/** A stored constraint that no longer parses covers nothing, rather than everything: access fails closed. */
const COVERS_NOTHING: LicenseTerms = {
  constraintText: '<0',
  constraint: { alternatives: [] },
  minimumStability: 'stable',
};

function termsOf(grant: RawViewGrant): LicenseTerms {
  try {
    return parseLicenseTerms(grant.versionConstraint, grant.minimumStability);
  } catch (error) {
    if (error instanceof InvalidConstraintError) return COVERS_NOTHING;
    throw error;
  }
}

function coveringGrant(grant: RawViewGrant): CoveringGrant {
  return {
    grantId: grant.grantId,
    packageId: grant.packageId,
    packageName: grant.packageName,
    packageIsActive: grant.packageIsActive,
    status: grant.status,
    expiresAt: grant.expiresAt === null ? null : new Date(Number(grant.expiresAt)),
    endMode: grant.endMode,
    downloadLimit: grant.downloadLimit,
    downloadCount: grant.downloadCount,
    metadataUpdatedAt: new Date(Number(grant.metadataUpdatedAt)),
    grantUpdatedAt: new Date(Number(grant.grantUpdatedAt)),
    coverageUpdatedAt: new Date(Number(grant.coverageUpdatedAt)),
    productId: grant.productId,
    productName: grant.productName,
    terms: termsOf(grant),
  };
}

/**
 * Whether a named token has this hash: one lookup in the unique index, before the view's statement. Planning that
 * statement costs PGlite about 1.3 ms of the server's CPU and PostgreSQL about 1 ms, against about 0.3 ms for this
 * one, and a token nobody holds (a guess, a deleted token, a typo in a CI secret) is what a flood of bad requests
 * sends (issue 34). A token that exists is then read whole in one statement, which decides again: a token deleted in
 * between is unknown there too.
 */
async function isHeldTokenHash(db: Database, tokenHash: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from ${holderTokens} where token_hash = ${tokenHash}`);
  return rowsOf(result).length > 0;
}

/**
 * Everything one token may see, in one statement: the named token (holder_tokens) with its holder, their seller
 * (slug, type, subscription) and every grant covering a package of that seller, directly or through a product as the
 * product is now, with the package's state. Undefined: unknown token. The token's state (revoked, expired, rotated,
 * leaked) is read, not filtered: the service decides it at each request's time. The host is not part of the
 * question, so the answer serves every host the token is used on.
 */
export async function findTokenView(db: Database, tokenHash: string): Promise<TokenView | undefined> {
  if (!(await isHeldTokenHash(db, tokenHash))) return undefined;
  const result = await db.execute(sql`
    select c.id as customer_id, c.seller_id, u.slug as seller_slug, ${sellerColumns},
      t.id as token_id, t.kind as token_kind, t.expires_at as token_expires_at, t.revoked_at as token_revoked_at,
      t.replaced_by_id as token_replaced_by_id, t.rotated_at as token_rotated_at, t.leaked_at as token_leaked_at,
      t.last_used_at as token_last_used_at,
      (
        select coalesce(json_agg(json_build_object(
          'grantId', g.id, 'packageId', p.id, 'packageName', p.name, 'packageIsActive', p.is_active,
          'status', g.status, 'expiresAt', extract(epoch from g.expires_at) * 1000, 'endMode', g.end_mode,
          'downloadLimit', g.download_limit, 'downloadCount', g.download_count,
          'metadataUpdatedAt', extract(epoch from p.metadata_updated_at) * 1000,
          'grantUpdatedAt', extract(epoch from g.updated_at) * 1000,
          'coverageUpdatedAt', extract(epoch from greatest(g.updated_at, covered.changed_at)) * 1000,
          'productId', g.product_id, 'productName', covered.product_name,
          'versionConstraint', g.version_constraint, 'minimumStability', g.minimum_stability)
          order by p.name, g.product_id nulls first, g.id), '[]'::json)
        from ${grants} g
        cross join lateral (
          select g.package_id as package_id, null::text as product_name, g.updated_at as changed_at
          where g.package_id is not null
          union all
          select pp.package_id, pr.name, greatest(pr.updated_at, pp.added_at)
          from ${productPackages} pp join ${products} pr on pr.id = pp.product_id
          where pp.product_id = g.product_id and pr.owner_id = c.seller_id
        ) covered
        join ${packages} p on p.id = covered.package_id and p.owner_id = c.seller_id
        where g.customer_id = c.id
      ) as grants
    from ${holderTokens} t
    join ${customers} c on c.id = t.customer_id
    join ${users} u on u.id = c.seller_id
    left join ${platformSubscriptions} ps on ps.user_id = c.seller_id
    where t.token_hash = ${tokenHash}`);
  const [row] = rowsOf<
    RawSellerColumns &
      RawTokenColumns & { customer_id: string; seller_id: string; seller_slug: string; grants: RawViewGrant[] }
  >(result);
  if (!row) return undefined;
  const viewPackages = new Map<string, PackageAccess>();
  let coverageUpdatedAt = 0;
  for (const raw of row.grants) {
    const grant = coveringGrant(raw);
    coverageUpdatedAt = Math.max(coverageUpdatedAt, grant.coverageUpdatedAt.getTime());
    const held = viewPackages.get(grant.packageName);
    if (held) held.grants.push(grant);
    else
      viewPackages.set(grant.packageName, {
        packageId: grant.packageId,
        packageName: grant.packageName,
        grants: [grant],
      });
  }
  return {
    customerId: row.customer_id,
    sellerId: row.seller_id,
    sellerSlug: row.seller_slug,
    seller: sellerFromRow(row),
    token: {
      tokenId: row.token_id,
      kind: row.token_kind,
      expiresAt: toDateOrNull(row.token_expires_at),
      revokedAt: toDateOrNull(row.token_revoked_at),
      replacedById: row.token_replaced_by_id,
      rotatedAt: toDateOrNull(row.token_rotated_at),
      leakedAt: toDateOrNull(row.token_leaked_at),
      lastUsedAt: toDateOrNull(row.token_last_used_at),
    },
    packages: viewPackages,
    coverageUpdatedAt: new Date(coverageUpdatedAt),
  };
}
