import type { z } from 'zod';
import {
  type AnalyticsExport,
  type DashboardAnalytics,
  type DownloadSeries,
  type DownloadSeriesQuery,
  downloadSeriesQuery,
  type SharingSignal,
  type SharingSignalQuery,
  type StaleHolders,
  type StaleHoldersQuery,
  sharingSignalQuery,
  staleHoldersQuery,
  type TopHolders,
  type TopHoldersQuery,
  topHoldersQuery,
  type VersionAdoption,
  type VersionAdoptionQuery,
  versionAdoptionQuery,
} from '../../../contract/analytics.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import * as repository from './analytics.repository.js';
import {
  compareVersionsDescending,
  fillBuckets,
  monthsBefore,
  periodDays,
  toCsv,
  utcDay,
  versionLine,
} from './analytics-rules.js';

type Ctx = Pick<AppContext, 'db' | 'clock'>;

/** The first instant of the calendar month (UTC) that `now` falls in, and of the next one. */
export function utcMonthBounds(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
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
  const found = await repository.findSellerPackage(ctx.db, sellerId, packageId);
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
  const rows = await repository.lastDownloadRows(ctx.db, sellerId, ctx.clock.now(), query.packageId);
  const byPackage = new Map<string, { packageId: string; packageName: string; counts: Map<string, number> }>();
  for (const row of rows) {
    const entry = byPackage.get(row.packageId) ?? {
      packageId: row.packageId,
      packageName: row.packageName,
      counts: new Map<string, number>(),
    };
    entry.counts.set(row.version, (entry.counts.get(row.version) ?? 0) + 1);
    byPackage.set(row.packageId, entry);
  }
  return {
    packages: [...byPackage.values()].map((entry) => ({
      packageId: entry.packageId,
      packageName: entry.packageName,
      versions: [...entry.counts.entries()]
        .sort(([a], [b]) => compareVersionsDescending(a, b))
        .map(([version, holders]) => ({ version, line: versionLine(version), holders })),
    })),
    holders: (query.packageId || options.isEveryHolder ? rows : []).map((row) => ({
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
  const rows = await repository.staleGrantRows(ctx.db, sellerId, now, monthsBefore(now, query.months), query.packageId);
  return rows.map((row) => ({
    ...row,
    lastDownloadAt: row.lastDownloadAt?.toISOString() ?? null,
    licenseExpiresAt: row.licenseExpiresAt?.toISOString() ?? null,
  }));
}

/** Days on which one holder's token downloaded from many networks: shown to the seller, never acted on. */
export async function getSharingSignal(ctx: Ctx, sellerId: string, query: SharingSignalQuery): Promise<SharingSignal> {
  const range = periodDays(ctx.clock.now(), Number(query.period));
  return repository.sharingRows(ctx.db, sellerId, range, query.minNetworks);
}

function parseQuery<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('VALIDATION_FAILED', `Invalid ${issue?.path.join('.') || 'query'}: ${issue?.message}`);
  }
  return parsed.data;
}

/** One analytics table as CSV, with the same query parameters (and so the same rows) as its JSON endpoint. */
export async function exportAnalyticsCsv(
  ctx: Ctx,
  sellerId: string,
  table: AnalyticsExport,
  rawQuery: unknown,
): Promise<{ fileName: string; body: string }> {
  const today = utcDay(ctx.clock.now());
  switch (table) {
    case 'downloads': {
      const series = await getDownloadSeries(ctx, sellerId, parseQuery(downloadSeriesQuery, rawQuery));
      return {
        fileName: `downloads-${series.bucket}-${series.from}-to-${series.to}.csv`,
        body: toCsv(
          [series.bucket === 'day' ? 'day' : 'week_start', 'downloads'],
          series.points.map((point) => [point.start, point.downloads]),
        ),
      };
    }
    case 'versions': {
      const adoption = await getVersionAdoption(ctx, sellerId, parseQuery(versionAdoptionQuery, rawQuery), {
        isEveryHolder: true,
      });
      return {
        fileName: `version-adoption-${today}.csv`,
        body: toCsv(
          ['email', 'package', 'version', 'line', 'downloaded_at'],
          adoption.holders.map((row) => [row.email, row.packageName, row.version, row.line, row.downloadedAt]),
        ),
      };
    }
    case 'top-holders': {
      const query = parseQuery(topHoldersQuery, rawQuery);
      const rows = await getTopHolders(ctx, sellerId, query);
      return {
        fileName: `top-holders-${query.period}-days-${today}.csv`,
        body: toCsv(
          ['email', 'downloads', 'packages', 'last_download_at'],
          rows.map((row) => [row.email, row.downloads, row.packages, row.lastDownloadAt]),
        ),
      };
    }
    case 'stale-holders': {
      const query = parseQuery(staleHoldersQuery, rawQuery);
      const rows = await getStaleHolders(ctx, sellerId, query);
      return {
        fileName: `not-updated-${query.months}-months-${today}.csv`,
        body: toCsv(
          ['email', 'package', 'last_version', 'last_download_at', 'license_expires_at'],
          rows.map((row) => [row.email, row.packageName, row.version, row.lastDownloadAt, row.licenseExpiresAt]),
        ),
      };
    }
    case 'sharing': {
      const query = parseQuery(sharingSignalQuery, rawQuery);
      const rows = await getSharingSignal(ctx, sellerId, query);
      return {
        fileName: `sharing-signal-${query.period}-days-${today}.csv`,
        body: toCsv(
          ['email', 'day', 'networks', 'downloads', 'network_list'],
          rows.map((row) => [row.email, row.day, row.networks.length, row.downloads, row.networks.join(' ')]),
        ),
      };
    }
  }
}
