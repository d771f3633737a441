import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { customers, grants, packages, packageVersions, platformSubscriptions, users } from '../../db/schema/index.js';
import type { SellerSelector } from '../../http/hosts.js';
import type { SellerSubscriptionFacts } from '../subscriptions/subscriptions.service.js';
import type { GrantFacts } from './grant-rules.js';

// The Composer repository's queries. Each door (packages.json, p2, dist) costs one statement that goes from the
// token's hash to everything the rules need: the license holder, whether the host is their seller's, the grant,
// the package and its versions, and the seller's own subscription (a lapsed seller's repository closes after a
// grace period). No second round trip on the hot path, and no state kept between requests.

/**
 * The token was recognised: whose it is, whether the request's host belongs to that seller, and the seller's
 * subscription.
 */
type TokenMatch = { customerId: string; isOnHost: boolean; seller: SellerSubscriptionFacts };

export type GrantRow = GrantFacts & {
  grantId: string;
  packageId: string;
  metadataUpdatedAt: Date;
  grantUpdatedAt: Date;
};

export type MetadataVersionRow = {
  version: string;
  normalizedVersion: string;
  commit: string;
  /** Epoch milliseconds: what a frozen grant compares with its end. */
  releasedAt: number;
  /** ISO 8601 in UTC, as Composer shows it. */
  time: string;
  composerJson: Record<string, unknown>;
  distSha1: string | null;
};

export type DistVersionRow = {
  id: string;
  version: string;
  normalizedVersion: string;
  kind: 'tag' | 'branch';
  commit: string;
  releasedAt: number;
  distKey: string | null;
  distSha1: string | null;
  distSize: number | null;
};

