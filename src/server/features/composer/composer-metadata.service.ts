import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { createBoundedMemo } from '../../lib/bounded-memo.js';
import { repositoryClosedMessage, repositoryGraceNotice } from '../licenses/grant-rules.js';
import { repositoryStanding } from '../subscriptions/subscriptions.service.js';
import type { VersionsEntry } from './access-cache.js';
import type { PackageAccess, TokenView } from './access-view.repository.js';
import { findMetadataVersions } from './composer.repository.js';
import { type PackagesJsonOutcome, renderMetadata, renderPackagesJson } from './composer-render.js';
import { type ComposerOutcome, httpDate, jsonBytes } from './composer-responses.js';
import {
  type AllowedGrant,
  coverageKey,
  decidePackage,
  isVersionCovered,
  newerVersionNotice,
} from './license-coverage.js';
import { isOnHost, loadTokenView, notLicensed, type RepositoryRequest, upgradeUrl } from './repository-request.js';
import { tokenStanding } from './token-standing.js';

// The Composer repository's metadata: packages.json and the p2 files, decided from the token's view (held or read,
// repository-request.ts) at the request's time and rendered by composer-render.ts. Both doors call these: the routes
// (composer.routes.ts) and the warm fast path (composer-fast-path.ts), which uses the synchronous functions.

/** Other domains reach the repository's dist URLs through this service (API v1 answers them). */
export { distUrl } from './composer-render.js';

/** A p2 file's outcome, as composerAnswer (composer-responses.ts) turns it into status, headers and body. */
export type MetadataOutcome = Extract<ComposerOutcome, { kind: 'metadata' | 'not-modified' }>;

/** Each held view's package names, listed once (frozen): packages.json names them at every request (issue 34). */
const packageNamesOfView = new WeakMap<TokenView, readonly string[]>();

function packageNamesOf(view: TokenView): readonly string[] {
  let names = packageNamesOfView.get(view);
  if (names === undefined) {
    names = Object.freeze([...view.packages.keys()]);
    packageNamesOfView.set(view, names);
  }
  return names;
}

function decidePackagesJson(view: TokenView, request: RepositoryRequest, now: Date): PackagesJsonOutcome {
  const warnings: string[] = [];
  // Token-level notices (a rotation's overlap, a reported leak) reach every project of the token.
  const standing = tokenStanding(view.token, now, request.authHost);
  if (standing.kind === 'usable' && standing.notice) warnings.push(standing.notice);
  const repository = repositoryStanding(view.seller, now);
  // A closed repository lists nothing, and says why rather than each license's own state.
  if (repository.kind === 'closed') {
    warnings.push(repositoryClosedMessage(repository.endedAt));
    return { available: [], warnings };
  }
  // Every package the holder is licensed for is listed, whether its licenses allow it now or not: Composer asks for
  // a listed package's p2 file only in projects that use it, and that file says what concerns the package (expiry,
  // revocation, the update freeze, newer versions outside the license's range), so other projects never see it.
  const available = isOnHost(view, request) ? packageNamesOf(view) : [];
  if (repository.kind === 'grace' && available.length > 0) warnings.push(repositoryGraceNotice(repository.until));
  return { available, warnings };
}

/** `packages.json`: the names this token's licenses cover, and what its holder should know about the token. */
export async function getPackagesJson(ctx: AppContext, request: RepositoryRequest): Promise<Buffer> {
  const view = await loadTokenView(ctx, request);
  return jsonBytes(renderPackagesJson(decidePackagesJson(view, request, ctx.clock.now())));
}

/**
 * packages.json of a held view, as bytes (the warm path): decided at the request's time like getPackagesJson, and
 * serialized again only when the decision differs from the one this view last answered.
 */
export function packagesJsonBytes(
  ctx: AppContext,
  view: TokenView,
  request: RepositoryRequest,
  now: Date = ctx.clock.now(),
): Buffer {
  const outcome = decidePackagesJson(view, request, now);
  return ctx.composerAccess.packagesJsonBody(view, outcome.available, outcome.warnings, () =>
    jsonBytes(renderPackagesJson(outcome)),
  );
}

/**
 * Last-Modified of what the holder's licenses show of a package: its versions, the licenses' terms (any of the
 * holder's: one license's change can change the union), and a freeze once it has begun.
 */
