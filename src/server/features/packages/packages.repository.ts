import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { packages } from '../../db/schema/index.js';
import type { PackageRow } from './package-mirror.js';

// The queries of the packages table that the package service's rules stand on.

/** The owner's package row, or undefined for an unknown id and for another seller's package alike. */
export async function findOwnedPackage(
  db: Pick<Database, 'select'>,
  ownerId: string,
  packageId: string,
): Promise<PackageRow | undefined> {
  const [row] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, packageId), eq(packages.ownerId, ownerId)))
    .limit(1);
  return row;
}
