import {
  type ComposerSecurityAdvisory,
  type ComposerVersion,
  composerPaths,
  isComposerPackageName,
  type PackagesJson,
} from '../../../contract/composer.js';
import type { MetadataVersionRow, PackageLifecycleFacts } from './composer.repository.js';

// What the Composer repository says, as data: packages.json, the p2 files with their dist URLs and security
// advisories, and the names it reads and writes. Pure functions of their arguments (no clock, no database, no
// context): the services (composer-metadata.service.ts, composer-dist.service.ts) decide, these render.

/** Composer shows a warning for the versions a constraint names; ours concern the whole package. */
export const NOTICE_VERSIONS = '*';

/** What packages.json says at a moment: the names the token may install, and the notices for its holder. */
export type PackagesJsonOutcome = { available: readonly string[]; warnings: string[] };

export function renderPackagesJson({ available, warnings }: PackagesJsonOutcome): PackagesJson {
  return {
    packages: [],
    'metadata-url': composerPaths.metadataUrl,
    'available-packages': available,
    'notify-batch': composerPaths.notifyBatch,
    'security-advisories': { metadata: true },
    ...(warnings.length > 0 ? { warnings: warnings.map((message) => ({ message, versions: NOTICE_VERSIONS })) } : {}),
  };
}

/** `vendor/package.json` → tags, `vendor/package~dev.json` → branches; undefined for any other file name. */
export function parseMetadataFile(
  vendor: string,
  file: string,
): { packageName: string; kind: 'tag' | 'branch' } | undefined {
  const isDev = file.endsWith('~dev.json');
  if (!isDev && !file.endsWith('.json')) return undefined;
  const packageName = `${vendor}/${file.slice(0, -(isDev ? '~dev.json' : '.json').length)}`.toLowerCase();
  if (!isComposerPackageName(packageName)) return undefined;
  return { packageName, kind: isDev ? 'branch' : 'tag' };
}

// Keys of a composer.json that mean something only in a root project or that we replace: `repositories` and
// `config` could name the seller's private infrastructure, and `source` would point at the private repository.
const OMITTED_MANIFEST_KEYS = new Set([
  'name',
  'version',
  'version_normalized',
  'source',
  'dist',
  'time',
  'notification-url',
  'repositories',
  'config',
  'minimum-stability',
  'prefer-stable',
]);

export function distUrl(baseUrl: string, packageName: string, version: string): string {
  return `${baseUrl}${composerPaths.downloadPrefix}/${packageName}/${encodeURIComponent(version)}`;
}

/** The name a downloaded zip is saved under: `vendor-package-1.2.0.zip`. */
export function distFileName(packageName: string, version: string): string {
  return `${packageName.replace('/', '-')}-${version.replace(/[^A-Za-z0-9._-]+/g, '-')}.zip`;
}

export function toComposerVersion(baseUrl: string, packageName: string, row: MetadataVersionRow): ComposerVersion {
  const manifest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row.composerJson)) {
    if (!OMITTED_MANIFEST_KEYS.has(key)) manifest[key] = value;
  }
  return {
    name: packageName,
    version: row.version,
    version_normalized: row.normalizedVersion,
    ...manifest,
    // Dist only, never source: the package's git repository is private to the seller.
    dist: {
      type: 'zip',
      url: distUrl(baseUrl, packageName, row.version),
      reference: row.commit,
      shasum: row.distSha1 ?? '',
    },
    time: row.time,
  };
}

/** At most this many yanked versions are explained in one p2 file, the most recent first. */
export const YANK_NOTICE_LIMIT = 5;

export function yankedVersionMessage(packageName: string, yank: { version: string; reason: string }): string {
  const reason = ['.', '!', '?'].some((end) => yank.reason.endsWith(end)) ? yank.reason : `${yank.reason}.`;
  return `${packageName} ${yank.version} was yanked by the seller: ${reason} Composer will not install it again; a composer.lock that names it still installs it until you run composer update ${packageName}.`;
}

export function toComposerAdvisory(
  advisory: PackageLifecycleFacts['advisories'][number],
  packageName: string,
  baseUrl: string,
  sourceName: string,
): ComposerSecurityAdvisory {
  return {
    advisoryId: advisory.advisoryKey,
    packageName,
    remoteId: advisory.advisoryKey,
    title: advisory.title,
    link: advisory.link,
    cve: advisory.cve,
    affectedVersions: advisory.affectedVersions,
    source: sourceName,
    sources: [{ name: sourceName, remoteId: advisory.advisoryKey }],
    reportedAt: advisory.reportedAt,
    composerRepository: baseUrl,
    severity: advisory.severity,
  };
}

/**
 * The versions a p2 file lists. A frozen grant (`cutoff`, ms) keeps the releases published before it ended (when
 * Packgate first saw the tag, never a commit date, which anyone can set). Branches are not releases: a branch name
 * always means its newest commit, so serving one would hand out the very updates the license no longer covers. Tags
 * are fixed content.
 */
export function shownVersions(
  versions: MetadataVersionRow[],
  kind: 'tag' | 'branch',
  cutoff: number | undefined,
): MetadataVersionRow[] {
  if (cutoff === undefined) return versions;
  return kind === 'branch' ? [] : versions.filter((version) => version.publishedAt < cutoff);
}

/**
 * A p2 file: the versions, marked abandoned when the seller says so; the tag file (the one Composer's audit reads)
 * also carries the package's advisories, says which versions were yanked, and why, and what the holder should know
 * of their licenses for the package (`notices`). Composer prints a p2 file's `warnings` (HttpDownloader::
 * outputWarnings) when it reads the file, which it does only in projects that use the package; each warning's
 * `versions` is a constraint on Composer's own version, so `*` reaches every client.
 */
export function renderMetadata(input: {
  baseUrl: string;
  packageName: string;
  kind: 'tag' | 'branch';
  versions: MetadataVersionRow[];
  lifecycle: PackageLifecycleFacts;
  sourceName: string;
  notices?: string[];
}): string {
  const { baseUrl, packageName, lifecycle } = input;
  const abandoned = lifecycle.abandoned === undefined ? {} : { abandoned: lifecycle.abandoned };
  const body: Record<string, unknown> = {
    packages: {
      [packageName]: input.versions.map((version) => ({
        ...toComposerVersion(baseUrl, packageName, version),
        ...abandoned,
      })),
    },
  };
  if (input.kind === 'tag') {
    body['security-advisories'] = lifecycle.advisories.map((advisory) =>
      toComposerAdvisory(advisory, packageName, baseUrl, input.sourceName),
    );
    const messages = [
      ...(input.notices ?? []),
      ...lifecycle.yanked.slice(0, YANK_NOTICE_LIMIT).map((yank) => yankedVersionMessage(packageName, yank)),
    ];
    if (messages.length > 0) body.warnings = messages.map((message) => ({ message, versions: NOTICE_VERSIONS }));
  }
  return JSON.stringify(body);
}
