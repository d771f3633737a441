import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, totalOf, writtenRow } from '../../db/result-rows.js';
import { packages, packageVersions } from '../../db/schema/index.js';
import type { PackageRow } from './package-mirror.js';

// The queries of the packages and package_versions tables that the package services' rules stand on.

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

type PackageVersionRow = typeof packageVersions.$inferSelect;
export type NewPackageRow = typeof packages.$inferInsert;

/** The owner's package row, or undefined for an unknown id and for another seller's package alike. */
export async function findOwnedPackage(
  db: Pick<Queryable, 'select'>,
  ownerId: string,
  packageId: string,
): Promise<PackageRow | undefined> {
  return firstRow(
    db
      .select()
      .from(packages)
      .where(and(eq(packages.id, packageId), eq(packages.ownerId, ownerId)))
      .limit(1),
  );
}

export async function countPackageVersions(db: Pick<Queryable, 'select'>, packageId: string): Promise<number> {
  return totalOf(db.select({ total: count() }).from(packageVersions).where(eq(packageVersions.packageId, packageId)));
}

/** The owner's package rows, newest first, each with its number of versions. */
export function selectPackagesOfOwnerWithVersionCounts(
  db: Pick<Queryable, 'select'>,
  ownerId: string,
): Promise<{ pkg: PackageRow; versionCount: number }[]> {
  return db
    .select({ pkg: packages, versionCount: count(packageVersions.id) })
    .from(packages)
    .leftJoin(packageVersions, eq(packageVersions.packageId, packages.id))
    .where(eq(packages.ownerId, ownerId))
    .groupBy(packages.id)
    .orderBy(desc(packages.createdAt), desc(packages.id));
}

/** The package's version rows, tags newest release first, then branches by name. */
export function selectPackageVersions(db: Pick<Queryable, 'select'>, packageId: string): Promise<PackageVersionRow[]> {
  return db
    .select()
    .from(packageVersions)
    .where(eq(packageVersions.packageId, packageId))
    .orderBy(asc(packageVersions.kind), desc(packageVersions.releasedAt), asc(packageVersions.version));
}

export async function countPackagesOfOwner(db: Pick<Queryable, 'select'>, ownerId: string): Promise<number> {
  return totalOf(db.select({ total: count() }).from(packages).where(eq(packages.ownerId, ownerId)));
}

/** The id of the owner's package of that name, if any. */
export async function findPackageIdByName(
  db: Pick<Queryable, 'select'>,
  ownerId: string,
  name: string,
): Promise<string | undefined> {
  const [taken] = await db
    .select({ id: packages.id })
    .from(packages)
    .where(and(eq(packages.ownerId, ownerId), eq(packages.name, name)))
    .limit(1);
  return taken?.id;
}

/** The name of the owner's package made from that code-host repository, if any. */
export async function findPackageNameOfRepository(
  db: Pick<Queryable, 'select'>,
  ownerId: string,
  codeHost: PackageRow['codeHost'],
  repositoryId: string,
): Promise<string | undefined> {
  const [existing] = await db
    .select({ name: packages.name })
    .from(packages)
    .where(and(eq(packages.ownerId, ownerId), eq(packages.codeHost, codeHost), eq(packages.repositoryId, repositoryId)))
    .limit(1);
  return existing?.name;
}

