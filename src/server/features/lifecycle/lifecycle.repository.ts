import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, writtenRow } from '../../db/result-rows.js';
import {
  advisoryNotices,
  customers,
  grantLastDownloads,
  grants,
  packageAbandonments,
  packages,
  packageVersions,
  securityAdvisories,
  versionYanks,
} from '../../db/schema/index.js';

// The queries of a package's life after release (security_advisories, advisory_notices, package_abandonments and
// version_yanks, which this domain alone writes). A package's versions, holders and last downloads (packages and
// licenses domains) are read here, never written; the one write outside is the package's metadata time, which every
// lifecycle change moves so that Composer's revalidation sees it.

type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export type AdvisoryRow = typeof securityAdvisories.$inferSelect;
export type NewAdvisoryRow = typeof securityAdvisories.$inferInsert;
export type PackageRow = typeof packages.$inferSelect;

/**
 * Moves the package's metadata Last-Modified to `now`, and at least one whole second past what any holder was last
 * served (the later of the package's metadata time and their grant's): HTTP dates have seconds.
 */
export async function touchPackageMetadata(db: Pick<Database, 'execute'>, packageId: string, now: Date): Promise<void> {
  await db.execute(sql`
    update ${packages}
    set metadata_updated_at = greatest(
      ${now.toISOString()}::timestamptz,
      metadata_updated_at + interval '1 second',
      (select max(g.updated_at) from ${grants} g where g.package_id = ${packageId}) + interval '1 second')
    where id = ${packageId}`);
}

export async function findAbandonment(db: Queryable, packageId: string) {
  return firstRow(db.select().from(packageAbandonments).where(eq(packageAbandonments.packageId, packageId)));
}

/** The package's advisories, newest first, each with how many holders were told of it. */
export function selectAdvisoriesWithNoticeCounts(db: Queryable, packageId: string) {
  return db
    .select({
      advisory: securityAdvisories,
      notified: sql<number>`(select count(*)::int from ${advisoryNotices} n where n.advisory_id = ${securityAdvisories.id})`,
    })
    .from(securityAdvisories)
    .where(eq(securityAdvisories.packageId, packageId))
    .orderBy(desc(securityAdvisories.createdAt), desc(securityAdvisories.id));
}

/** The package's tagged versions, newest release first, each with its yank if it has one. */
export function selectTagsWithYanks(db: Queryable, packageId: string) {
  return db
    .select({ version: packageVersions, yank: versionYanks })
    .from(packageVersions)
    .leftJoin(
      versionYanks,
      and(eq(versionYanks.packageId, packageVersions.packageId), eq(versionYanks.version, packageVersions.version)),
    )
    .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.kind, 'tag')))
    .orderBy(desc(packageVersions.releasedAt), asc(packageVersions.version));
}

export async function insertAdvisory(db: Queryable, values: NewAdvisoryRow): Promise<AdvisoryRow> {
  return writtenRow(db.insert(securityAdvisories).values(values).returning(), 'The new security advisory');
}

export async function findAdvisoryByKey(db: Queryable, packageId: string, advisoryKey: string) {
  return firstRow(
    db
      .select({ id: securityAdvisories.id, withdrawnAt: securityAdvisories.withdrawnAt })
      .from(securityAdvisories)
      .where(and(eq(securityAdvisories.packageId, packageId), eq(securityAdvisories.advisoryKey, advisoryKey))),
  );
}

export async function markAdvisoryWithdrawn(db: Queryable, advisoryId: string, now: Date): Promise<void> {
  await db.update(securityAdvisories).set({ withdrawnAt: now }).where(eq(securityAdvisories.id, advisoryId));
}

/** Marks the package abandoned, or changes the replacement of its mark. */
export async function upsertAbandonment(
  db: Queryable,
  packageId: string,
  replacement: string | null,
  now: Date,
): Promise<void> {
  await db
    .insert(packageAbandonments)
    .values({ packageId, replacement, abandonedAt: now })
    .onConflictDoUpdate({ target: packageAbandonments.packageId, set: { replacement } });
}

/** Removes the abandoned mark: true when there was one. */
export async function deleteAbandonment(db: Queryable, packageId: string): Promise<boolean> {
  return hasAnyRow(
    db
      .delete(packageAbandonments)
      .where(eq(packageAbandonments.packageId, packageId))
      .returning({ packageId: packageAbandonments.packageId }),
  );
}

export async function findVersionKind(db: Queryable, packageId: string, version: string) {
  return firstRow(
    db
      .select({ version: packageVersions.version, kind: packageVersions.kind })
      .from(packageVersions)
      .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.version, version))),
  );
}

/** Yanks a version, or changes the reason of its yank. */
export async function upsertYank(
  db: Queryable,
  packageId: string,
  version: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .insert(versionYanks)
    .values({ packageId, version, reason, yankedAt: now })
    .onConflictDoUpdate({ target: [versionYanks.packageId, versionYanks.version], set: { reason } });
}

/** Takes a yank back: true when the version was yanked. */
export async function deleteYank(db: Queryable, packageId: string, version: string): Promise<boolean> {
  return hasAnyRow(
    db
      .delete(versionYanks)
      .where(and(eq(versionYanks.packageId, packageId), eq(versionYanks.version, version)))
      .returning({ version: versionYanks.version }),
  );
}

/** A published (not withdrawn) advisory with its package. */
export async function findLiveAdvisoryWithPackage(
  db: Queryable,
  advisoryId: string,
): Promise<{ advisory: AdvisoryRow; pkg: PackageRow } | undefined> {
  return firstRow(
    db
      .select({ advisory: securityAdvisories, pkg: packages })
      .from(securityAdvisories)
      .innerJoin(packages, eq(packages.id, securityAdvisories.packageId))
      .where(and(eq(securityAdvisories.id, advisoryId), isNull(securityAdvisories.withdrawnAt))),
  );
}

/** Each active license holder's last downloaded version of the package (with its normalized form when known). */
export function selectInstalledVersionsOfPackage(db: Queryable, packageId: string) {
  return db
    .select({
      customerId: customers.id,
      email: customers.email,
      version: grantLastDownloads.version,
      normalizedVersion: packageVersions.normalizedVersion,
    })
    .from(grantLastDownloads)
    .innerJoin(grants, and(eq(grants.id, grantLastDownloads.grantId), eq(grants.status, 'active')))
    .innerJoin(customers, eq(customers.id, grantLastDownloads.customerId))
    .leftJoin(
      packageVersions,
      and(
        eq(packageVersions.packageId, grantLastDownloads.packageId),
        eq(packageVersions.version, grantLastDownloads.version),
      ),
    )
    .where(eq(grantLastDownloads.packageId, packageId));
}

/** Takes the notice of an advisory to a holder: true the first time, false when it was taken before. */
export async function claimAdvisoryNotice(
  db: Queryable,
  advisoryId: string,
  customerId: string,
  installedVersion: string,
): Promise<boolean> {
  return hasAnyRow(
    db
      .insert(advisoryNotices)
      .values({ advisoryId, customerId, installedVersion })
      .onConflictDoNothing()
      .returning({ customerId: advisoryNotices.customerId }),
  );
}
