import { z } from 'zod';

// What the Composer repository serves to the `composer` client (protocol 2, as read by Composer's
// ComposerRepository and HttpDownloader), and the few limits behind it.

/** A license ending within this many days makes packages.json carry a warning. */
export const LICENSE_ENDING_WARNING_DAYS = 7;

/** Where the repository's files live, relative to its host (root-relative: Composer keeps only scheme and host). */
export const composerPaths = {
  packagesJson: '/packages.json',
  metadataUrl: '/p2/%package%.json',
  notifyBatch: '/api/composer/notify-batch',
  downloadPrefix: '/api/composer/download',
} as const;

/**
 * A message Composer prints as `Warning from {repository url}: {message}` (HttpDownloader::outputWarnings, Composer
 * 2.2+). `versions` is a constraint on Composer's own version; `*` reaches every client.
 */
export type ComposerNotice = { message: string; versions: string };

export type PackagesJson = {
  packages: [];
  'metadata-url': string;
  /** Only what this token may install now: Composer asks for no other p2 file from this repository. */
  'available-packages': readonly string[];
  'notify-batch': string;
  /** Composer 2.4+ reads advisories from each p2 file (`composer audit`, and the audit after update/require). */
  'security-advisories': { metadata: true };
  warnings?: ComposerNotice[];
};

/** One advisory in a p2 file's `security-advisories`, as Composer's PartialSecurityAdvisory::create reads it. */
export type ComposerSecurityAdvisory = {
  advisoryId: string;
  packageName: string;
  remoteId: string;
  title: string;
  link: string | null;
  cve: string | null;
  affectedVersions: string;
  source: string;
  sources: { name: string; remoteId: string }[];
  /** `2026-11-20 00:00:00`, UTC, as Packagist writes it. */
  reportedAt: string;
  composerRepository: string;
  severity: string;
};

export type ComposerDist = { type: 'zip'; url: string; reference: string; shasum: string };

/** One version in a p2 file: the reference's composer.json plus what the repository knows about it. */
export type ComposerVersion = Record<string, unknown> & {
  name: string;
  version: string;
  version_normalized: string;
  dist: ComposerDist;
  time: string;
};

export type P2File = { packages: Record<string, ComposerVersion[]>; warnings?: ComposerNotice[] };

/** Errors answered on Composer endpoints: the API's shape, plus `warnings` so that Composer prints the message. */
export type ComposerErrorBody = {
  error: string;
  message: string;
  suggestion?: string;
  status: number;
  warnings?: ComposerNotice[];
  /** The request's X-Request-Id, as in every error body. */
  requestId?: string;
};

/** What Composer posts to notify-batch after an install (InstallationManager::notifyInstalls). */
export const notifyBatchInput = z.object({
  downloads: z
    .array(z.object({ name: z.string().max(200), version: z.string().max(200) }).loose())
    .max(1000)
    .default([]),
});
export type NotifyBatchInput = z.infer<typeof notifyBatchInput>;

/**
 * Composer's package-name rule (ValidatingArrayLoader::hasPackageNamingError, lower case): `vendor/package`, parts of
 * letters and digits joined by one `_`, `.` or `-`, and in the package part also by `--`. Composer writes it as
 * `[a-z0-9](?:[_.-]?[a-z0-9]++)*+`, safe only because PCRE's `++` is possessive; here every separator is required
 * between two runs, so a name has one way to match and a hostile one fails in linear time. Test names with
 * isComposerPackageName, which bounds the length first.
 */
export const COMPOSER_PACKAGE_NAME = /^[a-z0-9]+(?:[_.-][a-z0-9]+)*\/[a-z0-9]+(?:(?:[_.]|--?)[a-z0-9]+)*$/;

/** Longest package name we accept: Composer sets none, real names are far shorter. */
export const COMPOSER_PACKAGE_NAME_MAX_LENGTH = 200;

/** Whether a name (from a request, a form or a composer.json) is a package name we may serve. */
export function isComposerPackageName(name: string): boolean {
  return name.length <= COMPOSER_PACKAGE_NAME_MAX_LENGTH && COMPOSER_PACKAGE_NAME.test(name);
}
