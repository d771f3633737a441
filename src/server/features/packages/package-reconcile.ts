import { existsSync } from 'node:fs';
import { isSameReferences, listLocalReferences, listSourceReferences } from '../../adapters/git/source-references.js';
import type { AppContext } from '../../context.js';
import { openPackageHost } from './package-host.js';
import { type PackageRow, packageMirrorDir } from './package-mirror.js';
import { syncPackage } from './package-sync.js';
import { selectPackagesInCreationOrder } from './package-sync.repository.js';
import { updatePackageRow } from './packages.repository.js';

// Tags are never missed (issue 30 item 5): GitHub sends no event when more than three tags are pushed at once, drops
// payloads over 25 MB, and every host's webhooks can fail. Reconciliation asks each package's remote for its branches
// and tags (`git ls-remote`, bounded) and compares them with the package's mirror, which holds what the last sync
// published from; a package that differs, or whose last sync did not succeed, is synced. It runs every
// CODE_HOST_RECONCILE_MINUTES (reconcile.job.ts keeps itself queued) and when a seller asks.

export type ReconcileOutcome = 'unchanged' | 'synced' | 'unreadable';

export type ReconcileSummary = { checked: number; synced: number; unreadable: number };

/** Compares one package with its remote and queues a sync when they differ; never throws. */
export async function reconcilePackage(ctx: AppContext, pkg: PackageRow): Promise<ReconcileOutcome> {
  const queueSync = async () => {
    await syncPackage(ctx, pkg.id, { userId: pkg.ownerId });
  };
  let outcome: ReconcileOutcome;
  try {
    const { host, user } = await openPackageHost(ctx, pkg);
    const repository = await host.getRepository(user, pkg.repositoryId);
    const remote = await listSourceReferences(await host.cloneSource(user, repository));
    const mirrorDir = packageMirrorDir(ctx, pkg.id);
    const mirrored = existsSync(mirrorDir) ? await listLocalReferences(mirrorDir) : undefined;
    const isCurrent = mirrored !== undefined && isSameReferences(remote, mirrored) && pkg.syncStatus === 'ready';
    if (isCurrent) {
      outcome = 'unchanged';
    } else {
      await queueSync();
      outcome = 'synced';
    }
  } catch (error) {
    ctx.log.warn({ err: error, packageId: pkg.id }, 'reconciliation could not read the package’s remote');
    // A sync says why in words on Management (and tells the seller of a refused credential once); a package that
    // already shows a problem is not synced again for it.
    if (!pkg.accessProblem && pkg.syncStatus !== 'failed') await queueSync().catch(() => undefined);
    outcome = 'unreadable';
  }
  await updatePackageRow(ctx.db, pkg.id, { lastReconciledAt: ctx.clock.now() }).catch(() => undefined);
  return outcome;
}

/** Reconciles every package (of one owner, when given), one after another. */
export async function reconcilePackages(
  ctx: AppContext,
  options: { ownerId?: string; signal?: AbortSignal } = {},
): Promise<ReconcileSummary> {
  const rows = await selectPackagesInCreationOrder(ctx.db, options.ownerId);
  const summary: ReconcileSummary = { checked: 0, synced: 0, unreadable: 0 };
  for (const pkg of rows) {
    if (options.signal?.aborted) break;
    // A package whose connection was removed has nothing to compare with (Management says so).
    if (!pkg.connectionId && pkg.codeHost !== 'local') continue;
    const outcome = await reconcilePackage(ctx, pkg);
    summary.checked++;
    if (outcome === 'synced') summary.synced++;
    if (outcome === 'unreadable') summary.unreadable++;
  }
  return summary;
}
