import { readFileAt } from '../../adapters/git/git-repository.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { PackageRow } from './package-mirror.js';
import { renameUnsyncedPackage } from './package-sync.repository.js';
import { manifestName } from './package-versions.js';

// A package added from a git server over SSH cannot be read before the seller adds its deploy key, so it is named
// from its URL at first (issue 30 item 4). Its first good sync reads composer.json of the default branch and takes
// the name declared there: Composer refuses a package whose name differs from its composer.json.

/** The package, renamed after composer.json on its first sync when that names it otherwise (and the name is free). */
export async function adoptComposerName(
  ctx: AppContext,
  pkg: PackageRow,
  mirrorDir: string,
  defaultBranch: string | null,
): Promise<PackageRow> {
  if (pkg.codeHost !== 'git' || pkg.lastSyncedAt || !defaultBranch) return pkg;
  const text = await readFileAt(mirrorDir, `refs/heads/${defaultBranch}`, 'composer.json').catch(() => undefined);
  const named = text === undefined ? {} : manifestName(text);
  if (!('name' in named) || !named.name || named.name === pkg.name) return pkg;
  try {
    const renamed = await renameUnsyncedPackage(ctx.db, pkg.id, named.name, ctx.clock.now());
    return renamed ?? pkg;
  } catch (error) {
    // The seller has another package of that name: this one keeps its own, which Edit can change.
    if (isUniqueViolation(error, 'packages_owner_name_unique')) return pkg;
    throw error;
  }
}
