import { and, asc, count, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import { packages, packageVersions } from '../../db/schema/index.js';
import type { PackageRow } from './package-mirror.js';

// The queries of a package's sync and its dist zips: the package's sync facts and access problem, its published
// versions and the zips recorded on them (the packages and package_versions tables, which this domain alone writes).

type Queryable = Pick<Database, 'select' | 'selectDistinct' | 'insert' | 'update' | 'delete'>;

export type VersionRow = typeof packageVersions.$inferSelect;
export type NewVersionRow = typeof packageVersions.$inferInsert;
export type DistColumns = Pick<VersionRow, 'distKey' | 'distSha1' | 'distSize' | 'distBuiltAt'>;

export async function findPackageRow(db: Queryable, packageId: string): Promise<PackageRow | undefined> {
  return firstRow(db.select().from(packages).where(eq(packages.id, packageId)).limit(1));
}

export async function findPackageNameAndHost(
  db: Queryable,
  packageId: string,
): Promise<Pick<PackageRow, 'name' | 'codeHost'> | undefined> {
  return firstRow(
    db
      .select({ name: packages.name, codeHost: packages.codeHost })
      .from(packages)
      .where(eq(packages.id, packageId))
      .limit(1),
  );
}

/** How many packages each code host serves. */
export function countPackagesByCodeHost(db: Queryable): Promise<{ codeHost: PackageRow['codeHost']; count: number }[]> {
  return db.select({ codeHost: packages.codeHost, count: count() }).from(packages).groupBy(packages.codeHost);
}

/** Every package (of one owner, when given), oldest first. */
export function selectPackagesInCreationOrder(db: Queryable, ownerId?: string): Promise<PackageRow[]> {
  return db
    .select()
    .from(packages)
    .where(ownerId ? eq(packages.ownerId, ownerId) : undefined)
    .orderBy(asc(packages.createdAt), asc(packages.id));
}

/** Renames a package that has never synced; undefined once it has (or when it is gone). */
export async function renameUnsyncedPackage(
  db: Queryable,
  packageId: string,
  name: string,
  now: Date,
): Promise<PackageRow | undefined> {
  return firstRow(
    db
      .update(packages)
      .set({ name, updatedAt: now, metadataUpdatedAt: now })
      .where(and(eq(packages.id, packageId), isNull(packages.lastSyncedAt)))
      .returning(),
  );
}

/** Changes the owner's package; undefined when the owner has no package of that id. */
export async function updateOwnedPackage(
  db: Queryable,
  ownerId: string,
  packageId: string,
  changes: Partial<typeof packages.$inferInsert>,
): Promise<PackageRow | undefined> {
  return firstRow(
    db
      .update(packages)
      .set(changes)
      .where(and(eq(packages.id, packageId), eq(packages.ownerId, ownerId)))
      .returning(),
  );
}

/** Deletes the owner's package (its versions and licenses go with it): false when there was none. */
export async function deleteOwnedPackage(db: Queryable, ownerId: string, packageId: string): Promise<boolean> {
  return hasAnyRow(
    db
      .delete(packages)
      .where(and(eq(packages.id, packageId), eq(packages.ownerId, ownerId)))
      .returning({ id: packages.id }),
  );
}

/** Marks the package's problem as told (the connection's own e-mail covers it), unless it was. */
export async function markAccessProblemNotified(db: Queryable, packageId: string, now: Date): Promise<void> {
  await db
    .update(packages)
    .set({ accessProblemNotifiedAt: now })
    .where(and(eq(packages.id, packageId), isNull(packages.accessProblemNotifiedAt)));
}

/** Clears the package's access problem, if it has one. */
export async function clearAccessProblemOf(db: Queryable, packageId: string): Promise<void> {
  await db
    .update(packages)
    .set({ accessProblem: null, accessProblemSince: null, accessProblemNotifiedAt: null })
    .where(and(eq(packages.id, packageId), isNotNull(packages.accessProblem)));
}

/** Claims the notice of the package's current problem: what to tell, or undefined when it was told or is over. */
export async function claimAccessProblemNotice(
  db: Queryable,
  packageId: string,
  now: Date,
): Promise<{ ownerId: string; name: string; problem: string | null } | undefined> {
  return firstRow(
    db
      .update(packages)
      .set({ accessProblemNotifiedAt: now })
      .where(
        and(eq(packages.id, packageId), isNotNull(packages.accessProblem), isNull(packages.accessProblemNotifiedAt)),
      )
      .returning({ ownerId: packages.ownerId, name: packages.name, problem: packages.accessProblem }),
  );
}

export async function deleteVersionRow(db: Queryable, versionId: string): Promise<void> {
  await db.delete(packageVersions).where(eq(packageVersions.id, versionId));
}

export async function insertVersionRow(db: Queryable, values: NewVersionRow): Promise<void> {
  await db.insert(packageVersions).values(values);
}

export async function updateVersionRow(
  db: Queryable,
  versionId: string,
  values: Partial<NewVersionRow>,
): Promise<void> {
  await db.update(packageVersions).set(values).where(eq(packageVersions.id, versionId));
}

const ofCommit = (packageId: string, commit: string) =>
  and(eq(packageVersions.packageId, packageId), eq(packageVersions.commit, commit));

/** The zips' shasums the commit's versions were published with (null where none was built). */
export async function selectDistShasOfCommit(
  db: Queryable,
  packageId: string,
  commit: string,
): Promise<(string | null)[]> {
  const rows = await db
    .select({ sha1: packageVersions.distSha1 })
    .from(packageVersions)
    .where(ofCommit(packageId, commit));
  return rows.map((row) => row.sha1);
}

/** Records the zip on every version of the commit. */
export async function setDistOfCommit(
  db: Queryable,
  packageId: string,
  commit: string,
  dist: Omit<DistColumns, 'distBuiltAt'> & { distBuiltAt: Date },
): Promise<void> {
  await db.update(packageVersions).set(dist).where(ofCommit(packageId, commit));
}

/** The shasum and size a version of the commit recorded for the zip under `key`. */
export async function findRecordedDist(
  db: Queryable,
  packageId: string,
  commit: string,
  key: string,
): Promise<{ sha1: string | null; size: number | null } | undefined> {
  return firstRow(
    db
      .select({ sha1: packageVersions.distSha1, size: packageVersions.distSize })
      .from(packageVersions)
      .where(
        and(
          eq(packageVersions.packageId, packageId),
          eq(packageVersions.commit, commit),
          eq(packageVersions.distKey, key),
          isNotNull(packageVersions.distSha1),
        ),
      )
      .limit(1),
  );
}

/** The commits of the package's versions that have no zip recorded. */
export function selectCommitsWithoutDist(db: Queryable, packageId: string): Promise<{ commit: string }[]> {
  return db
    .selectDistinct({ commit: packageVersions.commit })
    .from(packageVersions)
    .where(
      and(
        eq(packageVersions.packageId, packageId),
        or(isNull(packageVersions.distKey), isNull(packageVersions.distSha1), isNull(packageVersions.distSize)),
      ),
    );
}

/** Whether a version of the package still points at the zip under `key`. */
export async function isDistKeyUsed(db: Queryable, packageId: string, key: string): Promise<boolean> {
  return hasAnyRow(
    db
      .select({ id: packageVersions.id })
      .from(packageVersions)
      .where(and(eq(packageVersions.packageId, packageId), eq(packageVersions.distKey, key)))
      .limit(1),
  );
}

/** Every version forgets its zip. */
export async function forgetAllDists(db: Queryable): Promise<void> {
  await db
    .update(packageVersions)
    .set({ distKey: null, distSha1: null, distSize: null, distBuiltAt: null })
    .where(isNotNull(packageVersions.distKey));
}