function metadataLastModified(access: PackageAccess, view: TokenView, allowed: AllowedGrant[]): Date {
  // The latest of the held dates itself, not a copy: asked at every warm p2 request (issue 34). Nothing writes to it.
  let latest = access.grants[0]!.metadataUpdatedAt;
  if (view.coverageUpdatedAt.getTime() > latest.getTime()) latest = view.coverageUpdatedAt;
  for (const { publishedBefore } of allowed) {
    if (publishedBefore !== undefined && publishedBefore.getTime() > latest.getTime()) latest = publishedBefore;
  }
  return latest;
}

/** HTTP dates have whole seconds: a validator compares what was sent, not the stored milliseconds. */
function isNotModifiedSince(lastModified: Date, ifModifiedSince: string | undefined): boolean {
  if (!ifModifiedSince) return false;
  // Composer sends back the Last-Modified it was given: the same text needs no parse (Date.parse costs 160 ns, a
  // comparison with the formatted date a few: issue 34's 304s).
  if (ifModifiedSince === httpDate(lastModified)) return true;
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false;
  return Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/** What a p2 request gets, decided from the token's view at the request's time, before any versions are read. */
export type MetadataDecision =
  /** Not licensed (a quiet 404), or licensed but refused now: then `messages` say why (the tag file's 404 carries them). */
  | { kind: 'refused'; packageName: string; messages?: string[] }
  | {
      kind: 'allowed';
      access: PackageAccess;
      view: TokenView;
      allowed: AllowedGrant[];
      /** What the holder should know of the licenses now (ending soon, frozen): only the tag file carries them. */
      notices: string[];
      lastModified: Date;
    };

/** Decides a p2 request from the token's view at the request's time. Returns the refusal instead of throwing it. */
export function decideMetadata(
  ctx: AppContext,
  view: TokenView,
  request: RepositoryRequest,
  file: { packageName: string; kind: 'tag' | 'branch' },
  /** The request's time; the warm door reads the clock once per request for all its decisions. */
  now: Date = ctx.clock.now(),
): MetadataDecision {
  const access = isOnHost(view, request) ? view.packages.get(file.packageName) : undefined;
  if (!access) return { kind: 'refused', packageName: file.packageName };
  // Past the grace period a lapsed seller's packages are as absent as unlicensed ones: a plain 404.
  if (repositoryStanding(view.seller, now).kind === 'closed') {
    return { kind: 'refused', packageName: file.packageName };
  }
  const decision = decidePackage(access, now);
  if (decision.kind === 'denied') {
    // The tag file is the one every project using the package reads: it says why, once per command.
    return file.kind === 'tag'
      ? { kind: 'refused', packageName: file.packageName, messages: decision.messages }
      : { kind: 'refused', packageName: file.packageName };
  }
  const notices = file.kind === 'tag' ? decision.notices : [];
  const lastModified = metadataLastModified(access, view, decision.allowed);
  return { kind: 'allowed', access, view, allowed: decision.allowed, notices, lastModified };
}

/**
 * A p2 file of a package the holder is licensed for whose licenses all refuse now: a 404 (Composer then reports the
 * package as not found, as for any package it cannot install) whose warnings say why, unlike the quiet 404 of a
 * package the token does not license.
 */
export class LicenseRefusedNotFound extends AppError {}

/** The refusal of a decided p2 request: a quiet 404 when unlicensed, else a 404 whose warnings say why. */
export function metadataRefusal(decided: Extract<MetadataDecision, { kind: 'refused' }>): AppError {
  if (!decided.messages || decided.messages.length === 0) return notLicensed(decided.packageName);
  const [message, ...more] = decided.messages;
  return new LicenseRefusedNotFound('NOT_FOUND', message!, {
    ...(more.length > 0 ? { suggestion: more.join(' ') } : {}),
  });
}

type AllowedDecision = Extract<MetadataDecision, { kind: 'allowed' }>;

/** Per held versions entry, the newer-version notice of each union of terms (computed once, not per request). */
const newerNotices = new WeakMap<VersionsEntry, Map<string, string | undefined>>();

function newerNoticeOf(
  ctx: AppContext,
  request: RepositoryRequest,
  allowed: AllowedDecision,
  entry: VersionsEntry,
  key: string,
): string | undefined {
  if (key === '') return undefined;
  let byKey = newerNotices.get(entry);
  if (!byKey) {
    byKey = new Map();
    newerNotices.set(entry, byKey);
  }
  const upgrade = upgradeUrl(ctx, allowed.view, request);
  const memoKey = `${key}\u0003${upgrade}`;
  if (byKey.has(memoKey)) return byKey.get(memoKey);
  const notice = newerVersionNotice(allowed.access.packageName, entry.versions, allowed.allowed, upgrade);
  byKey.set(memoKey, notice);
  return notice;
}

/**
 * The variant of the common body (every version, no warnings) of each repository host: one string per host, so the
 * held body's key (access-cache.ts) is found by comparing the same string, not a new one per request (issue 34).
 */
const plainVariants = createBoundedMemo(1024, (baseUrl: string) => bodyVariant(baseUrl, '', []));

/** What tells one rendered p2 body from another of the same versions: the host, the union of licenses, the warnings. */
function bodyVariant(baseUrl: string, coverage: string, warnings: readonly string[]): string {
  return `${baseUrl} ${coverage} ${warnings.join('\u0002')}`;
}

/**
 * The outcome of an allowed p2 request from the package's versions: 304 when the client holds it already, unless the
 * answer carries license warnings (Composer prints warnings only from a body it receives, and a holder must read
 * them at every command), else the body rendered for this union of licenses.
 */
function metadataOutcome(
  ctx: AppContext,
  request: RepositoryRequest,
  fileKind: 'tag' | 'branch',
  allowed: AllowedDecision,
  entry: VersionsEntry,
  ifModifiedSince: string | undefined,
): MetadataOutcome {
  const key = coverageKey(allowed.allowed);
  const newer = fileKind === 'tag' ? newerNoticeOf(ctx, request, allowed, entry, key) : undefined;
  const warnings = newer === undefined ? allowed.notices : [...allowed.notices, newer];
  if (warnings.length === 0 && isNotModifiedSince(allowed.lastModified, ifModifiedSince)) {
    return { kind: 'not-modified', lastModified: allowed.lastModified };
  }
  const variant =
    key === '' && warnings.length === 0
      ? plainVariants.get(request.baseUrl)
      : bodyVariant(request.baseUrl, key, warnings);
  const body = ctx.composerAccess.body(entry, variant, () =>
    renderMetadata({
      baseUrl: request.baseUrl,
      packageName: allowed.access.packageName,
      kind: fileKind,
      versions:
        key === ''
          ? entry.versions
          : entry.versions.filter((version) => isVersionCovered(allowed.allowed, { ...version, kind: fileKind })),
      lifecycle: entry.lifecycle,
      sourceName: allowed.view.sellerSlug,
      notices: warnings,
    }),
  );
  return { kind: 'metadata', body, lastModified: allowed.lastModified };
}

/** The outcome of an allowed request when the package's versions are held; undefined when they must be read. */
export function findHeldMetadataOutcome(
  ctx: AppContext,
  request: RepositoryRequest,
  fileKind: 'tag' | 'branch',
  allowed: AllowedDecision,
  ifModifiedSince: string | undefined,
): MetadataOutcome | undefined {
  const entry = ctx.composerAccess.findVersions(allowed.access.packageId, fileKind);
  return entry ? metadataOutcome(ctx, request, fileKind, allowed, entry, ifModifiedSince) : undefined;
}

/** A p2 file for one token (decideMetadata, then the versions: held, or read and kept). */
export async function getMetadata(
  ctx: AppContext,
  request: RepositoryRequest,
  file: { packageName: string; kind: 'tag' | 'branch' },
  ifModifiedSince: string | undefined,
): Promise<MetadataOutcome> {
  const view = await loadTokenView(ctx, request);
  const decided = decideMetadata(ctx, view, request, file);
  if (decided.kind === 'refused') throw metadataRefusal(decided);

  const cache = ctx.composerAccess;
  const packageId = decided.access.packageId;
  let entry = cache.findVersions(packageId, file.kind);
  if (!entry) {
    const ticket = cache.ticket();
    const snapshot = await findMetadataVersions(ctx.db, packageId, file.kind);
    entry = cache.keepVersions(ticket, packageId, file.kind, snapshot.versions, snapshot.lifecycle);
  }
  return metadataOutcome(ctx, request, file.kind, decided, entry, ifModifiedSince);
}