type RawGrantColumns = {
  grant_id: string | null;
  package_id: string | null;
  package_name: string | null;
  package_is_active: boolean | null;
  status: 'active' | 'revoked' | null;
  expires_at: Date | string | null;
  end_mode: 'access' | 'updates' | null;
  download_limit: number | null;
  download_count: number | null;
  metadata_updated_at: Date | string | null;
  grant_updated_at: Date | string | null;
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

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

// PGlite and node-postgres both return timestamptz as Date; a string is accepted in case a driver does not.
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** True when the token's seller is the one the host names; the bare COMPOSER_DOMAIN accepts any seller. */
function onHost(seller: SellerSelector | undefined): SQL {
  return seller ? sql`(u.slug = ${seller.slug})` : sql`true`;
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

function grantFromRow(row: RawGrantColumns): GrantRow | undefined {
  if (row.grant_id === null || row.package_id === null) return undefined;
  return {
    grantId: row.grant_id,
    packageId: row.package_id,
    packageName: row.package_name!,
    packageIsActive: row.package_is_active!,
    status: row.status!,
    expiresAt: row.expires_at === null ? null : toDate(row.expires_at),
    endMode: row.end_mode!,
    downloadLimit: row.download_limit,
    downloadCount: row.download_count!,
    metadataUpdatedAt: toDate(row.metadata_updated_at!),
    grantUpdatedAt: toDate(row.grant_updated_at!),
  };
}

const grantColumns = sql`g.id as grant_id, p.id as package_id, p.name as package_name,
  p.is_active as package_is_active, g.status, g.expires_at, g.end_mode, g.download_limit, g.download_count,
  p.metadata_updated_at, g.updated_at as grant_updated_at`;

/** The token's grants of one package: the package by name, of the token's own seller, on a host that is theirs. */
const grantOfPackageJoins = (seller: SellerSelector | undefined, packageName: string) => sql`
  from ${customers} c
  join ${users} u on u.id = c.seller_id
  left join ${platformSubscriptions} ps on ps.user_id = c.seller_id
  left join ${packages} p on p.owner_id = c.seller_id and p.name = ${packageName} and ${onHost(seller)}
  left join ${grants} g on g.customer_id = c.id and g.package_id = p.id`;

export type RepositoryAccess = TokenMatch & { grants: Array<GrantFacts & { grantId: string }> };

/** packages.json: every grant of the token's holder, when the host is their seller's. Undefined: unknown token. */
export async function findRepositoryAccess(
  db: Database,
  tokenHash: string,
  seller: SellerSelector | undefined,
): Promise<RepositoryAccess | undefined> {
  const result = await db.execute(sql`
    select c.id as customer_id, ${onHost(seller)} as is_on_host, ${sellerColumns},
      case when ${onHost(seller)} then (
        select coalesce(json_agg(json_build_object(
          'grantId', g.id, 'packageName', p.name, 'packageIsActive', p.is_active, 'status', g.status,
          'expiresAt', extract(epoch from g.expires_at) * 1000, 'endMode', g.end_mode,
          'downloadLimit', g.download_limit, 'downloadCount', g.download_count) order by p.name), '[]'::json)
        from ${grants} g join ${packages} p on p.id = g.package_id and p.owner_id = c.seller_id
        where g.customer_id = c.id
      ) else '[]'::json end as grants
    from ${customers} c join ${users} u on u.id = c.seller_id
    left join ${platformSubscriptions} ps on ps.user_id = c.seller_id
    where c.token_hash = ${tokenHash}`);
  const [row] = rowsOf<
    RawSellerColumns & {
      customer_id: string;
      is_on_host: boolean;
      grants: Array<Omit<GrantFacts, 'expiresAt'> & { grantId: string; expiresAt: number | null }>;
    }
  >(result);
  if (!row) return undefined;
  return {
    customerId: row.customer_id,
    isOnHost: row.is_on_host,
    seller: sellerFromRow(row),
    grants: row.grants.map((grant) => ({
      ...grant,
      expiresAt: grant.expiresAt === null ? null : new Date(Number(grant.expiresAt)),
    })),
  };
}

/** The version list a process already holds for a package, to be read again only if the package changed since. */
export type KnownVersions = { packageId: string; stamp: string };

export type MetadataAccess = TokenMatch & {
  grant?: GrantRow;
  /** metadata_updated_at as PostgreSQL prints it (microseconds included): equal stamps, equal versions. */
  metadataStamp?: string;
  /** Undefined when there is no grant, or when `known` still holds (the caller's copy is current). */
  versions?: MetadataVersionRow[];
};

const placeholder = {
  tokenHash: sql.placeholder('tokenHash'),
  sellerSlug: sql.placeholder('sellerSlug'),
  packageName: sql.placeholder('packageName'),
  kind: sql.placeholder('kind'),
  knownPackageId: sql.placeholder('knownPackageId'),
  knownStamp: sql.placeholder('knownStamp'),
};

/** The p2 statement, prepared once per database: parsing and planning it cost PostgreSQL more than running it. */
function buildMetadataStatement(db: Database) {
  const isOnHost = sql<boolean>`(${placeholder.sellerSlug}::text is null or ${users.slug} = ${placeholder.sellerSlug}::text)`;
  const isKnown = sql`coalesce(${packages.id} = ${placeholder.knownPackageId}::uuid
    and ${packages.metadataUpdatedAt} = ${placeholder.knownStamp}::timestamptz, false)`;
  return db
    .select({
      customerId: customers.id,
      isOnHost,
      sellerUserType: users.userType,
      sellerStatus: platformSubscriptions.status,
      sellerTrialEndsAt: platformSubscriptions.trialEndsAt,
      sellerPeriodEnd: platformSubscriptions.currentPeriodEnd,
      sellerCancelAtPeriodEnd: platformSubscriptions.cancelAtPeriodEnd,
      sellerAccessEndedAt: platformSubscriptions.accessEndedAt,
      sellerSubscriptionUpdatedAt: platformSubscriptions.updatedAt,
      grantId: grants.id,
      packageId: packages.id,
      packageName: packages.name,
      packageIsActive: packages.isActive,
      status: grants.status,
      expiresAt: grants.expiresAt,
      endMode: grants.endMode,
      downloadLimit: grants.downloadLimit,
      downloadCount: grants.downloadCount,
      metadataUpdatedAt: packages.metadataUpdatedAt,
      grantUpdatedAt: grants.updatedAt,
      metadataStamp: sql<string | null>`${packages.metadataUpdatedAt}::text`,
      versions: sql<MetadataVersionRow[] | null>`case when ${grants.id} is not null and not ${isKnown} then (
        select coalesce(json_agg(json_build_object(
          'version', v.version, 'normalizedVersion', v.normalized_version, 'commit', v.commit,
          'releasedAt', extract(epoch from v.released_at) * 1000,
          'time', to_char(v.released_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'),
          'composerJson', v.composer_json, 'distSha1', v.dist_sha1) order by v.released_at desc, v.version), '[]'::json)
        from ${packageVersions} v where v.package_id = ${packages.id} and v.kind = ${placeholder.kind}::text
      ) end`,
    })
    .from(customers)
    .innerJoin(users, eq(users.id, customers.sellerId))
    .leftJoin(platformSubscriptions, eq(platformSubscriptions.userId, customers.sellerId))
    .leftJoin(
      packages,
      and(eq(packages.ownerId, customers.sellerId), eq(packages.name, placeholder.packageName), isOnHost),
    )
    .leftJoin(grants, and(eq(grants.customerId, customers.id), eq(grants.packageId, packages.id)))
    .where(eq(customers.tokenHash, placeholder.tokenHash))
    .limit(1)
    .prepare('composer_metadata');
}

const metadataStatements = new WeakMap<Database, ReturnType<typeof buildMetadataStatement>>();

/**
 * p2 file: the token's grant of the package and the package's versions of one kind, newest first. Versions are
 * only read when a grant exists and the caller does not already hold them, so an unlicensed name costs an index
 * lookup and a repeated request only the grant.
 */
export async function findMetadataAccess(
  db: Database,
  tokenHash: string,
  seller: SellerSelector | undefined,
  packageName: string,
  kind: 'tag' | 'branch',
  known: KnownVersions | undefined,
): Promise<MetadataAccess | undefined> {
  let statement = metadataStatements.get(db);
  if (!statement) {
    statement = buildMetadataStatement(db);
    metadataStatements.set(db, statement);
  }
  const [row] = await statement.execute({
    tokenHash,
    sellerSlug: seller?.slug ?? null,
    packageName,
    kind,
    knownPackageId: known?.packageId ?? null,
    knownStamp: known?.stamp ?? null,
  });
  if (!row) return undefined;
  const hasGrant = row.grantId !== null && row.packageId !== null;
  return {
    customerId: row.customerId,
    isOnHost: row.isOnHost,
    seller: {
      userType: row.sellerUserType,
      subscription:
        row.sellerStatus === null
          ? undefined
          : {
              status: row.sellerStatus,
              trialEndsAt: row.sellerTrialEndsAt,
              currentPeriodEnd: row.sellerPeriodEnd,
              cancelAtPeriodEnd: row.sellerCancelAtPeriodEnd ?? false,
              accessEndedAt: row.sellerAccessEndedAt,
              updatedAt: row.sellerSubscriptionUpdatedAt!,
            },
    },
    grant: hasGrant
      ? {
          grantId: row.grantId!,
          packageId: row.packageId!,
          packageName: row.packageName!,
          packageIsActive: row.packageIsActive!,
          status: row.status!,
          expiresAt: row.expiresAt,
          endMode: row.endMode!,
          downloadLimit: row.downloadLimit,
          downloadCount: row.downloadCount!,
          metadataUpdatedAt: row.metadataUpdatedAt!,
          grantUpdatedAt: row.grantUpdatedAt!,
        }
      : undefined,
    metadataStamp: row.metadataStamp ?? undefined,
    versions: row.versions?.map((version) => ({ ...version, releasedAt: Number(version.releasedAt) })),
  };
}

export type DistAccess = TokenMatch & { grant?: GrantRow; versions: DistVersionRow[] };

/**
 * Dist download: the token's grant of the package and either the one version asked for, or (for `latest`) every
 * tag, from which the service picks the newest the grant allows.
 */
export async function findDistAccess(
  db: Database,
  tokenHash: string,
  seller: SellerSelector | undefined,
  packageName: string,
  version: { exact: string } | 'latest-tag',
): Promise<DistAccess | undefined> {
  const versionFilter = version === 'latest-tag' ? sql`v.kind = 'tag'` : sql`v.version = ${version.exact}`;
  const result = await db.execute(sql`
    select c.id as customer_id, ${onHost(seller)} as is_on_host, ${grantColumns}, ${sellerColumns},
      case when g.id is not null then (
        select coalesce(json_agg(json_build_object(
          'id', v.id, 'version', v.version, 'normalizedVersion', v.normalized_version, 'kind', v.kind,
          'commit', v.commit, 'releasedAt', extract(epoch from v.released_at) * 1000,
          'distKey', v.dist_key, 'distSha1', v.dist_sha1, 'distSize', v.dist_size)), '[]'::json)
        from ${packageVersions} v where v.package_id = p.id and ${versionFilter}
      ) end as versions
    ${grantOfPackageJoins(seller, packageName)}
    where c.token_hash = ${tokenHash}
    limit 1`);
  const [row] = rowsOf<
    RawGrantColumns & RawSellerColumns & { customer_id: string; is_on_host: boolean; versions: unknown }
  >(result);
  if (!row) return undefined;
  return {
    customerId: row.customer_id,
    isOnHost: row.is_on_host,
    seller: sellerFromRow(row),
    grant: grantFromRow(row),
    versions: ((row.versions as DistVersionRow[] | null) ?? []).map((entry) => ({
      ...entry,
      releasedAt: Number(entry.releasedAt),
    })),
  };
}

/** The whole version row, for the rare download whose zip must be built first. */
export async function findVersionRow(db: Database, versionId: string) {
  const [row] = await db.select().from(packageVersions).where(eq(packageVersions.id, versionId)).limit(1);
  return row;
}
