import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, rowsOf } from '../../db/result-rows.js';
import { packageAbandonments, packageVersions, securityAdvisories, versionYanks } from '../../db/schema/index.js';

// The Composer repository's queries of a package's versions. A token's view is one statement (access-view.repository.ts)
// and a package's versions another; the warm path keeps both (access-cache.ts) and answers from them without a round
// trip. The dist door decides from the same view and keeps a package's archives (one more statement), so a warm
// download's only round trip is its count.

export type MetadataVersionRow = {
  version: string;
  normalizedVersion: string;
  commit: string;
  /**
   * Epoch milliseconds of the version's publication (when Packgate first saw the tag at this commit): what a frozen
   * grant compares with its end. Never the commit's dates, which anyone can set.
   */
  publishedAt: number;
  /** The publication time in ISO 8601 UTC, as Composer shows it (README, "The p2 `time` field"). */
  time: string;
  composerJson: Record<string, unknown>;
  distSha1: string | null;
};

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
          'publishedAt', extract(epoch from v.published_at) * 1000,
          'time', to_char(v.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'),
          'composerJson', v.composer_json, 'distSha1', v.dist_sha1) order by v.published_at desc, v.version), '[]'::json)
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
    versions: (MetadataVersionRow & { publishedAt: number | string })[];
    abandoned: { replacement: string | null } | null;
    advisories: PackageLifecycleFacts['advisories'];
    yanked: PackageLifecycleFacts['yanked'];
  }>(result);
  return {
    versions: (row?.versions ?? []).map((version) => ({ ...version, publishedAt: Number(version.publishedAt) })),
    lifecycle: {
      abandoned: row?.abandoned ? (row.abandoned.replacement ?? true) : undefined,
      advisories: row?.advisories ?? [],
      yanked: row?.yanked ?? [],
    },
  };
}

/** A version as the dist door needs it: which archive to stream, and whether `latest` may pick it. */
export type DistVersionRow = {
  id: string;
  version: string;
  normalizedVersion: string;
  kind: 'tag' | 'branch';
  commit: string;
  /** Epoch milliseconds of the version's publication: what a frozen grant compares with its end. */
  publishedAt: number;
  distKey: string | null;
  distSha1: string | null;
  distSize: number | null;
  /** Yanked by the seller: `latest` never picks it; an exact version stays downloadable for lock files naming it. */
  isYanked: boolean;
};

/** Every version of a package, tags and branches, with its archive, in one statement. */
export async function findDistVersions(db: Database, packageId: string): Promise<DistVersionRow[]> {
  const result = await db.execute(sql`
    select v.id, v.version, v.normalized_version as "normalizedVersion", v.kind, v.commit,
      extract(epoch from v.published_at) * 1000 as "publishedAt", v.dist_key as "distKey", v.dist_sha1 as "distSha1",
      v.dist_size as "distSize",
      exists (select 1 from ${versionYanks} y where y.package_id = v.package_id and y.version = v.version)
        as "isYanked"
    from ${packageVersions} v where v.package_id = ${packageId}`);
  return rowsOf<DistVersionRow & { publishedAt: number | string }>(result).map((row) => ({
    ...row,
    publishedAt: Number(row.publishedAt),
  }));
}

/** The whole version row, for the rare download whose zip must be built first. */
export async function findVersionRow(db: Database, versionId: string) {
  return firstRow(db.select().from(packageVersions).where(eq(packageVersions.id, versionId)).limit(1));
}
