import type { CodeHostRepository } from '../../adapters/codehost/code-host.js';
import { mirrorPathFor } from '../../adapters/git/git-mirror.js';
import type { AppContext } from '../../context.js';
import type { packages } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { codeHostUserForOwner } from './code-host-access.js';

// The mirror clone of a package's repository (DATA_DIR/mirrors/{packageId}.git): a disposable cache that
// tags, branches, composer.json and zips are read from, fetched again from the code host whenever needed.

export type PackageRow = typeof packages.$inferSelect;

export function packageMirrorDir(ctx: AppContext, packageId: string): string {
  return mirrorPathFor(ctx.config.dataDir, packageId);
}

/** Brings the mirror up to date from the code host with the owner's credentials; returns the repository. */
export async function updatePackageMirror(
  ctx: AppContext,
  pkg: Pick<PackageRow, 'id' | 'ownerId' | 'codeHost' | 'repositoryId'>,
): Promise<CodeHostRepository> {
  if (pkg.codeHost !== ctx.codeHost.kind) {
    // Moving a deployment between code hosts leaves packages this server cannot reach.
    throw new AppError(
      'CONFLICT',
      `This package comes from ${pkg.codeHost === 'github' ? 'GitHub' : 'the local repository folder'}, which this server is not configured to use.`,
    );
  }
  const user = await codeHostUserForOwner(ctx, pkg.ownerId);
  const repository = await ctx.codeHost.getRepository(user, pkg.repositoryId);
  const source = await ctx.codeHost.cloneSource(user, repository);
  await ctx.mirrors.sync({ ...source, mirrorDir: packageMirrorDir(ctx, pkg.id) });
  return repository;
}
