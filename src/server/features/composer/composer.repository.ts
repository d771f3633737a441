import { eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  customers,
  grants,
  packageAbandonments,
  packages,
  packageVersions,
  platformSubscriptions,
  securityAdvisories,
  users,
  versionYanks,
} from '../../db/schema/index.js';
import type { SellerSelector } from '../../http/hosts.js';
import type { GrantFacts } from '../licenses/grant-rules.js';
import type { SellerSubscriptionFacts } from '../subscriptions/license-holder-grace-rules.js';

// The Composer repository's queries. A token's view (the license holder, their seller and the seller's subscription,
// every grant with its package) is one statement, and a package's versions another; the warm path keeps both
// (access-cache.ts) and answers from them without a round trip. The dist door reads its own statement every time:
// the download is counted in the database anyway.

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

/** Everything the rules need to decide any request of one token, as of the moment it was read. */
export type TokenView = {
  customerId: string;
  sellerId: string;
  sellerSlug: string;
  seller: SellerSubscriptionFacts;
  /** Grants of packages of the token's own seller, by package name, in name order. */
  grants: Map<string, GrantRow>;
};

type RawViewGrant = Omit<GrantRow, 'expiresAt' | 'metadataUpdatedAt' | 'grantUpdatedAt'> & {
  expiresAt: number | string | null;
  metadataUpdatedAt: number | string;
  grantUpdatedAt: number | string;
};

/**
 * Everything one token may see, in one statement: the license holder, their seller (slug, type, subscription) and
 * every grant of a package of that seller, with the package's state. Undefined: unknown token. The host is not
 * part of the question, so the answer serves every host the token is used on.
 */
export async function findTokenView(db: Database, tokenHash: string): Promise<TokenView | undefined> {
  const result = await db.execute(sql`
    select c.id as customer_id, c.seller_id, u.slug as seller_slug, ${sellerColumns},
      (
        select coalesce(json_agg(json_build_object(
          'grantId', g.id, 'packageId', p.id, 'packageName', p.name, 'packageIsActive', p.is_active,
          'status', g.status, 'expiresAt', extract(epoch from g.expires_at) * 1000, 'endMode', g.end_mode,
          'downloadLimit', g.download_limit, 'downloadCount', g.download_count,
          'metadataUpdatedAt', extract(epoch from p.metadata_updated_at) * 1000,
          'grantUpdatedAt', extract(epoch from g.updated_at) * 1000) order by p.name), '[]'::json)
        from ${grants} g join ${packages} p on p.id = g.package_id and p.owner_id = c.seller_id
        where g.customer_id = c.id
      ) as grants
    from ${customers} c join ${users} u on u.id = c.seller_id
    left join ${platformSubscriptions} ps on ps.user_id = c.seller_id
    where c.token_hash = ${tokenHash}`);
  const [row] = rowsOf<
    RawSellerColumns & { customer_id: string; seller_id: string; seller_slug: string; grants: RawViewGrant[] }
  >(result);
  if (!row) return undefined;
  const viewGrants = new Map<string, GrantRow>();
  for (const grant of row.grants) {
    viewGrants.set(grant.packageName, {
      ...grant,
      expiresAt: grant.expiresAt === null ? null : new Date(Number(grant.expiresAt)),
      metadataUpdatedAt: new Date(Number(grant.metadataUpdatedAt)),
      grantUpdatedAt: new Date(Number(grant.grantUpdatedAt)),
    });
  }
  return {
    customerId: row.customer_id,
    sellerId: row.seller_id,
    sellerSlug: row.seller_slug,
    seller: sellerFromRow(row),
    grants: viewGrants,
  };
}

/** What the seller said of a package after its release (features/lifecycle): served with its metadata. */
export type PackageLifecycleFacts = {
  /** The replacement's name, `true` when abandoned without one, undefined when not abandoned. */
  abandoned: string | true | undefined;
  /** Advisories not withdrawn, newest first. */
  advisories: {
    advisoryKey: string;
    title: string;
    affectedVersions: string;
    severity: string;
    cve: string | null;
    link: string | null;
    /** `2026-11-20 00:00:00` in UTC. */
    reportedAt: string;
  }[];
  /** Yanked tags, most recent first: they are left out of the versions and explained to the holder. */
  yanked: { version: string; reason: string }[];
};

export type MetadataSnapshot = { versions: MetadataVersionRow[]; lifecycle: PackageLifecycleFacts };

/**
 * A package's versions of one kind, newest first, as the p2 file lists them (yanked tags left out), with its
 * lifecycle (abandoned, advisories, yanks), in one statement.
 */
export async function findMetadataVersions(
  db: Database,
  packageId: string,
  kind: 'tag' | 'branch',
): Promise<MetadataSnapshot> {
  const result = await db.execute(sql`
    select
      (select coalesce(json_agg(json_build_object(
          'version', v.version, 'normalizedVersion', v.normalized_version, 'commit', v.commit,
          'releasedAt', extract(epoch from v.released_at) * 1000,
          'time', to_char(v.released_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'),
          'composerJson', v.composer_json, 'distSha1', v.dist_sha1) order by v.released_at desc, v.version), '[]'::json)
        from ${packageVersions} v
        where v.package_id = ${packageId} and v.kind = ${kind}
          and not exists (select 1 from ${versionYanks} y where y.package_id = v.package_id and y.version = v.version)
      ) as versions,
      (select json_build_object('replacement', a.replacement) from ${packageAbandonments} a
        where a.package_id = ${packageId}) as abandoned,
      (select coalesce(json_agg(json_build_object(
          'advisoryKey', s.advisory_key, 'title', s.title, 'affectedVersions', s.affected_versions,
          'severity', s.severity, 'cve', s.cve, 'link', s.link,
          'reportedAt', to_char(s.reported_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS'))
          order by s.created_at desc, s.id), '[]'::json)
        from ${securityAdvisories} s where s.package_id = ${packageId} and s.withdrawn_at is null
      ) as advisories,
      (select coalesce(json_agg(json_build_object('version', y.version, 'reason', y.reason)
          order by y.yanked_at desc, y.version), '[]'::json)
        from ${versionYanks} y where y.package_id = ${packageId}
      ) as yanked`);
  const [row] = rowsOf<{
    versions: (MetadataVersionRow & { releasedAt: number | string })[];
    abandoned: { replacement: string | null } | null;
    advisories: PackageLifecycleFacts['advisories'];
    yanked: PackageLifecycleFacts['yanked'];
  }>(result);
  return {
    versions: (row?.versions ?? []).map((version) => ({ ...version, releasedAt: Number(version.releasedAt) })),
    lifecycle: {
      abandoned: row?.abandoned ? (row.abandoned.replacement ?? true) : undefined,
      advisories: row?.advisories ?? [],
      yanked: row?.yanked ?? [],
    },
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
  // `latest` never picks a yanked tag; an exact version stays downloadable for lock files that name it.
  const versionFilter =
    version === 'latest-tag'
      ? sql`v.kind = 'tag' and not exists (select 1 from ${versionYanks} y where y.package_id = v.package_id and y.version = v.version)`
      : sql`v.version = ${version.exact}`;
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
