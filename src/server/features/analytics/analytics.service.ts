import type { z } from 'zod';
import {
  type AnalyticsExport,
  type DashboardAnalytics,
  type DownloadSeries,
  type DownloadSeriesQuery,
  downloadSeries,
  downloadSeriesQuery,
  LIST_ROWS_MAX,
  type SharingSignal,
  type SharingSignalQuery,
  type StaleHolders,
  type StaleHoldersQuery,
  sharingSignal,
  sharingSignalQuery,
  staleHolders,
  staleHoldersQuery,
  type TopHolders,
  type TopHoldersQuery,
  topHolders,
  topHoldersQuery,
  type VersionAdoption,
  type VersionAdoptionQuery,
  versionAdoption,
  versionAdoptionQuery,
} from '../../../contract/analytics.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { addMonths, utcMonthStart } from '../../lib/calendar.js';
import { findOwnedPackageRow } from '../packages/packages.service.js';
import * as repository from './analytics.repository.js';
import {
  type CsvCell,
  compareVersionsDescending,
  fillBuckets,
  monthsBefore,
  periodDays,
  toCsv,
  utcDay,
  versionLine,
} from './analytics-rules.js';

type Ctx = Pick<AppContext, 'db' | 'clock'>;
type VersionCount = VersionAdoption['packages'][number]['versions'][number];

/** The first instant of the calendar month (UTC) that `now` falls in, and of the next one. */
export function utcMonthBounds(now: Date): { start: Date; end: Date } {
  const start = utcMonthStart(now);
  return { start, end: addMonths(start, 1) };
}

/**
 * The Management stat cards (contract/analytics.ts says what each number counts). The download figures come from
 * the same daily rollup as the charts, so the cards and the charts always show the same numbers.
 */
export async function getDashboardAnalytics(ctx: Ctx, sellerId: string): Promise<DashboardAnalytics> {
  const now = ctx.clock.now();
  const month = utcMonthBounds(now);
  const lastDayOfMonth = utcDay(new Date(month.end.getTime() - 1));
  // Independent figures: asked together rather than one after another.
  const [activePackages, totalDownloads, monthlyUsage, totalUsers] = await Promise.all([
    repository.countActivePackages(ctx.db, sellerId),
    repository.sumSellerDownloads(ctx.db, sellerId),
    repository.sumSellerDownloads(ctx.db, sellerId, { from: utcDay(month.start), to: lastDayOfMonth }),
    repository.countLiveHolders(ctx.db, sellerId, now),
  ]);
  return { activePackages, totalDownloads, monthlyUsage, totalUsers };
}

async function requirePackage(ctx: Ctx, sellerId: string, packageId: string) {
  const found = await findOwnedPackageRow(ctx, sellerId, packageId);
  // Another seller's package answers like a missing one.
  if (!found) throw new AppError('NOT_FOUND', 'Package not found.');
  return found;
}

/** Downloads over the period in day or week buckets: all packages, one package, one holder, or both. */
export async function getDownloadSeries(
  ctx: Ctx,
  sellerId: string,
  query: DownloadSeriesQuery,
): Promise<DownloadSeries> {
  const range = periodDays(ctx.clock.now(), Number(query.period));
  if (query.packageId) await requirePackage(ctx, sellerId, query.packageId);
  let counts: Map<string, number>;
  let holder: string | null = null;
  if (query.holder) {
    const customer = await repository.findSellerCustomerByEmail(ctx.db, sellerId, query.holder);
    if (!customer) {
      throw new AppError('NOT_FOUND', `No license holder ${query.holder}.`, {
        suggestion: 'Check the e-mail address; holders are listed under Management, Access Management.',
      });
    }
    holder = customer.email;
    counts = await repository.holderDownloadsByDay(ctx.db, sellerId, customer.id, range, query.packageId);
  } else {
    counts = await repository.packageDownloadsByDay(ctx.db, sellerId, range, query.packageId);
  }
  const points = fillBuckets(counts, range, query.bucket);
  return {
    period: query.period,
    bucket: query.bucket,
    from: range.from,
    to: range.to,
    packageId: query.packageId ?? null,
    holder,
    total: points.reduce((sum, point) => sum + point.downloads, 0),
    points,
  };
}

/**
 * Which version each holder downloaded last, per package, and how many holders are on each. The holders themselves
 * are listed for one package (or all, for the CSV): every license of every package would be a large answer.
 */