/** Holds the owner's package-limit lock until the transaction ends: creations at the limit wait for each other. */
export async function lockPackageLimitOf(tx: Pick<Database, 'execute'>, ownerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`package-limit:${ownerId}`}))`);
}

export async function insertPackageRow(db: Pick<Queryable, 'insert'>, values: NewPackageRow): Promise<PackageRow> {
  return writtenRow(db.insert(packages).values(values).returning(), 'The new package');
}

/** Writes the given columns of a package; answers the row as written, or undefined when it is gone. */
export async function updatePackageRow(
  db: Pick<Queryable, 'update'>,
  packageId: string,
  values: Partial<NewPackageRow>,
): Promise<PackageRow | undefined> {
  return firstRow(db.update(packages).set(values).where(eq(packages.id, packageId)).returning());
}

/** A package a push webhook may be for, with its hook's encrypted secret. */
export type WebhookCandidate = { id: string; ownerId: string; secret: string | null };

/** The packages of that code-host repository that have a push webhook's secret. */
export function selectWebhookPackagesOfRepository(
  db: Pick<Queryable, 'select'>,
  codeHost: PackageRow['codeHost'],
  repositoryId: string,
): Promise<WebhookCandidate[]> {
  return db
    .select({ id: packages.id, ownerId: packages.ownerId, secret: packages.webhookSecretEncrypted })
    .from(packages)
    .where(
      and(
        eq(packages.codeHost, codeHost),
        eq(packages.repositoryId, repositoryId),
        isNotNull(packages.webhookSecretEncrypted),
      ),
    );
}

/** The owner's GitHub packages that sync through one of these connections, or through none. */
export function selectGithubPackagesOnConnectionsOrNone(
  db: Pick<Queryable, 'select'>,
  ownerId: string,
  connectionIds: string[],
): Promise<Pick<PackageRow, 'id' | 'name' | 'repositoryId' | 'repositoryFullName' | 'connectionId' | 'webhookId'>[]> {
  return db
    .select({
      id: packages.id,
      name: packages.name,
      repositoryId: packages.repositoryId,
      repositoryFullName: packages.repositoryFullName,
      connectionId: packages.connectionId,
      webhookId: packages.webhookId,
    })
    .from(packages)
    .where(
      and(
        eq(packages.ownerId, ownerId),
        eq(packages.codeHost, 'github'),
        connectionIds.length > 0
          ? or(isNull(packages.connectionId), inArray(packages.connectionId, connectionIds))
          : isNull(packages.connectionId),
      ),
    );
}

/** Moves the packages to the connection, without their per-repository webhook and with no access problem. */
export async function movePackagesToConnection(
  db: Pick<Queryable, 'update'>,
  packageIds: string[],
  connectionId: string,
): Promise<void> {
  await db
    .update(packages)
    .set({
      connectionId,
      webhookId: null,
      webhookSecretEncrypted: null,
      accessProblem: null,
      accessProblemSince: null,
      accessProblemNotifiedAt: null,
    })
    .where(inArray(packages.id, packageIds));
}

/** The packages read through one of the connections from one of the repositories. */
export function selectPackagesOfConnectionRepositories(
  db: Pick<Queryable, 'select'>,
  connectionIds: string[],
  repositoryIds: string[],
): Promise<{ id: string; ownerId: string }[]> {
  return db
    .select({ id: packages.id, ownerId: packages.ownerId })
    .from(packages)
    .where(and(inArray(packages.connectionId, connectionIds), inArray(packages.repositoryId, repositoryIds)));
}

/** Writes the repository's new full name on the packages read through one of the connections from it. */
export async function renameRepositoryOfPackages(
  db: Pick<Queryable, 'update'>,
  connectionIds: string[],
  repositoryId: string,
  fullName: string,
  now: Date,
): Promise<void> {
  await db
    .update(packages)
    .set({ repositoryFullName: fullName, updatedAt: now })
    .where(and(inArray(packages.connectionId, connectionIds), eq(packages.repositoryId, repositoryId)));
}

/** Sets (or with null clears) the access problem of the connections' packages of these repositories. */
export async function setAccessProblemOfConnectionRepositories(
  db: Pick<Queryable, 'update'>,
  connectionIds: string[],
  repositoryIds: string[],
  problem: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(packages)
    .set({
      accessProblem: problem,
      accessProblemSince: problem ? now : null,
      accessProblemNotifiedAt: null,
      updatedAt: now,
    })
    .where(and(inArray(packages.connectionId, connectionIds), inArray(packages.repositoryId, repositoryIds)));
}
