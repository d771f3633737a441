import { CodeHostError } from '../../adapters/codehost/code-host.js';
import { GitError } from '../../adapters/git/git-command.js';
import type { AppContext } from '../../context.js';
import { appUrl } from '../../http/public-urls.js';
import {
  credentialProblem,
  isCredentialRefusal,
  markConnectionBroken,
  markConnectionWorking,
} from '../code-hosts/code-hosts.service.js';
import { findUserById } from '../users/users.service.js';
import { describeGitServerFailure, gitServerPlaceOf } from './git-failures.js';
import type { PackageRow } from './package-mirror.js';
import * as repository from './package-sync.repository.js';
import { updatePackageRow } from './packages.repository.js';

// A credential or repository that stops working is seen, not silent (issue 30 item 6). When a sync meets a refusal
// (the host answers 401/403, git's authentication fails, the repository is gone), the package says what happened and
// what to do on Management (packages.access_problem), the connection is marked broken (its owner is e-mailed once by
// code-hosts), and a package-only problem (the repository gone) is e-mailed once per package. Composer keeps serving
// every published version: it reads the database, which a failed sync leaves as it was. The next good sync clears it.

const HOST_NAMES: Record<PackageRow['codeHost'], string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  git: 'the git server',
  local: 'the local folder',
};

type Refusal = { scope: 'connection' | 'package'; problem: string };

/** What the failure means for access, in words for the seller; undefined for a passing failure (host down, timeout). */
export function classifyRefusal(
  pkg: Pick<PackageRow, 'codeHost' | 'repositoryFullName'> &
    Partial<Pick<PackageRow, 'repositoryUrl' | 'sshHostKeyFingerprint' | 'lastSyncedAt'>>,
  error: unknown,
): Refusal | undefined {
  const host = HOST_NAMES[pkg.codeHost];
  const served = 'Every version already published is still served to your license holders.';
  const deployKeyRefusal = deployKeyRefusalOf(pkg, error);
  if (deployKeyRefusal !== 'not-ssh') {
    return deployKeyRefusal === undefined ? undefined : { scope: 'package', problem: `${deployKeyRefusal} ${served}` };
  }
  if (isCredentialRefusal(error)) return { scope: 'connection', problem: credentialProblem(pkg.codeHost, error) };
  const gone =
    (error instanceof CodeHostError && error.code === 'NOT_FOUND') ||
    (error instanceof GitError && error.code === 'NOT_FOUND');
  if (gone) {
    return {
      scope: 'package',
      problem: `${host} no longer shows the repository ${pkg.repositoryFullName}: it was deleted, renamed out of reach or the connection lost access to it. Restore access to it, or delete this package. ${served}`,
    };
  }
  return undefined;
}

/**
 * A package read over SSH has its own deploy key: a refused key or a changed host key is that package's problem, not
 * its server connection's. Before its first good sync it is no problem yet (the sync's error says to add the key).
 */
function deployKeyRefusalOf(
  pkg: Parameters<typeof classifyRefusal>[0],
  error: unknown,
): string | undefined | 'not-ssh' {
  const place = gitServerPlaceOf({
    codeHost: pkg.codeHost,
    repositoryUrl: pkg.repositoryUrl ?? null,
    repositoryFullName: pkg.repositoryFullName,
    sshHostKeyFingerprint: pkg.sshHostKeyFingerprint ?? null,
  });
  if (!place?.isSsh) return 'not-ssh';
  const isKeyRefusal =
    error instanceof GitError && (error.code === 'AUTH_FAILED' || error.code === 'HOST_KEY_MISMATCH');
  if (!isKeyRefusal) return 'not-ssh';
  if (error.code === 'AUTH_FAILED' && !pkg.lastSyncedAt) return undefined;
  return describeGitServerFailure(error, place);
}

/** Records a sync's refusal on the package and its connection; e-mails the seller once per problem. */
export async function recordAccessRefusal(ctx: AppContext, pkg: PackageRow, error: unknown): Promise<void> {
  const refusal = classifyRefusal(pkg, error);
  if (!refusal) return;
  const now = ctx.clock.now();
  const isNewProblem = pkg.accessProblem !== refusal.problem;
  await updatePackageRow(ctx.db, pkg.id, {
    accessProblem: refusal.problem,
    ...(isNewProblem ? { accessProblemSince: now, accessProblemNotifiedAt: null } : {}),
  });
  if (refusal.scope === 'connection' && pkg.connectionId) {
    // The connection's own e-mail covers its packages: one e-mail for the connection, not one per package.
    await markConnectionBroken(ctx, pkg.connectionId, refusal.problem);
    await repository.markAccessProblemNotified(ctx.db, pkg.id, now);
    return;
  }
  await notifyPackageProblemOnce(ctx, pkg.id);
}

/** A good sync: the package's problem, and its connection's, are over. */
export async function clearAccessProblem(ctx: AppContext, pkg: Pick<PackageRow, 'id' | 'connectionId'>): Promise<void> {
  await repository.clearAccessProblemOf(ctx.db, pkg.id);
  if (pkg.connectionId) await markConnectionWorking(ctx, pkg.connectionId);
}

async function notifyPackageProblemOnce(ctx: AppContext, packageId: string): Promise<void> {
  const claimed = await repository.claimAccessProblemNotice(ctx.db, packageId, ctx.clock.now());
  if (!claimed) return;
  const owner = await findUserById(ctx, claimed.ownerId);
  if (!owner?.email) return;
  const link = appUrl(ctx.config, '/management');
  await ctx.mailer.send({
    to: owner.email,
    subject: `Packgate can no longer read the code of ${claimed.name}`,
    text: [claimed.problem ?? '', '', `Open Management: ${link}`].join('\n'),
    links: [link],
    reference: `package-access:${packageId}`,
  });
}
