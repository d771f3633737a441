import { z } from 'zod';

/**
 * GET /api/analytics/dashboard, the four stat cards of Management (spec seller-app §2, §3).
 * - activePackages: the seller's packages that are active.
 * - totalDownloads: every recorded dist download of the seller's packages.
 * - monthlyUsage: those downloads in the current calendar month (UTC).
 * - totalUsers: license holders with at least one grant that is active and not expired.
 */
export const dashboardAnalytics = z.object({
  activePackages: z.number().int(),
  totalDownloads: z.number().int(),
  monthlyUsage: z.number().int(),
  totalUsers: z.number().int(),
});
export type DashboardAnalytics = z.infer<typeof dashboardAnalytics>;

// The seller's Analytics page (issue 14): downloads over time, version adoption, top holders, holders who have not
// updated, and the sharing signal. The same service answers /api/analytics/* (session) and /api/v1/analytics/*
// (API token with analytics:read), so both show the same numbers. Days are UTC calendar days.

/** Periods a chart or table covers: the last N UTC days, today included. */
export const ANALYTICS_PERIODS = ['30', '90', '365'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const ANALYTICS_BUCKETS = ['day', 'week'] as const;
export type AnalyticsBucket = (typeof ANALYTICS_BUCKETS)[number];
/** Choices of "not updated in N months" offered on the page; the API takes any whole number in range. */
export const STALE_MONTH_CHOICES = [3, 6, 12] as const;
export const STALE_MONTHS_MAX = 36;
/** Distinct client networks of one token in one day from which the sharing signal shows it. */
export const SHARING_MIN_NETWORKS_DEFAULT = 3;
export const TOP_HOLDERS_DEFAULT = 10;
export const TOP_HOLDERS_MAX = 100;
/** Rows of a listed table (holders not updated, sharing days) answered by default, and at most (a CSV export). */
export const LIST_ROWS_DEFAULT = 100;
export const LIST_ROWS_MAX = 1000;

const period = z.enum(ANALYTICS_PERIODS).default('30').describe('The last 30, 90 or 365 days (UTC), today included.');
const packageId = z.uuid().optional().describe('Only this package.');
const holder = z.email().max(254).optional().describe('Only this license holder (e-mail).');
const day = z.string().describe('A UTC calendar day, YYYY-MM-DD.');
const listLimit = z.coerce
  .number()
  .int()
  .min(1)
  .max(LIST_ROWS_MAX)
  .default(LIST_ROWS_DEFAULT)
  .describe('At most this many rows, in the order described.');

export const downloadSeriesQuery = z.object({
  period,
  bucket: z.enum(ANALYTICS_BUCKETS).default('day').describe('One point per day, or per week (weeks start on Monday).'),
  packageId,
  holder,
});
export type DownloadSeriesQuery = z.infer<typeof downloadSeriesQuery>;

export const downloadSeries = z.object({
  period: z.enum(ANALYTICS_PERIODS),
  bucket: z.enum(ANALYTICS_BUCKETS),
  from: day,
  to: day,
  packageId: z.string().nullable(),
  holder: z.string().nullable(),
  /** Downloads in the whole period: the sum of the points. */
  total: z.number().int(),
  /** Every bucket of the period, zeros included; a week's `start` is its Monday, or the period's first day. */
  points: z.array(z.object({ start: day, downloads: z.number().int() })),
});
export type DownloadSeries = z.infer<typeof downloadSeries>;

export const versionAdoptionQuery = z.object({ packageId });
export type VersionAdoptionQuery = z.infer<typeof versionAdoptionQuery>;

/** Per package, how many holders downloaded each version last; with `packageId`, also who they are. */
export const versionAdoption = z.object({
  packages: z.array(
    z.object({
      packageId: z.string(),
      packageName: z.string(),
      versions: z.array(
        z.object({
          version: z.string(),
          /** The major line (`1.x`), or the branch (`dev-main`): what "still on 1.x" asks about. */
          line: z.string(),
          holders: z.number().int(),
        }),
      ),
    }),
  ),
  holders: z.array(
    z.object({
      email: z.string(),
      packageId: z.string(),
      packageName: z.string(),
      version: z.string(),
      line: z.string(),
      downloadedAt: z.string(),
    }),
  ),
});
export type VersionAdoption = z.infer<typeof versionAdoption>;

export const topHoldersQuery = z.object({
  period,
  limit: z.coerce.number().int().min(1).max(TOP_HOLDERS_MAX).default(TOP_HOLDERS_DEFAULT),
});
export type TopHoldersQuery = z.infer<typeof topHoldersQuery>;

export const topHolders = z.array(
  z.object({
    email: z.string(),
    /** Downloads in the period, all packages. */
    downloads: z.number().int(),
    /** Packages downloaded in the period. */
    packages: z.number().int(),
    lastDownloadAt: z.string().nullable(),
  }),
);
export type TopHolders = z.infer<typeof topHolders>;

export const staleHoldersQuery = z.object({
  months: z.coerce
    .number()
    .int()
    .min(1)
    .max(STALE_MONTHS_MAX)
    .default(6)
    .describe('Holders whose last download is older than this many months, or who never downloaded.'),
  packageId,
  limit: listLimit,
});
export type StaleHoldersQuery = z.infer<typeof staleHoldersQuery>;

/**
 * Live licenses (active, not expired) whose holder has not downloaded the package since the cut-off: those who never
 * did first, then the longest silent; ties by e-mail and package.
 */
export const staleHolders = z.array(
  z.object({
    email: z.string(),
    packageId: z.string(),
    packageName: z.string(),
    /** The version downloaded last; null when the holder never downloaded. */
    version: z.string().nullable(),
    lastDownloadAt: z.string().nullable(),
    licenseExpiresAt: z.string().nullable(),
  }),
);
export type StaleHolders = z.infer<typeof staleHolders>;

export const sharingSignalQuery = z.object({
  period,
  minNetworks: z.coerce
    .number()
    .int()
    .min(2)
    .max(100)
    .default(SHARING_MIN_NETWORKS_DEFAULT)
    .describe('Show a token on a day it downloaded from at least this many distinct networks.'),
  limit: listLimit,
});
export type SharingSignalQuery = z.infer<typeof sharingSignalQuery>;

/**
 * Days on which one holder's token downloaded from many networks (/24 IPv4, /48 IPv6). A signal, never a block.
 * Latest day first, then the most networks; ties by e-mail.
 */
export const sharingSignal = z.array(
  z.object({
    email: z.string(),
    day,
    networks: z.array(z.string()),
    downloads: z.number().int(),
  }),
);
export type SharingSignal = z.infer<typeof sharingSignal>;

/** The tables a seller can download as CSV: GET /api/analytics/export/{table}.csv with the table's query. */
export const ANALYTICS_EXPORTS = ['downloads', 'versions', 'top-holders', 'stale-holders', 'sharing'] as const;
export type AnalyticsExport = (typeof ANALYTICS_EXPORTS)[number];
export const analyticsExportParams = z.object({ table: z.enum(ANALYTICS_EXPORTS) });
