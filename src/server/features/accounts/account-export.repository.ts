import { and, asc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  auditEvents,
  customers,
  downloads,
  grants,
  packagePrices,
  packages,
  packageVersions,
  sales,
  webhookEndpoints,
} from '../../db/schema/index.js';

// The queries of a seller's data export (account-export.ts writes the archive): each list's columns and its page. An
// export reads every domain's tables of one seller and writes none; only the seller's rows are read (packages through
// their owner, versions through their package, licenses and downloads through their holder), and secrets are not
// among the columns (holders' token hashes, webhook signing secrets, sealed buyer tokens, code-host tokens).

/** Rows a page holds: memory holds one page, whatever the seller's size. */
export const PAGE_ROWS = 1000;

export type Cursor = string | number;
export type Row = Record<string, unknown> & { id: Cursor };

export type ExportList = {
  /** The list's key in data.json and its CSV's name. */
  name: string;
  columns: readonly string[];
  page(db: Database, sellerId: string, after: Cursor | undefined): Promise<Row[]>;
};

const after = (column: SQL.Aliased | Parameters<typeof gt>[0], cursor: Cursor | undefined) =>
  cursor === undefined ? undefined : gt(column as Parameters<typeof gt>[0], cursor);

const sellerPackageIds = (sellerId: string) =>
  sql`(select ${packages.id} from ${packages} where ${packages.ownerId} = ${sellerId})`;
const sellerCustomerIds = (sellerId: string) =>
  sql`(select ${customers.id} from ${customers} where ${customers.sellerId} = ${sellerId})`;

const packageColumns = {
  id: packages.id,
  name: packages.name,
  description: packages.description,
  codeHost: packages.codeHost,
  repository: packages.repositoryFullName,
  isActive: packages.isActive,
  syncStatus: packages.syncStatus,
  lastSyncedAt: packages.lastSyncedAt,
  createdAt: packages.createdAt,
};
const versionColumns = {
  id: packageVersions.id,
  packageId: packageVersions.packageId,
  version: packageVersions.version,
  normalizedVersion: packageVersions.normalizedVersion,
  kind: packageVersions.kind,
  reference: packageVersions.reference,
  commit: packageVersions.commit,
  releasedAt: packageVersions.releasedAt,
  publishedAt: packageVersions.publishedAt,
  distSha1: packageVersions.distSha1,
};
const licenseColumns = {
  id: grants.id,
  holderId: grants.customerId,
  packageId: grants.packageId,
  kind: grants.kind,
  status: grants.status,
  expiresAt: grants.expiresAt,
  endMode: grants.endMode,
  downloadLimit: grants.downloadLimit,
  downloadCount: grants.downloadCount,
  lastUsedAt: grants.lastUsedAt,
  note: grants.note,
  createdAt: grants.createdAt,
  revokedAt: grants.revokedAt,
};
const holderColumns = {
  id: customers.id,
  email: customers.email,
  tokenIssuedAt: customers.tokenIssuedAt,
  createdAt: customers.createdAt,
};
const priceColumns = {
  id: packagePrices.id,
  packageId: packagePrices.packageId,
  name: packagePrices.name,
  description: packagePrices.description,
  pricingType: packagePrices.pricingType,
  interval: packagePrices.interval,
  updateMonths: packagePrices.updateMonths,
  trialDays: packagePrices.trialDays,
  priceCents: packagePrices.priceCents,
  currency: packagePrices.currency,
  isActive: packagePrices.isActive,
  createdAt: packagePrices.createdAt,
};
const saleColumns = {
  id: sales.id,
  packageId: sales.packageId,
  priceId: sales.priceId,
  kind: sales.kind,
  status: sales.status,
  isTest: sales.isTest,
  pricingType: sales.pricingType,
  tierName: sales.tierName,
  buyerEmail: sales.customerEmail,
  holderId: sales.customerId,
  licenseId: sales.grantId,
  amountCents: sales.amountCents,
  feeCents: sales.feeCents,
  currency: sales.currency,
  invoiceId: sales.invoiceId,
  paymentIntentId: sales.paymentIntentId,
  subscriptionId: sales.subscriptionId,
  createdAt: sales.createdAt,
  paidAt: sales.paidAt,
  endedAt: sales.endedAt,
};
const downloadColumns = {
  id: downloads.id,
  licenseId: downloads.grantId,
  packageId: downloads.packageId,
  version: downloads.version,
  downloadedAt: downloads.downloadedAt,
  clientNetwork: downloads.clientNetwork,
};
const auditColumns = {
  id: auditEvents.id,
  createdAt: auditEvents.createdAt,
  action: auditEvents.action,
  actorType: auditEvents.actorType,
  actor: auditEvents.actorLabel,
  actorToken: auditEvents.actorTokenMasked,
  targetType: auditEvents.targetType,
  targetId: auditEvents.targetId,
  details: auditEvents.details,
};
const webhookColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  events: webhookEndpoints.events,
  isEnabled: webhookEndpoints.isEnabled,
  disabledReason: webhookEndpoints.disabledReason,
  disabledAt: webhookEndpoints.disabledAt,
  createdAt: webhookEndpoints.createdAt,
};

