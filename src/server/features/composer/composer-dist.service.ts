import { isComposerPackageName } from '../../../contract/composer.js';
import { discardBody, type ObjectBody } from '../../adapters/storage/object-storage.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { termsCoverVersion } from '../../lib/composer-versions/license-terms.js';
import { newestStable } from '../../lib/composer-versions/version-order.js';
import { sha256Hex } from '../../lib/crypto.js';
import {
  downloadLimitMessage,
  evaluateGrant,
  frozenVersionMessage,
  repositoryClosedMessage,
} from '../licenses/grant-rules.js';
import { recordDownload, recordDownloadAfterAnswer } from '../licenses/grants.service.js';
import { ensureDist } from '../packages/packages.service.js';
import { repositoryStanding } from '../subscriptions/subscriptions.service.js';
import { emitDownloadLimitReached } from '../webhooks/webhook-events.service.js';
import { type CoveringGrant, findTokenView, type TokenView } from './access-view.repository.js';
import { type DistVersionRow, findDistVersions, findVersionRow } from './composer.repository.js';
import { distFileName } from './composer-render.js';
import {
  type AllowedGrant,
  decidePackage,
  grantForVersion,
  isVersionCovered,
  outsideRangeMessage,
} from './license-coverage.js';
import {
  isOnHost,
  loadTokenView,
  notLicensed,
  type RepositoryRequest,
  requireToken,
  upgradeUrl,
} from './repository-request.js';

// The Composer repository's downloads: one zip per request, authorized from the token's view at the request's time
// (held or read, repository-request.ts) and counted. Always answered through the routes (composer.routes.ts).

/** A zip to send: small ones read whole (a Buffer), larger ones as the open file (file-sender.ts) or a stream (S3). */
export type DistDownload = { content: ObjectBody['content']; size: number; fileName: string };

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
 * so every rule is checked here again, from the token's view at the request's time (held or read, as for metadata):
 * a version is downloadable when any of the holder's licenses covering the package allows it now, and the download
 * is counted against one of those; the count is taken atomically against its limit in the database, and only once
 * the archive is known to exist, so that a failed transfer setup does not use up a download.
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
  const access = isOnHost(view, request) ? view.packages.get(normalizedName) : undefined;
  if (!access) throw notLicensed(normalizedName);
  const now = ctx.clock.now();
  // Installs from composer.lock come straight here, so the lapsed-seller rule is checked at this door too.
  const standing = repositoryStanding(view.seller, now);
  if (standing.kind === 'closed') {
    throw new AppError('FORBIDDEN', repositoryClosedMessage(standing.endedAt), { title: 'Repository Unavailable' });
  }
  const decision = decidePackage(access, now);
  if (decision.kind === 'denied') throw new AppError('FORBIDDEN', decision.messages[0]!);
  const { allowed } = decision;

  const versions = await loadDistVersions(ctx, access.packageId);
  const chosen =
    version === 'latest'
      ? newestStable(versions.filter((row) => row.kind === 'tag' && !row.isYanked && isVersionCovered(allowed, row)))
      : versions.find((row) => row.version === version);
  if (!chosen) {
    throw new AppError(
      'NOT_FOUND',
      version === 'latest'
        ? `${normalizedName} has no stable release your license covers.`
        : `${normalizedName} has no version ${version} in this repository.`,
    );
  }
  const counted = grantForVersion(allowed, chosen);
  if (!counted) throw notCoveredError(ctx, view, request, normalizedName, chosen, allowed);

  const stored = await openArchive(ctx, chosen);
  if (!stored) {
    throw new AppError('UNAVAILABLE', `The archive of ${normalizedName} ${chosen.version} could not be prepared.`, {
      suggestion: 'Try again in a minute.',
    });
  }
  const { grant } = counted;
  // Without a limit the count decides nothing: the zip goes out at once and is counted right after.
  if (grant.downloadLimit === null) {
    // The package downloaded, not the grant's: a product's license names none itself.
    recordDownloadAfterAnswer(ctx, grant.grantId, chosen.version, request.clientAddress, access.packageId);
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

/**
 * Why no allowed license covers a version: a frozen license whose terms reach it but which ended before it was
 * published says so; otherwise the version is outside the licenses' range, and the refusal names the range.
 */
function notCoveredError(
  ctx: AppContext,
  view: TokenView,
  request: RepositoryRequest,
  packageName: string,
  chosen: DistVersionRow,
  allowed: AllowedGrant[],
): AppError {
  const frozen = allowed.find(
    (entry) => entry.publishedBefore !== undefined && termsCoverVersion(entry.grant.terms, chosen.normalizedVersion),
  );
  if (frozen?.publishedBefore) {
    return new AppError('FORBIDDEN', frozenVersionMessage(packageName, chosen.version, frozen.publishedBefore));
  }
  return new AppError(
    'FORBIDDEN',
    outsideRangeMessage(packageName, chosen.version, allowed, upgradeUrl(ctx, view, request)),
  );
}

/** Counts a download under a limit, atomic against it; refuses it when the database says the grant allows no more. */
async function countLimitedDownload(
  ctx: AppContext,
  request: RepositoryRequest,
  grant: CoveringGrant,
  downloadLimit: number,
  packageName: string,
  version: string,
): Promise<void> {
  const isCounted = await recordDownload(ctx, grant.grantId, version, request.clientAddress, grant.packageId);
  if (!isCounted) {
    // Another download took the last one (or the seller revoked the license) since the check above: the database
    // says which, not what this process held.
    const again = await findTokenView(ctx.db, sha256Hex(requireToken(request)));
    const againGrant = again?.packages.get(packageName)?.grants.find((entry) => entry.grantId === grant.grantId);
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
  return { content: stored.content, size: stored.size, fileName: distFileName(packageName, version) };
}
