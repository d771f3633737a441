import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import { customers, grants, packages, webhookAnnouncements } from '../../db/schema/index.js';

// The reads behind the events other domains announce, and the once-only claim of an announcement (the
// webhook_announcements table, which this domain alone writes). A package's owner and name (packages domain) and a
// license with its holder's address (licenses domain) are read here, never written: an event names what it is about.

type Reader = Pick<Database, 'select'>;

export type GrantRow = typeof grants.$inferSelect;
export type LicenseOfEvent = { grant: GrantRow; email: string; packageName: string; sellerId: string };

export async function findPackageOwnerAndName(
  db: Reader,
  packageId: string,
): Promise<{ ownerId: string; name: string } | undefined> {
  return firstRow(
    db.select({ ownerId: packages.ownerId, name: packages.name }).from(packages).where(eq(packages.id, packageId)),
  );
}

/** The license with its holder's address, its package's name and its seller. */
export async function findLicenseOfEvent(db: Reader, grantId: string): Promise<LicenseOfEvent | undefined> {
  return firstRow(
    db
      .select({ grant: grants, email: customers.email, packageName: packages.name, sellerId: packages.ownerId })
      .from(grants)
      .innerJoin(customers, eq(customers.id, grants.customerId))
      .innerJoin(packages, eq(packages.id, grants.packageId))
      .where(eq(grants.id, grantId)),
  );
}

/** Records an announcement by its key: true the first time, false when it was made before. */
export async function claimAnnouncement(
  db: Pick<Database, 'insert'>,
  key: string,
  announcedAt: Date,
): Promise<boolean> {
  return hasAnyRow(db.insert(webhookAnnouncements).values({ key, announcedAt }).onConflictDoNothing().returning());
}