export async function getVersionAdoption(
  ctx: Ctx,
  sellerId: string,
  query: VersionAdoptionQuery,
  options: { isEveryHolder?: boolean } = {},
): Promise<VersionAdoption> {
  if (query.packageId) await requirePackage(ctx, sellerId, query.packageId);
  const now = ctx.clock.now();
  const isListingHolders = Boolean(query.packageId) || options.isEveryHolder === true;
  const [counts, rows] = await Promise.all([
    repository.lastVersionCounts(ctx.db, sellerId, now, query.packageId),
    isListingHolders ? repository.lastDownloadRows(ctx.db, sellerId, now, query.packageId) : [],
  ]);
  const byPackage = new Map<string, { packageId: string; packageName: string; versions: VersionCount[] }>();
  for (const row of counts) {
    const entry = byPackage.get(row.packageId) ?? {
      packageId: row.packageId,
      packageName: row.packageName,
      versions: [],
    };
    entry.versions.push({ version: row.version, line: versionLine(row.version), holders: row.holders });
    byPackage.set(row.packageId, entry);
  }
  return {
    packages: [...byPackage.values()].map((entry) => ({
      ...entry,
      versions: entry.versions.sort((a, b) => compareVersionsDescending(a.version, b.version)),
    })),
    holders: rows.map((row) => ({
      email: row.email,
      packageId: row.packageId,
      packageName: row.packageName,
      version: row.version,
      line: versionLine(row.version),
      downloadedAt: row.downloadedAt.toISOString(),
    })),
  };
}

/** The holders with the most downloads in the period. */
export async function getTopHolders(ctx: Ctx, sellerId: string, query: TopHoldersQuery): Promise<TopHolders> {
  const range = periodDays(ctx.clock.now(), Number(query.period));
  const rows = await repository.topHolderRows(ctx.db, sellerId, range, query.limit);
  return rows.map((row) => ({ ...row, lastDownloadAt: row.lastDownloadAt?.toISOString() ?? null }));
}

/** Holders with a live license who have not downloaded the package in `months` months, or never. */
export async function getStaleHolders(ctx: Ctx, sellerId: string, query: StaleHoldersQuery): Promise<StaleHolders> {
  if (query.packageId) await requirePackage(ctx, sellerId, query.packageId);
  const now = ctx.clock.now();
  const cutoff = monthsBefore(now, query.months);
  const rows = await repository.staleGrantRows(ctx.db, sellerId, now, cutoff, query.limit, query.packageId);
  return rows.map((row) => ({
    ...row,
    lastDownloadAt: row.lastDownloadAt?.toISOString() ?? null,
    licenseExpiresAt: row.licenseExpiresAt?.toISOString() ?? null,
  }));
}

/** Days on which one holder's token downloaded from many networks: shown to the seller, never acted on. */
export async function getSharingSignal(ctx: Ctx, sellerId: string, query: SharingSignalQuery): Promise<SharingSignal> {
  const range = periodDays(ctx.clock.now(), Number(query.period));
  return repository.sharingRows(ctx.db, sellerId, range, query.minNetworks, query.limit);
}

type CsvTable = { fileName: string; header: string[]; rows: CsvCell[][] };

/**
 * One table of the seller's analytics: its query and answer (contract/analytics.ts), how to read it, its OpenAPI
 * text and its CSV. The session routes (/api/analytics/{name}), API v1 (/api/v1/analytics/{name}) and the CSV export
 * (/api/analytics/export/{name}) are all made from this list, so the three always answer the same rows.
 */
export type AnalyticsTable<Query extends z.ZodType = z.ZodType, Answer = unknown> = {
  query: Query;
  answer: z.ZodType<Answer>;
  summary: string;
  description: string;
  read(ctx: Ctx, sellerId: string, query: z.infer<Query>): Promise<Answer>;
  /** Extra `meta` of the API v1 envelope. */
  meta?(answer: Answer): Record<string, string>;
  csv(answer: Answer, query: z.infer<Query>, today: string): CsvTable;
};

const table = <Query extends z.ZodType, Answer>(spec: AnalyticsTable<Query, Answer>) =>
  spec as unknown as AnalyticsTable;

