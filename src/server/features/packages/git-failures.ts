import { GitError } from '../../adapters/git/git-command.js';
import { MAX_REFERENCES_BYTES } from '../../adapters/git/git-remote.js';
import { PrivateAddressError } from '../../adapters/git/remote-address.js';
import { AppError } from '../../http/errors.js';

// What went wrong with a seller's git server (issue 30 item 4), in words that say what to do. git's own output is
// summarised by the git adapter with credentials removed; none of these messages carries a password or key.

export type GitServerPlace = { host: string; isSsh: boolean; fingerprint?: string | null };

const RETRY = 'Please try again later.';

/** Where a package of any git server reads from, for its failures' messages; undefined for other hosts. */
export function gitServerPlaceOf(pkg: {
  codeHost: string;
  repositoryUrl: string | null;
  repositoryFullName: string;
  sshHostKeyFingerprint: string | null;
}): GitServerPlace | undefined {
  if (pkg.codeHost !== 'git') return undefined;
  return {
    host: pkg.repositoryFullName.split('/')[0] ?? 'The git server',
    isSsh: pkg.repositoryUrl?.startsWith('ssh:') ?? false,
    fingerprint: pkg.sshHostKeyFingerprint,
  };
}

/** The seller's sentence for a failure reading the git server, or undefined when it is not a git failure. */
export function describeGitServerFailure(error: unknown, place: GitServerPlace): string | undefined {
  if (error instanceof PrivateAddressError) {
    return error.reason === 'not-resolved'
      ? `${error.message} Check the repository URL.`
      : `${error.message} Use the server's public address, or ask the operator to set CODE_HOST_ALLOW_PRIVATE_NETWORKS=true.`;
  }
  if (!(error instanceof GitError)) return undefined;
  const { host } = place;
  switch (error.code) {
    case 'AUTH_FAILED':
      return place.isSsh
        ? `${host} refused Packgate's deploy key. Add the package's deploy key to the repository as a read-only deploy key, then click Sync now.`
        : `${host} refused the user name and password. Check them (a token needs read access to the repository), then add the package again with the working ones.`;
    case 'HOST_KEY_MISMATCH':
      return `The SSH host key of ${host} is not the one pinned when the package was added${place.fingerprint ? ` (${place.fingerprint})` : ''}, so Packgate does not read from it: the server may be impersonated. If its administrators really changed the key, delete the package and add it again.`;
    case 'NOT_FOUND':
      return `${host} has no such repository, or the credentials cannot see it. Check the repository URL.`;
    case 'UNREACHABLE':
      return `${host} could not be reached. ${RETRY}`;
    case 'TIMEOUT':
      return `${host} took too long to answer. ${RETRY}`;
    case 'OUTPUT_TOO_LARGE':
      return /larger than/.test(error.detail)
        ? `${host} sent more than Packgate keeps: ${error.detail}. Packgate stopped reading it.`
        : `${host} listed more than ${MAX_REFERENCES_BYTES / 1048576} MB of tags and branches; Packgate stopped reading them.`;
    case 'INVALID_ARGUMENT':
      return `The repository URL cannot be used: ${error.detail}.`;
    default:
      if (/returned error: 30[1278]/.test(error.detail)) {
        return `${host} answered with a redirect, which Packgate does not follow. Give the repository's final URL.`;
      }
      return `git failed while reading ${host}: ${error.detail || error.code}.`;
  }
}

/** The failure as an API error naming `repositoryUrl`; other errors pass through unchanged. */
export function gitServerAppError(error: unknown, place: GitServerPlace): unknown {
  const message = describeGitServerFailure(error, place);
  if (message === undefined) return error;
  if (error instanceof GitError && (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT')) {
    return new AppError('UNAVAILABLE', message, { title: 'Git Server Unavailable' });
  }
  return new AppError('BAD_REQUEST', `repositoryUrl: ${message}`, { title: 'Repository Not Readable' });
}
