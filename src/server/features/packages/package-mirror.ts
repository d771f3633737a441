import type { CodeHostRepository } from '../../adapters/codehost/code-host.js';
import { mirrorPathFor } from '../../adapters/git/git-mirror.js';
import type { AppContext } from '../../context.js';
import type { packages } from '../../db/schema/index.js';
import { openPackageHost } from './package-host.js';

// The mirror clone of a package's repository (DATA_DIR/mirrors/{packageId}.git): a disposable cache that
// tags, branches, composer.json and zips are read from, fetched again from the code host whenever needed.

export type PackageRow = typeof packages.$inferSelect;

export function packageMirrorDir(ctx: AppContext, packageId: string): string {
  return mirrorPathFor(ctx.config.dataDir, packageId);
}

/** Brings the mirror up to date from the code host with the owner's credentials; returns the repository. */
export async function updatePackageMirror(
  ctx: AppContext,
  pkg: Pick<
    PackageRow,
    'id' | 'ownerId' | 'codeHost' | 'repositoryId' | 'connectionId' | 'deployKeyPrivateEncrypted' | 'sshHostKey'
  >,
): Promise<CodeHostRepository> {
  // Through the package's own connection, which need not be of the host new packages come from (issues 30, 36).
  const { host, user } = await openPackageHost(ctx, pkg);
  const repository = await host.getRepository(user, pkg.repositoryId);
  const source = await host.cloneSource(user, repository);
  await ctx.mirrors.sync({ ...source, mirrorDir: packageMirrorDir(ctx, pkg.id) });
  return repository;
}
