import type { CodeHostOverview } from '../../../contract/code-hosts.js';
import type { CodeHost, CodeHostKind } from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';

/** Which kinds of connection this server lets a seller make (each kind's settings are configured). */
export function availableKinds(ctx: AppContext): CodeHostOverview['available'] {
  return {
    githubApp: ctx.config.githubApp !== undefined,
    local: ctx.codeHosts.local !== undefined,
    // Access tokens need no server setting; GitLab's OAuth button shows when GITLAB_CLIENT_ID is set.
    gitlab: true,
    bitbucket: true,
    // Any git server needs no setting: its repositories are added by URL (the connection is made then).
    git: true,
  };
}

/** The host's name in a sentence: `GitHub`, `the local repository folder`. */
export function codeHostName(kind: CodeHostKind): string {
  if (kind === 'gitlab') return 'GitLab';
  if (kind === 'bitbucket') return 'Bitbucket';
  if (kind === 'git') return 'the git server';
  return kind === 'github' ? 'GitHub' : 'the local repository folder';
}

/** The host a package came from; CONFLICT when this server is not set up to reach it (moved between hosts). */
export function codeHostOf(ctx: AppContext, kind: CodeHostKind): CodeHost {
  const host = ctx.codeHosts[kind];
  if (host) return host;
  const remedy =
    kind === 'github'
      ? 'Set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET again and restart, or add the package anew.'
      : 'Put its repository back in GIT_REPOS_DIR and restart, or add the package anew.';
  throw new AppError(
    'CONFLICT',
    `This package comes from ${codeHostName(kind)}, which this server is not configured to use. ${remedy}`,
  );
}
