import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { and, asc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
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
  type users,
  webhookEndpoints,
} from '../../db/schema/index.js';
import { TarWriter } from '../../lib/tar.js';
import { csvRow } from './csv.js';

// A seller's data to take away (issue 35 item 5): one .tar.gz holding data.json (the account and every list) and a
// CSV per list. A tarball, not a zip: the tar writer the backups use (lib/tar.ts) and Node's gzip make it without a
// new dependency, and it streams, where a zip needs its central directory written after every entry.
//
// Each list is read in pages of PAGE_ROWS by its id (keyset, so a page costs the same however far in) and written
// straight to files in a temporary folder: memory holds one page, whatever the seller's size. The tar entries need
// their sizes before their bytes, which the files give; the answer then streams them and the folder is removed.
// Only the seller's rows are read: every list filters by the seller's id (packages through their owner, versions
// through their package, licenses and downloads through their holder). Secrets never leave: holders' token hashes,
// webhook signing secrets, sealed buyer tokens and code-host tokens are not among the columns.

const PAGE_ROWS = 1000;
export const EXPORT_FORMAT = 'packgate-export';
export const EXPORT_FORMAT_VERSION = 1;

type Cursor = string | number;
type Row = Record<string, unknown> & { id: Cursor };

type ExportList = {
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

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

type Account = typeof users.$inferSelect;

function presentAccount(account: Account) {
  return {
    id: account.id,
    slug: account.slug,
    email: account.email,
    displayName: account.displayName,
    githubUsername: account.githubUsername,
    createdAt: account.createdAt.toISOString(),
    closedAt: account.closedAt?.toISOString() ?? null,
    eraseAfter: account.eraseAfter?.toISOString() ?? null,
  };
}

/** JSON of a row: dates as ISO 8601 text, everything else as it is. */
const rowJson = (row: Row) =>
  JSON.stringify(row, function (this: Record<string, unknown>, key) {
    const value = this[key];
    return value instanceof Date ? value.toISOString() : value;
  });

export type AccountExport = { filename: string; stream: Readable };

/** The archive's file name: `packgate-export-{slug}-{YYYY-MM-DD}.tar.gz`. */
export function exportFilename(slug: string, now: Date): string {
  return `packgate-export-${slug}-${now.toISOString().slice(0, 10)}.tar.gz`;
}

/**
 * Reads the seller's lists into a temporary folder, then answers the .tar.gz as a stream that removes the folder when
 * it ends or is abandoned. A failure while reading answers as an error (nothing was sent yet).
 */
export async function buildAccountExport(ctx: AppContext, account: Account): Promise<AccountExport> {
  const now = ctx.clock.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'packgate-export-'));
  const files: string[] = [];
  try {
    const json = createWriteStream(path.join(dir, 'data.json'));
    await write(
      json,
      `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_FORMAT_VERSION},"exportedAt":${JSON.stringify(now.toISOString())},"account":${JSON.stringify(presentAccount(account))}`,
    );
    for (const list of EXPORT_LISTS) {
      const csvName = `${list.name}.csv`;
      const csv = createWriteStream(path.join(dir, csvName));
      await write(csv, csvRow(list.columns));
      await write(json, `,${JSON.stringify(list.name)}:[`);
      let cursor: Cursor | undefined;
      let first = true;
      for (;;) {
        const rows = await list.page(ctx.db, account.id, cursor);
        for (const row of rows) {
          await write(csv, csvRow(list.columns.map((column) => row[column])));
          await write(json, `${first ? '' : ','}${rowJson(row)}`);
          first = false;
        }
        if (rows.length < PAGE_ROWS) break;
        cursor = rows[rows.length - 1]!.id;
      }
      await write(json, ']');
      await close(csv);
      files.push(csvName);
    }
    await write(json, '}\n');
    await close(json);
    files.unshift('data.json');
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  const gzip = createGzip();
  const out = new PassThrough();
  gzip.pipe(out);
  // A failure of the writer (or the abandon below) is handled where the writer's promise ends, not thrown again here.
  gzip.on('error', () => undefined);
  const cleanUp = () => void rm(dir, { recursive: true, force: true });
  out.once('end', cleanUp);
  // A client that goes away stops the writer (its wait for 'drain' ends with the error) and frees the folder.
  out.once('close', () => {
    if (!gzip.writableFinished) gzip.destroy(new Error('The export was abandoned'));
    cleanUp();
  });
  const filename = exportFilename(account.slug, now);
  const top = filename.slice(0, -'.tar.gz'.length);
  void (async () => {
    const tar = new TarWriter(gzip, now);
    for (const file of files) {
      const full = path.join(dir, file);
      await tar.add(`${top}/${file}`, (await stat(full)).size, createReadStream(full));
    }
    await tar.finish();
  })().catch((error: unknown) => {
    if (!out.destroyed) ctx.log.warn({ err: error }, 'a data export stopped before its end');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return { filename, stream: out };
}
