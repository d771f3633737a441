import type { Readable } from 'node:stream';
import {
  type ComposerSecurityAdvisory,
  type ComposerVersion,
  composerPaths,
  isComposerPackageName,
  type PackagesJson,
} from '../../../contract/composer.js';
import { discardBody, type ObjectBody } from '../../adapters/storage/object-storage.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { SellerSelector } from '../../http/hosts.js';
import { type ErrorFacts, errorCodes } from '../../lib/app-error.js';
import { newestStable } from '../../lib/composer-versions/version-order.js';
import { sha256Hex } from '../../lib/crypto.js';
import {
  downloadLimitMessage,
  evaluateGrant,
  frozenVersionMessage,
  grantNotice,
  repositoryClosedMessage,
  repositoryGraceNotice,
} from '../licenses/grant-rules.js';
import { recordDownload, recordDownloadAfterAnswer } from '../licenses/grants.service.js';
import { ensureDist } from '../packages/packages.service.js';
import { repositoryStanding } from '../subscriptions/subscriptions.service.js';
import { emitDownloadLimitReached } from '../webhooks/webhook-events.service.js';
import type { RenderedBody, VersionsEntry } from './access-cache.js';
import {
  type DistVersionRow,
  findDistVersions,
  findMetadataVersions,
  findTokenView,
  findVersionRow,
  type GrantRow,
  type MetadataVersionRow,
  type PackageLifecycleFacts,
  type TokenView,
} from './composer.repository.js';
import { jsonBytes } from './composer-responses.js';

// The Composer repository's rules: who the token is, what its grants allow on this host, and what Composer is
// told. Unknown tokens get 401 (Composer then asks for, or reports, credentials); a package the token does not
// license is simply not there (404), whichever seller's it is, so that no host reveals another seller's names.

/** One request to a seller's repository host (or the bare COMPOSER_DOMAIN). */
export type RepositoryRequest = {
  seller: SellerSelector | undefined;
  token: string | undefined;
  /** `acme.composer.localhost:5000`: what `composer config bearer.{host}` needs, for messages. */
  authHost: string;
  /** `http://acme.composer.localhost:5000`: dist URLs sit on the host Composer sends the token to. */
  baseUrl: string;
  /** The client's address (request.ip, TRUST_PROXY-aware): only its /24 or /48 is stored with a download. */
  clientAddress?: string;
  /** sha256 of `token`, when the caller has already computed it (the fast path looks the view up first). */
  tokenHash?: string;
};

export type MetadataResponse =
  | { isNotModified: false; body: RenderedBody; lastModified: Date }
  | { isNotModified: true; lastModified: Date };

/** A zip to send: small ones read whole (a Buffer), larger ones as a stream. */
export type DistDownload = { content: Buffer | Readable; size: number; fileName: string };

const NOTICE_VERSIONS = '*';

/** The request's token, or 401 with WWW-Authenticate so that Composer sends (or asks for) its credential. */
export function requireToken(request: RepositoryRequest): string {
  if (request.token) return request.token;
  throw new AppError('UNAUTHENTICATED', 'This Composer repository needs the token from your license e-mail.', {
    suggestion: `Run: composer config bearer.${request.authHost} <your token>`,
    headers: { 'www-authenticate': 'Basic realm="Packgate"' },
  });
}

function unknownToken(request: RepositoryRequest): AppError {
  return new AppError(
    'UNAUTHENTICATED',
    'This token is not valid for this repository: it may have been replaced by a newer one.',
    {
      suggestion: `Use the token from your latest license e-mail: composer config bearer.${request.authHost} <token>`,
      headers: { 'www-authenticate': 'Basic realm="Packgate"' },
    },
  );
}

/** An unknown or unlicensed package: one plain 404 for both, so that nothing tells them apart. */
const notLicensedMessage = (packageName: string) =>
  `${packageName} was not found in this repository, or your license does not include it.`;

