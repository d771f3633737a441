import { and, asc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
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

/**
 * One list of the export: the chosen columns of the seller's rows of a table (`ofSeller` says which rows are theirs),
 * a page at a time in the order of their id, after the cursor.
 */
function exportList(
  name: string,
  table: PgTable,
  columns: { id: PgColumn } & Record<string, PgColumn>,
  ofSeller: (sellerId: string) => SQL,
): ExportList {
  return {
    name,
    columns: Object.keys(columns),
    page: (db, sellerId, cursor) =>
      db
        .select(columns)
        .from(table)
        .where(and(ofSeller(sellerId), after(columns.id, cursor)))
        .orderBy(asc(columns.id))
        .limit(PAGE_ROWS) as Promise<Row[]>,
  };
}

/** The lists of an export, in the order data.json holds them; each CSV is `{name}.csv`. */
export const EXPORT_LISTS: readonly ExportList[] = [
  exportList('packages', packages, packageColumns, (sellerId) => eq(packages.ownerId, sellerId)),
  exportList('versions', packageVersions, versionColumns, (sellerId) =>
    inArray(packageVersions.packageId, sellerPackageIds(sellerId)),
  ),
  exportList('licenses', grants, licenseColumns, (sellerId) => inArray(grants.customerId, sellerCustomerIds(sellerId))),
  exportList('holders', customers, holderColumns, (sellerId) => eq(customers.sellerId, sellerId)),
  exportList('prices', packagePrices, priceColumns, (sellerId) => eq(packagePrices.sellerId, sellerId)),
  exportList('sales', sales, saleColumns, (sellerId) => eq(sales.sellerId, sellerId)),
  exportList('downloads', downloads, downloadColumns, (sellerId) =>
    inArray(
      downloads.grantId,
      sql`(select ${grants.id} from ${grants} where ${grants.customerId} in ${sellerCustomerIds(sellerId)})`,
    ),
  ),
  exportList('audit-events', auditEvents, auditColumns, (sellerId) => eq(auditEvents.userId, sellerId)),
  exportList('webhook-endpoints', webhookEndpoints, webhookColumns, (sellerId) =>
    eq(webhookEndpoints.sellerId, sellerId),
  ),
];
