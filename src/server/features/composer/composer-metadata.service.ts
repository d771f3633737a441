import type { AppContext } from '../../context.js';
import { evaluateGrant, grantNotice, repositoryClosedMessage, repositoryGraceNotice } from '../licenses/grant-rules.js';
import { repositoryStanding } from '../subscriptions/subscriptions.service.js';
import type { RenderedBody, VersionsEntry } from './access-cache.js';
import { findMetadataVersions, type GrantRow, type TokenView } from './composer.repository.js';
import { type PackagesJsonOutcome, renderMetadata, renderPackagesJson, shownVersions } from './composer-render.js';
import { type ComposerOutcome, jsonBytes } from './composer-responses.js';
import { isOnHost, loadTokenView, notLicensed, type RepositoryRequest } from './repository-request.js';

// The Composer repository's metadata: packages.json and the p2 files, decided from the token's view (held or read,
// repository-request.ts) at the request's time and rendered by composer-render.ts. Both doors call these: the routes
// (composer.routes.ts) and the warm fast path (composer-fast-path.ts), which uses the synchronous functions.

/** Other domains reach the repository's dist URLs through this service (API v1 answers them). */
export { distUrl } from './composer-render.js';

/** A p2 file's outcome, as composerAnswer (composer-responses.ts) turns it into status, headers and body. */
export type MetadataOutcome = Extract<ComposerOutcome, { kind: 'metadata' | 'not-modified' }>;

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

/** `packages.json`: the names this token may install now, and what its holder should know about their licenses. */
export async function getPackagesJson(ctx: AppContext, request: RepositoryRequest): Promise<Buffer> {
  const view = await loadTokenView(ctx, request);
  return jsonBytes(renderPackagesJson(decidePackagesJson(view, request, ctx.clock.now())));
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
  return ctx.composerAccess.body(held, cutoff === undefined ? request.baseUrl : `${request.baseUrl} ${cutoff}`, () =>
    renderMetadata({
      baseUrl: request.baseUrl,
      packageName: allowed.grant.packageName,
      kind: fileKind,
      versions: shownVersions(held.versions, fileKind, cutoff),
      lifecycle: held.lifecycle,
      sourceName: allowed.view.sellerSlug,
    }),
  );
}

/** A p2 file for one token (decideMetadata, then the versions: held, or read and kept). */
export async function getMetadata(
  ctx: AppContext,
  request: RepositoryRequest,
  file: { packageName: string; kind: 'tag' | 'branch' },
  ifModifiedSince: string | undefined,
): Promise<MetadataOutcome> {
  const view = await loadTokenView(ctx, request);
  const decided = decideMetadata(ctx, view, request, file, ifModifiedSince);
  if (decided.kind === 'refused') throw notLicensed(decided.packageName);
  if (decided.kind === 'not-modified') return { kind: 'not-modified', lastModified: decided.lastModified };

  const cache = ctx.composerAccess;
  let entry = cache.findVersions(decided.grant.packageId, file.kind);
  if (!entry) {
    const ticket = cache.ticket();
    const snapshot = await findMetadataVersions(ctx.db, decided.grant.packageId, file.kind);
    entry = cache.keepVersions(ticket, decided.grant.packageId, file.kind, snapshot.versions, snapshot.lifecycle);
  }
  const body = renderedMetadata(ctx, request, file.kind, decided, entry);
  return { kind: 'metadata', body, lastModified: decided.lastModified };
}