export function notLicensed(packageName: string): AppError {
  return new AppError('NOT_FOUND', notLicensedMessage(packageName));
}

/** notLicensed's facts without the Error: the warm path's quiet 404 spent a quarter of its time capturing a stack. */
export function notLicensedFacts(packageName: string): ErrorFacts {
  return { code: 'NOT_FOUND', ...errorCodes.NOT_FOUND, message: notLicensedMessage(packageName) };
}

/**
 * What the token may see: held by the process while its change feed vouches for it, else read (one statement) and
 * kept. Never a verdict: the callers decide from these facts at the request's time.
 */
async function loadTokenView(ctx: AppContext, request: RepositoryRequest): Promise<TokenView> {
  const tokenHash = request.tokenHash ?? sha256Hex(requireToken(request));
  const cache = ctx.composerAccess;
  const held = cache.findView(tokenHash);
  if (held) return held;
  const ticket = cache.ticket();
  const view = await findTokenView(ctx.db, tokenHash);
  if (!view) throw unknownToken(request);
  cache.keepView(ticket, tokenHash, view);
  return view;
}

/** Whether the request's host belongs to the token's seller; the bare COMPOSER_DOMAIN accepts any seller. */
function isOnHost(view: TokenView, request: RepositoryRequest): boolean {
  return request.seller === undefined || request.seller.slug === view.sellerSlug;
}

/** What packages.json says at `now`: the names the token may install, and the notices for its holder. */
type PackagesJsonOutcome = { available: string[]; warnings: string[] };

function decidePackagesJson(view: TokenView, request: RepositoryRequest, now: Date): PackagesJsonOutcome {
  const available: string[] = [];
  const warnings: string[] = [];
  const standing = repositoryStanding(view.seller, now);
  // A closed repository lists nothing, and says why rather than each license's own state.
  const grants = standing.kind === 'closed' || !isOnHost(view, request) ? [] : [...view.grants.values()];
  if (standing.kind === 'closed') warnings.push(repositoryClosedMessage(standing.endedAt));
  if (standing.kind === 'grace' && grants.length > 0) warnings.push(repositoryGraceNotice(standing.until));
  for (const grant of grants) {
    if (evaluateGrant(grant, now).isAllowed) available.push(grant.packageName);
    const notice = grantNotice(grant, now);
    if (notice) warnings.push(notice);
  }
  return { available, warnings };
}

function renderPackagesJson({ available, warnings }: PackagesJsonOutcome): PackagesJson {
  return {
    packages: [],
    'metadata-url': composerPaths.metadataUrl,
    'available-packages': available,
    'notify-batch': composerPaths.notifyBatch,
    'security-advisories': { metadata: true },
    ...(warnings.length > 0 ? { warnings: warnings.map((message) => ({ message, versions: NOTICE_VERSIONS })) } : {}),
  };
}

/** `packages.json`: the names this token may install now, and what its holder should know about their licenses. */
export async function getPackagesJson(ctx: AppContext, request: RepositoryRequest): Promise<PackagesJson> {
  const view = await loadTokenView(ctx, request);
  return renderPackagesJson(decidePackagesJson(view, request, ctx.clock.now()));
}

/**
 * packages.json of a held view, as bytes (the warm path): decided at the request's time like getPackagesJson, and
 * serialized again only when the decision differs from the one this view last answered.
 */