/** The lists of an export, in the order data.json holds them; each CSV is `{name}.csv`. */
export const EXPORT_LISTS: readonly ExportList[] = [
  {
    name: 'packages',
    columns: Object.keys(packageColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(packageColumns)
        .from(packages)
        .where(and(eq(packages.ownerId, sellerId), after(packages.id, cursor)))
        .orderBy(asc(packages.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'versions',
    columns: Object.keys(versionColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(versionColumns)
        .from(packageVersions)
        .where(and(inArray(packageVersions.packageId, sellerPackageIds(sellerId)), after(packageVersions.id, cursor)))
        .orderBy(asc(packageVersions.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'licenses',
    columns: Object.keys(licenseColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(licenseColumns)
        .from(grants)
        .where(and(inArray(grants.customerId, sellerCustomerIds(sellerId)), after(grants.id, cursor)))
        .orderBy(asc(grants.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'holders',
    columns: Object.keys(holderColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(holderColumns)
        .from(customers)
        .where(and(eq(customers.sellerId, sellerId), after(customers.id, cursor)))
        .orderBy(asc(customers.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'prices',
    columns: Object.keys(priceColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(priceColumns)
        .from(packagePrices)
        .where(and(eq(packagePrices.sellerId, sellerId), after(packagePrices.id, cursor)))
        .orderBy(asc(packagePrices.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'sales',
    columns: Object.keys(saleColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(saleColumns)
        .from(sales)
        .where(and(eq(sales.sellerId, sellerId), after(sales.id, cursor)))
        .orderBy(asc(sales.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'downloads',
    columns: Object.keys(downloadColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(downloadColumns)
        .from(downloads)
        .where(
          and(
            inArray(
              downloads.grantId,
              sql`(select ${grants.id} from ${grants} where ${grants.customerId} in ${sellerCustomerIds(sellerId)})`,
            ),
            after(downloads.id, cursor),
          ),
        )
        .orderBy(asc(downloads.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'audit-events',
    columns: Object.keys(auditColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(auditColumns)
        .from(auditEvents)
        .where(and(eq(auditEvents.userId, sellerId), after(auditEvents.id, cursor)))
        .orderBy(asc(auditEvents.id))
        .limit(PAGE_ROWS),
  },
  {
    name: 'webhook-endpoints',
    columns: Object.keys(webhookColumns),
    page: (db, sellerId, cursor) =>
      db
        .select(webhookColumns)
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.sellerId, sellerId), after(webhookEndpoints.id, cursor)))
        .orderBy(asc(webhookEndpoints.id))
        .limit(PAGE_ROWS),
  },
];
