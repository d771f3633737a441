import { z } from 'zod';

// A seller's account on the Settings page (issue 35 item 5): the data export, closing the account and what closing
// keeps. GET /api/account/export (and API v1's GET /export) answer the archive; POST /api/account/close closes.

/** The export's lists: data.json holds each under this key, and the archive one `{name}.csv` per list. */
export const ACCOUNT_EXPORT_LISTS = [
  'packages',
  'versions',
  'licenses',
  'holders',
  'prices',
  'sales',
  'downloads',
  'audit-events',
  'webhook-endpoints',
] as const;

/** How long sales records are kept after an account closes: what tax law asks (e.g. 10 years in Germany). */
export const SALES_RECORD_RETENTION_YEARS = 10;

export const accountStatusSchema = z.object({
  slug: z.string(),
  /** When the account was closed; null while it is open. */
  closedAt: z.iso.datetime().nullable(),
  /** When its personal data is erased (the export is available until then); null while it is open. */
  eraseAfter: z.iso.datetime().nullable(),
  /** How long a closed account's personal data is kept (ACCOUNT_RETENTION_DAYS). */
  retentionDays: z.number().int(),
});
export type AccountStatus = z.infer<typeof accountStatusSchema>;

/** Closing asks the owner to type the account's slug, so that it is never one click away. */
export const closeAccountInput = z.object({ confirmSlug: z.string().trim().min(1).max(100) });
export type CloseAccountInput = z.infer<typeof closeAccountInput>;
