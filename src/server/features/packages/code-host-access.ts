import { CodeHostError, type CodeHostKind } from '../../adapters/codehost/code-host.js';
import { GitError } from '../../adapters/git/git-command.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { codeHostName } from '../code-hosts/code-hosts.service.js';
import { describeGitServerFailure, type GitServerPlace } from './git-failures.js';

// How the packages domain speaks to the code host on a user's behalf, and how the host's failures are
// told to the seller: every message says what happened and what to do, never carries a token.

function hostName(kind: CodeHostKind): string {
  const name = codeHostName(kind);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function formatRetryAt(retryAt: Date | undefined): string {
  return retryAt ? `${retryAt.toISOString().slice(11, 16)} UTC (${retryAt.toISOString()})` : 'in a few minutes';
}

/** A code-host failure as an API error; `kind`, the host that failed (the server's own by default). */
export function codeHostAppError(
  ctx: AppContext,
  error: CodeHostError,
  kind: CodeHostKind = ctx.codeHost.kind,
): AppError {
  const host = hostName(kind);
  switch (error.code) {
    case 'NOT_FOUND':
      return new AppError('NOT_FOUND', `${error.message}.`.replace(/\.\.$/, '.'), {
        title: 'Repository Not Found',
        suggestion: 'Check that the repository still exists and that your account can see it.',
      });
    case 'UNAUTHORIZED':
      if (kind !== 'github' && kind !== 'local') {
        // GitLab, Bitbucket, any git server: the connection is renewed on Code hosts.
        return new AppError('UNAUTHENTICATED', error.message, {
          title: 'Code Host Refused Access',
          suggestion: /Code hosts/.test(error.message) ? undefined : `Connect ${host} again on Code hosts.`,
        });
      }
      return new AppError('UNAUTHENTICATED', `${error.message} Reconnect GitHub to list and sync your repositories.`, {
        title: 'GitHub Connection Required',
        suggestion: 'Open Code hosts (in the account menu) and install the GitHub App on the repositories you pick.',
      });
    case 'RATE_LIMITED':
      return new AppError(
        'RATE_LIMITED',
        `${host}'s API rate limit is exhausted; it resets at ${formatRetryAt(error.options.retryAt)}.`,
        {
          title: 'GitHub Rate Limit Reached',
          suggestion: 'Wait until the limit resets, then try again.',
          headers: { 'retry-after': String(error.retryAfterSeconds) },
        },
      );
    case 'UNAVAILABLE':
      return new AppError('UNAVAILABLE', `${error.message} Please try again in a moment.`, {
        title: `${host === 'GitHub' ? 'GitHub' : 'Code Host'} Unavailable`,
      });
  }
}

/** Runs a code-host call for a request: its failures become API errors the seller can act on. */
export async function withCodeHost<T>(ctx: AppContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CodeHostError) throw codeHostAppError(ctx, error);
    throw error;
  }
}

/** Why a sync from the host `kind` failed, in words for the seller (stored on the package and sent with the task). */
export function describeSyncFailure(
  ctx: AppContext,
  error: unknown,
  kind: CodeHostKind = ctx.codeHost.kind,
  gitServer?: GitServerPlace,
): string {
  if (error instanceof AppError) return error.message;
  // Any git server's failures say which server and what to do (a deploy key to add, a pinned host key that changed).
  const gitServerFailure = gitServer ? describeGitServerFailure(error, gitServer) : undefined;
  if (gitServerFailure) return gitServerFailure;
  if (error instanceof CodeHostError) {
    const appError = codeHostAppError(ctx, error, kind);
    return appError.suggestion && error.code !== 'RATE_LIMITED'
      ? `${appError.message} ${appError.suggestion}`
      : appError.message;
  }
  if (error instanceof GitError) {
    switch (error.code) {
      case 'AUTH_FAILED':
        if (kind !== 'github' && kind !== 'local') {
          return `${hostName(kind)} refused to let Packgate clone the repository. Connect it again on Code hosts, then refresh the package.`;
        }
        return 'The code host refused to let Packgate clone the repository. Connect it again on Code hosts, then refresh the package.';
      case 'NOT_FOUND':
        return 'The repository could not be cloned: it no longer exists or is no longer visible to the package owner.';
      case 'UNREACHABLE':
        return 'The code host could not be reached to clone the repository. Please refresh later.';
      case 'TIMEOUT':
        return 'Cloning the repository took too long. Please refresh later.';
      default:
        // GitError messages are summarised by the git adapter with credentials removed.
        return `git failed while reading the repository: ${error.message}`;
    }
  }
  return 'An unexpected error stopped the sync. Please refresh the package; if it keeps failing, contact support.';
}
