import pLimit from 'p-limit';
import type { CloneSource } from '../git/git-mirror.js';

// A code host supplies what only it knows: which repositories a seller may use, and how to clone them.
// Tags, branches, composer.json per reference and zips then come from a mirror clone (adapters/git),
// never from one API call per tag. The implementations: the local folder (GIT_REPOS_DIR, the embedded
// default); GitHub / GitHub Enterprise Server, GitLab and Bitbucket through their REST APIs with the seller's
// token; any git server by URL (git-server-code-host.ts).

export type { CloneSource, GitAuth } from '../git/git-mirror.js';

/** Who is asking. The service decrypts the stored token; hosts that need none ignore it. */
export type CodeHostUser = {
  id: string;
  /** The seller's code-host access token (GitHub); absent when not connected. */
  accessToken?: string;
  /** Any git server over HTTPS: the user name and password (or token) of basic authentication. */
  username?: string;
  password?: string;
  /** Any git server over SSH: the package's deploy key (OpenSSH private key) and its pinned known_hosts line. */
  sshPrivateKey?: string;
  sshKnownHosts?: string;
};

export type CodeHostRepository = {
  /** Stable across renames where the host allows: GitHub's numeric id as a string; the local host's relative path. */
  id: string;
  /** `widget` */
  name: string;
  /** `acme/widget`; the local host says `local/widget` for repositories at the top of its folder. */
  fullName: string;
  description: string | null;
  private: boolean;
  /** The branch HEAD names; null for a detached HEAD. */
  defaultBranch: string | null;
  /** Whether the default branch's tree has a composer.json at its root (only those can become packages). */
  hasComposerJson: boolean;
  /** The package name composer.json declares, if any: what the package must be called. */
  composerName: string | null;
};

/** Reads one file of a repository at a ref; undefined when the file (or the ref) is missing. */
export type RepositoryFileReader = (ref: string, filePath: string) => Promise<string | undefined>;

/**
 * A repository of a host's API as the port describes it (GitLab, Bitbucket): the host's facts, and what its default
 * branch's composer.json says. An empty repository has no default branch, so no composer.json.
 */
export async function describeRepository(
  facts: Omit<CodeHostRepository, 'hasComposerJson' | 'composerName'>,
  readFile: RepositoryFileReader,
): Promise<CodeHostRepository> {
  const composerJson = await readDefaultBranchFile(facts, 'composer.json', readFile);
  return { ...facts, hasComposerJson: composerJson !== undefined, composerName: composerNameOf(composerJson) };
}

/** How many listed repositories are described at once: each reads its composer.json from the host. */
const DESCRIBE_CONCURRENCY = 8;

/** Describes every repository a host listed, a few at a time, in the picker's order: by full name, then id. */
export async function describeListed<T>(
  listed: readonly T[],
  describe: (item: T) => Promise<CodeHostRepository>,
): Promise<CodeHostRepository[]> {
  const repositories = await pLimit(DESCRIBE_CONCURRENCY).map(listed, describe);
  return repositories.sort((a, b) => a.fullName.localeCompare(b.fullName) || a.id.localeCompare(b.id));
}

/** The seller's access token for a host's API, or the refusal that says the host is not connected. */
export function requireAccessToken(user: CodeHostUser, host: 'GitHub' | 'GitLab' | 'Bitbucket'): string {
  if (!user.accessToken) throw new CodeHostError('UNAUTHORIZED', `${host} is not connected to this account.`);
  return user.accessToken;
}

/** A file of the repository's default branch; undefined without one. */
export function readDefaultBranchFile(
  repository: Pick<CodeHostRepository, 'defaultBranch'>,
  filePath: string,
  readFile: RepositoryFileReader,
): Promise<string | undefined> {
  return repository.defaultBranch ? readFile(repository.defaultBranch, filePath) : Promise.resolve(undefined);
}

/** The `name` a composer.json declares, lower-cased; null when missing, not a string, or not JSON. */
export function composerNameOf(composerJson: string | undefined): string | null {
  if (composerJson === undefined) return null;
  try {
    const name = (JSON.parse(composerJson) as { name?: unknown }).name;
    return typeof name === 'string' && name.trim() !== '' ? name.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

export type CodeHostKind = 'local' | 'github' | 'gitlab' | 'bitbucket' | 'git';

export interface CodeHost {
  readonly kind: CodeHostKind;
  /** Every repository the user may turn into a package, sorted by fullName. */
  listRepositories(user: CodeHostUser): Promise<CodeHostRepository[]>;
  /** Throws CodeHostError NOT_FOUND when the repository is unknown or not visible to the user. */
  getRepository(user: CodeHostUser, id: string): Promise<CodeHostRepository>;
  /** What `syncMirror` needs: a local path, or an https URL with the user's token as auth. */
  cloneSource(user: CodeHostUser, repository: CodeHostRepository): Promise<CloneSource>;
  /**
   * A file of the default branch (e.g. composer.json, to check a package name before the first sync), or
   * undefined when the branch has no such file.
   */
  readDefaultBranchFile(
    user: CodeHostUser,
    repository: CodeHostRepository,
    filePath: string,
  ): Promise<string | undefined>;
  /** Asks the host to call `url` on every push, signed with `secret`; only hosts with webhooks have it. */
  createPushWebhook?(user: CodeHostUser, repository: CodeHostRepository, hook: PushWebhook): Promise<{ id: string }>;
  /** Removes a webhook created by createPushWebhook; a hook already gone is not an error. */
  deletePushWebhook?(user: CodeHostUser, repositoryFullName: string, hookId: string): Promise<void>;
}

export type PushWebhook = { url: string; secret: string };

export type CodeHostErrorCode =
  /** Unknown repository, or one the user cannot see (GitHub answers 404 for both). */
  | 'NOT_FOUND'
  /** No token, or the host refused it (revoked, expired, missing scope). */
  | 'UNAUTHORIZED'
  /** The host's rate limit; `retryAt` when the host says. */
  | 'RATE_LIMITED'
  /** The host did not answer, or answered with a server error. */
  | 'UNAVAILABLE';

/** A code-host failure; its message is safe to show and log (never a token). */
export class CodeHostError extends Error {
  constructor(
    readonly code: CodeHostErrorCode,
    message: string,
    readonly options: { retryAt?: Date } = {},
  ) {
    super(message);
    this.name = 'CodeHostError';
  }

  /**
   * A rate limit's Retry-After in seconds: until the host's reset (at least 1), or 60 when it named none. The reset is
   * wall-clock time, like the moment the client will retry.
   */
  get retryAfterSeconds(): number {
    const { retryAt } = this.options;
    return retryAt ? Math.max(1, Math.ceil((retryAt.getTime() - Date.now()) / 1000)) : 60;
  }
}
