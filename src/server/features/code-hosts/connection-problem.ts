import { CodeHostError } from '../../adapters/codehost/code-host.js';
import { GitError } from '../../adapters/git/git-command.js';

// What a seller reads when a code host refuses a connection's credential: what happened, what to do, and that
// Composer keeps serving. One wording whichever package's sync met the refusal, so the connection's problem stays
// the same problem and its owner is e-mailed once.

const SERVED = 'Every version already published is still served to your license holders.';

/** The host's name in a sentence, by package host or connection kind. */
export function hostNameOf(kind: string): string {
  if (kind === 'gitlab') return 'GitLab';
  if (kind === 'bitbucket') return 'Bitbucket';
  if (kind === 'git') return 'the git server';
  if (kind === 'local') return 'the local folder';
  return 'GitHub';
}

/** Whether the error is the host refusing the credential (401/403 on its API, git's authentication failing). */
export function isCredentialRefusal(error: unknown): error is CodeHostError | GitError {
  return (
    (error instanceof CodeHostError && error.code === 'UNAUTHORIZED') ||
    (error instanceof GitError && error.code === 'AUTH_FAILED')
  );
}

/** The problem text of a refused credential. */
export function credentialProblem(kind: string, error: CodeHostError | GitError): string {
  const host = hostNameOf(kind);
  const said = error instanceof CodeHostError ? `${error.message} ` : `${host} refused Packgate's credential. `;
  const remedy = /Code hosts/.test(said)
    ? ''
    : `Connect ${host} again on Code hosts (a new token, or authorize again), then refresh the package. `;
  return `${said}${remedy}${/still served/.test(said) ? '' : SERVED}`.trim();
}