export const analyticsTables: Record<AnalyticsExport, AnalyticsTable> = {
  downloads: table({
    query: downloadSeriesQuery,
    answer: downloadSeries,
    summary: 'Downloads over time',
    description:
      'Downloads per day or week (UTC) over the last 30, 90 or 365 days: all packages, one package, one license holder, or both.',
    read: getDownloadSeries,
    meta: (series) => ({ period: `${series.from}/${series.to}` }),
    csv: (series) => ({
      fileName: `downloads-${series.bucket}-${series.from}-to-${series.to}.csv`,
      header: [series.bucket === 'day' ? 'day' : 'week_start', 'downloads'],
      rows: series.points.map((point) => [point.start, point.downloads]),
    }),
  }),
  versions: table({
    query: versionAdoptionQuery,
    answer: versionAdoption,
    summary: 'Version adoption',
    description:
      'For each license that still lets its holder install, the version downloaded last; per package, how many holders are on each version and major line (`1.x`).',
    read: (ctx, sellerId, query) => getVersionAdoption(ctx, sellerId, query),
    csv: (adoption, _query, today) => ({
      fileName: `version-adoption-${today}.csv`,
      header: ['email', 'package', 'version', 'line', 'downloaded_at'],
      rows: adoption.holders.map((row) => [row.email, row.packageName, row.version, row.line, row.downloadedAt]),
    }),
  }),
  'top-holders': table({
    query: topHoldersQuery,
    answer: topHolders,
    summary: 'Top license holders',
    description: 'License holders with the most downloads in the period; ties by e-mail.',
    read: getTopHolders,
    csv: (rows, query, today) => ({
      fileName: `top-holders-${query.period}-days-${today}.csv`,
      header: ['email', 'downloads', 'packages', 'last_download_at'],
      rows: rows.map((row) => [row.email, row.downloads, row.packages, row.lastDownloadAt]),
    }),
  }),
  'stale-holders': table({
    query: staleHoldersQuery,
    answer: staleHolders,
    summary: 'Holders who have not updated',
    description:
      'Live licenses (active, not expired) whose holder has not downloaded the package in the given number of months, or never: those who never did first, then the longest silent.',
    read: getStaleHolders,
    csv: (rows, query, today) => ({
      fileName: `not-updated-${query.months}-months-${today}.csv`,
      header: ['email', 'package', 'last_version', 'last_download_at', 'license_expires_at'],
      rows: rows.map((row) => [row.email, row.packageName, row.version, row.lastDownloadAt, row.licenseExpiresAt]),
    }),
  }),
  sharing: table({
    query: sharingSignalQuery,
    answer: sharingSignal,
    summary: 'Sharing signal',
    description:
      "Days on which one holder's token downloaded from many distinct networks (/24 IPv4, /48 IPv6; addresses are never stored), the latest first. A signal to look at, never a block.",
    read: getSharingSignal,
    csv: (rows, query, today) => ({
      fileName: `sharing-signal-${query.period}-days-${today}.csv`,
      header: ['email', 'day', 'networks', 'downloads', 'network_list'],
      rows: rows.map((row) => [row.email, row.day, row.networks.length, row.downloads, row.networks.join(' ')]),
    }),
  }),
};

/** Reads one table with a raw query, answering 400 VALIDATION_FAILED when it does not parse. */
function parseQuery<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('VALIDATION_FAILED', `Invalid ${issue?.path.join('.') || 'query'}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * One analytics table as CSV, with the same query parameters (and so the same rows) as its JSON endpoint, except
 * that a list without `limit` holds as many rows as a list may (LIST_ROWS_MAX), and version adoption every holder.
 */
export async function exportAnalyticsCsv(
  ctx: Ctx,
  sellerId: string,
  name: AnalyticsExport,
  rawQuery: unknown,
): Promise<{ fileName: string; body: string }> {
  const spec = analyticsTables[name];
  const raw = { limit: name === 'top-holders' ? undefined : LIST_ROWS_MAX, ...(rawQuery as object | undefined) };
  const query = parseQuery(spec.query, raw);
  const answer =
    name === 'versions'
      ? await getVersionAdoption(ctx, sellerId, query as VersionAdoptionQuery, { isEveryHolder: true })
      : await spec.read(ctx, sellerId, query);
  const csv = spec.csv(answer, query, utcDay(ctx.clock.now()));
  return { fileName: csv.fileName, body: toCsv(csv.header, csv.rows) };
}