export function packagesJsonBytes(ctx: AppContext, view: TokenView, request: RepositoryRequest): Buffer {
  const outcome = decidePackagesJson(view, request, ctx.clock.now());
  return ctx.composerAccess.packagesJsonBody(view, outcome.available, outcome.warnings, () =>
    jsonBytes(renderPackagesJson(outcome)),
  );
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

function toComposerVersion(baseUrl: string, packageName: string, row: MetadataVersionRow): ComposerVersion {
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
const YANK_NOTICE_LIMIT = 5;

export function yankedVersionMessage(packageName: string, yank: { version: string; reason: string }): string {
  const reason = ['.', '!', '?'].some((end) => yank.reason.endsWith(end)) ? yank.reason : `${yank.reason}.`;
  return `${packageName} ${yank.version} was yanked by the seller: ${reason} Composer will not install it again; a composer.lock that names it still installs it until you run composer update ${packageName}.`;
}

function toComposerAdvisory(
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
 * A p2 file: the versions, marked abandoned when the seller says so; the tag file (the one Composer's audit reads)
 * also carries the package's advisories and says which versions were yanked, and why.
 */
function renderMetadata(input: {
  baseUrl: string;
  packageName: string;
  kind: 'tag' | 'branch';
  versions: MetadataVersionRow[];
  lifecycle: PackageLifecycleFacts;
  sourceName: string;
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
    if (lifecycle.yanked.length > 0) {
      body.warnings = lifecycle.yanked
        .slice(0, YANK_NOTICE_LIMIT)
        .map((yank) => ({ message: yankedVersionMessage(packageName, yank), versions: NOTICE_VERSIONS }));
    }
  }
  return JSON.stringify(body);
}

/** Last-Modified of what a grant shows: the versions, the grant's terms, and the freeze once it has begun. */
function metadataLastModified(grant: GrantRow, publishedBefore: Date | undefined): Date {
  return new Date(
    Math.max(grant.metadataUpdatedAt.getTime(), grant.grantUpdatedAt.getTime(), publishedBefore?.getTime() ?? 0),
  );
}

/** HTTP dates have whole seconds: a validator compares what was sent, not the stored milliseconds. */
function isNotModifiedSince(lastModified: Date, ifModifiedSince: string | undefined): boolean {
  if (!ifModifiedSince) return false;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false;
  return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/** What a p2 request gets, decided from the token's view at the request's time, before any versions are read. */
export type MetadataDecision =
  | { kind: 'refused'; packageName: string }
  | { kind: 'not-modified'; lastModified: Date }
  | { kind: 'allowed'; grant: GrantRow; view: TokenView; lastModified: Date; publishedBefore: Date | undefined };

/**
 * Authorization comes first, then If-Modified-Since: a 304 would otherwise tell an unlicensed caller that the package
 * exists and when it last changed. Returns the refusal instead of throwing it: the warm path answers it as is.
 */
export function decideMetadata(
  ctx: AppContext,
  view: TokenView,
  request: RepositoryRequest,
  file: { packageName: string; kind: 'tag' | 'branch' },
  ifModifiedSince: string | undefined,
): MetadataDecision {
  const grant = isOnHost(view, request) ? view.grants.get(file.packageName) : undefined;
  if (!grant) return { kind: 'refused', packageName: file.packageName };
  const now = ctx.clock.now();
  // Past the grace period a lapsed seller's packages are as absent as unlicensed ones: a plain 404.
  if (repositoryStanding(view.seller, now).kind === 'closed') {
    return { kind: 'refused', packageName: file.packageName };
  }
  const decision = evaluateGrant(grant, now);
  if (!decision.isAllowed) return { kind: 'refused', packageName: file.packageName };
  const lastModified = metadataLastModified(grant, decision.publishedBefore);
  if (isNotModifiedSince(lastModified, ifModifiedSince)) return { kind: 'not-modified', lastModified };
  return { kind: 'allowed', grant, view, lastModified, publishedBefore: decision.publishedBefore };
}

/** The rendered p2 body of an allowed request, when the package's versions are held; undefined when they must be read. */
export function findHeldMetadataBody(
  ctx: AppContext,
  request: RepositoryRequest,
  fileKind: 'tag' | 'branch',
  allowed: Extract<MetadataDecision, { kind: 'allowed' }>,
): RenderedBody | undefined {
  const entry = ctx.composerAccess.findVersions(allowed.grant.packageId, fileKind);
  return entry ? renderedMetadata(ctx, request, fileKind, allowed, entry) : undefined;
}

function renderedMetadata(
  ctx: AppContext,
  request: RepositoryRequest,
  fileKind: 'tag' | 'branch',
  allowed: Extract<MetadataDecision, { kind: 'allowed' }>,
  held: VersionsEntry,
): RenderedBody {
  const cutoff = allowed.publishedBefore?.getTime();
  return ctx.composerAccess.body(held, cutoff === undefined ? request.baseUrl : `${request.baseUrl} ${cutoff}`, () => {
    let versions = held.versions;
    if (cutoff !== undefined) {
      // A frozen grant keeps the releases published before it ended (when Packgate first saw the tag, never a commit
      // date, which anyone can set). Branches are not releases: a branch name always means its newest commit, so
      // serving one would hand out the very updates the license no longer covers. Tags are fixed content.
      versions = fileKind === 'branch' ? [] : versions.filter((version) => version.publishedAt < cutoff);
    }
    return renderMetadata({
      baseUrl: request.baseUrl,
      packageName: allowed.grant.packageName,
      kind: fileKind,
      versions,
      lifecycle: held.lifecycle,
      sourceName: allowed.view.sellerSlug,
    });
  });
}

/** A p2 file for one token (decideMetadata, then the versions: held, or read and kept). */
export async function getMetadata(
  ctx: AppContext,
  request: RepositoryRequest,
  file: { packageName: string; kind: 'tag' | 'branch' },
  ifModifiedSince: string | undefined,
): Promise<MetadataResponse> {
  const view = await loadTokenView(ctx, request);
  const decided = decideMetadata(ctx, view, request, file, ifModifiedSince);
  if (decided.kind === 'refused') throw notLicensed(decided.packageName);
  if (decided.kind === 'not-modified') return { isNotModified: true, lastModified: decided.lastModified };

  const cache = ctx.composerAccess;
  let entry = cache.findVersions(decided.grant.packageId, file.kind);
  if (!entry) {
    const ticket = cache.ticket();
    const snapshot = await findMetadataVersions(ctx.db, decided.grant.packageId, file.kind);
    entry = cache.keepVersions(ticket, decided.grant.packageId, file.kind, snapshot.versions, snapshot.lifecycle);
  }
  const body = renderedMetadata(ctx, request, file.kind, decided, entry);
  return { isNotModified: false, body, lastModified: decided.lastModified };
}

/** The version's zip from storage; built (once, by the packages domain) when it was never built or was cleared. */
async function openArchive(ctx: AppContext, version: DistVersionRow): Promise<ObjectBody | undefined> {
  if (version.distKey) {
    const stored = await ctx.storage.openBody(version.distKey);
    if (stored) return stored;
  }
  const row = await findVersionRow(ctx.db, version.id);
  if (!row) return undefined;
  const cached = await ensureDist(ctx, row);
  return ctx.storage.openBody(cached.distKey);
}

/** A package's versions with their archives: held while the change feed vouches for them, else read and kept. */
async function loadDistVersions(ctx: AppContext, packageId: string): Promise<DistVersionRow[]> {
  const cache = ctx.composerAccess;
  const held = cache.findDists(packageId);
  if (held) return held;
  const ticket = cache.ticket();
  const versions = await findDistVersions(ctx.db, packageId);
  cache.keepDists(ticket, packageId, versions);
  return versions;
}

/**
 * Authorizes and counts one dist download, then opens the zip. Installs from composer.lock never read metadata,
 * so every rule is checked here again, from the token's view at the request's time (held or read, as for metadata);
 * the count is taken atomically against the limit in the database, and only once the archive is known to exist, so
 * that a failed transfer setup does not use up a download.
 */
export async function openDistDownload(
  ctx: AppContext,
  request: RepositoryRequest,
  packageName: string,
  version: string | 'latest',
): Promise<DistDownload> {
  requireToken(request);
  const normalizedName = packageName.toLowerCase();
  if (!isComposerPackageName(normalizedName)) throw notLicensed(packageName);
  const view = await loadTokenView(ctx, request);
  const grant = isOnHost(view, request) ? view.grants.get(normalizedName) : undefined;
  if (!grant) throw notLicensed(normalizedName);
  const now = ctx.clock.now();
  // Installs from composer.lock come straight here, so the lapsed-seller rule is checked at this door too.
  const standing = repositoryStanding(view.seller, now);
  if (standing.kind === 'closed') {
    throw new AppError('FORBIDDEN', repositoryClosedMessage(standing.endedAt), { title: 'Repository Unavailable' });
  }
  const decision = evaluateGrant(grant, now);
  if (!decision.isAllowed) throw new AppError('FORBIDDEN', decision.message);

  const versions = await loadDistVersions(ctx, grant.packageId);
  const { publishedBefore } = decision;
  const cutoff = publishedBefore?.getTime();
  const chosen =
    version === 'latest'
      ? newestStable(
          versions.filter(
            (row) => row.kind === 'tag' && !row.isYanked && (cutoff === undefined || row.publishedAt < cutoff),
          ),
        )
      : versions.find((row) => row.version === version);
  if (!chosen) {
    throw new AppError(
      'NOT_FOUND',
      version === 'latest'
        ? `${normalizedName} has no stable release your license covers.`
        : `${normalizedName} has no version ${version} in this repository.`,
    );
  }
  if (publishedBefore && (chosen.kind === 'branch' || chosen.publishedAt >= publishedBefore.getTime())) {
    throw new AppError('FORBIDDEN', frozenVersionMessage(normalizedName, chosen.version, publishedBefore));
  }

  const stored = await openArchive(ctx, chosen);
  if (!stored) {
    throw new AppError('UNAVAILABLE', `The archive of ${normalizedName} ${chosen.version} could not be prepared.`, {
      suggestion: 'Try again in a minute.',
    });
  }
  // Without a limit the count decides nothing: the zip goes out at once and is counted right after.
  if (grant.downloadLimit === null) {
    recordDownloadAfterAnswer(ctx, grant.grantId, chosen.version, request.clientAddress);
    return distDownload(stored, normalizedName, chosen.version);
  }
  try {
    await countLimitedDownload(ctx, request, grant, grant.downloadLimit, normalizedName, chosen.version);
  } catch (error) {
    // Not sent: an open file's descriptor is closed by nobody else.
    discardBody(stored);
    throw error;
  }
  return distDownload(stored, normalizedName, chosen.version);
}

/** Counts a download under a limit, atomic against it; refuses it when the database says the grant allows no more. */
async function countLimitedDownload(
  ctx: AppContext,
  request: RepositoryRequest,
  grant: GrantRow,
  downloadLimit: number,
  packageName: string,
  version: string,
): Promise<void> {
  const isCounted = await recordDownload(ctx, grant.grantId, version, request.clientAddress);
  if (!isCounted) {
    // Another download took the last one (or the seller revoked the license) since the check above: the database
    // says which, not what this process held.
    const again = await findTokenView(ctx.db, sha256Hex(requireToken(request)));
    const againGrant = again?.grants.get(packageName);
    const latest = againGrant ? evaluateGrant(againGrant, ctx.clock.now()) : undefined;
    throw new AppError(
      'FORBIDDEN',
      latest && !latest.isAllowed ? latest.message : downloadLimitMessage({ ...grant, downloadCount: downloadLimit }),
    );
  }
  if (grant.downloadCount + 1 >= downloadLimit) {
    await emitDownloadLimitReached(ctx, grant.grantId);
  }
}

function distDownload(stored: ObjectBody, packageName: string, version: string): DistDownload {
  return {
    content: stored.content,
    size: stored.size,
    fileName: `${packageName.replace('/', '-')}-${version.replace(/[^A-Za-z0-9._-]+/g, '-')}.zip`,
  };
}
