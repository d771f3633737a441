import { asc, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, totalOf } from '../../db/result-rows.js';
import { packages, packageVersions, platformSubscriptions, users } from '../../db/schema/index.js';

// The admin area's platform-wide reads. The admin is a channel: it reads across every seller's data (accounts with
// their subscriptions, packages with their versions' dists) and writes none of these tables; its changes go through
// the owning domains' services.

type Reader = Pick<Database, 'select'>;

export type AccountRow = typeof users.$inferSelect;
export type PlatformSubscriptionRow = typeof platformSubscriptions.$inferSelect;

/** Every account with its platform subscription, newest first. */
export function selectAccountsWithSubscriptions(
  db: Reader,
): Promise<{ user: AccountRow; subscription: PlatformSubscriptionRow | null }[]> {
  return db
    .select({ user: users, subscription: platformSubscriptions })
    .from(users)
    .leftJoin(platformSubscriptions, eq(platformSubscriptions.userId, users.id))
    .orderBy(desc(users.createdAt), asc(users.email));
}

export async function countAccounts(db: Reader): Promise<number> {
  return totalOf(db.select({ total: count() }).from(users));
}

export async function countActivePackages(db: Reader): Promise<number> {
  return totalOf(db.select({ total: count() }).from(packages).where(eq(packages.isActive, true)));
}

/** Every package with each of its versions' dist (one row per version; a package without one has a row of nulls). */
export function selectPackagesWithDists(db: Reader) {
  return db
    .select({
      id: packages.id,
      name: packages.name,
      isActive: packages.isActive,
      accessProblem: packages.accessProblem,
      versionId: packageVersions.id,
      distKey: packageVersions.distKey,
      distSha1: packageVersions.distSha1,
      distSize: packageVersions.distSize,
      distBuiltAt: packageVersions.distBuiltAt,
    })
    .from(packages)
    .leftJoin(packageVersions, eq(packageVersions.packageId, packages.id))
    .orderBy(asc(packages.name), asc(packages.id));
}

export type PackageTarget = { id: string; name: string };

export function selectActivePackageTargets(db: Reader): Promise<PackageTarget[]> {
  return db
    .select({ id: packages.id, name: packages.name })
    .from(packages)
    .where(eq(packages.isActive, true))
    .orderBy(asc(packages.name), asc(packages.id));
}

export async function findPackageTarget(db: Reader, packageId: string): Promise<PackageTarget | undefined> {
  return firstRow(
    db.select({ id: packages.id, name: packages.name }).from(packages).where(eq(packages.id, packageId)).limit(1),
  );
}
