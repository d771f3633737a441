import { GitError } from '../git/git-command.js';
import {
  listRemoteReferences,
  parseRemoteUrl,
  type RemoteAccess,
  type RemoteCredentials,
  readRemoteFile,
  withoutTrailing,
} from '../git/git-remote.js';
import { checkRemoteAddress } from '../git/remote-address.js';
import type { AddressResolver } from '../http-delivery/public-address.js';
import type { CloneSource, CodeHost, CodeHostRepository, CodeHostUser } from './code-host.js';

// Any git server by URL (issue 30 item 4): a repository is its URL, read with git itself (ls-remote for the default
// branch, a shallow fetch for one file, the mirror's fetch for the rest). There is no API to list repositories: the
// seller names the URL. Credentials come with the user: a user name and password for HTTPS (the connection's), a
// deploy key and the pinned host key for SSH (the package's). Failures are GitErrors (git's verdicts, credentials
// removed) or PrivateAddressErrors (remote-address.ts), which the packages domain tells the seller in words.

export type GitServerOptions = {
  resolver: AddressResolver;
  /** CODE_HOST_ALLOW_PRIVATE_NETWORKS: whether URLs may point at private, loopback or link-local addresses. */
  allowPrivateNetworks: boolean;
  /** What one fetch may add to a mirror, in bytes. */
  maxFetchBytes?: number;
};

/** `git.example.com/acme/widget` (the port kept when it is not the protocol's own): the repository as sellers read it. */
export function repositoryFullNameOf(url: URL): string {
  const repositoryPath = withoutTrailing(url.pathname, '/')
    .replace(/\.git$/, '')
    .replace(/^\/+/, '');
  return `${url.host}/${repositoryPath}`;
}

export class GitServerCodeHost implements CodeHost {
  readonly kind = 'git' as const;

  constructor(private readonly options: GitServerOptions) {}

  /** Nothing to list: a git server is added by the URL of each repository. */
  async listRepositories(_user: CodeHostUser): Promise<CodeHostRepository[]> {
    return [];
  }

  /** Asks the server for its references (which also proves the credentials), bounded. */
  async getRepository(user: CodeHostUser, id: string): Promise<CodeHostRepository> {
    const url = parseRemoteUrl(id);
    const references = await listRemoteReferences(url.href, await this.accessFor(user, url));
    const fullName = repositoryFullNameOf(url);
    return {
      id: url.href,
      name: fullName.split('/').pop() ?? fullName,
      fullName,
      description: null,
      private: true,
      defaultBranch: references.defaultBranch,
      // Known only once a file is read (readDefaultBranchFile); the packages domain reads composer.json itself.
      hasComposerJson: true,
      composerName: null,
    };
  }

  async cloneSource(user: CodeHostUser, repository: CodeHostRepository): Promise<CloneSource> {
    const url = parseRemoteUrl(repository.id);
    return { source: url.href, access: await this.accessFor(user, url) };
  }

  async readDefaultBranchFile(
    user: CodeHostUser,
    repository: CodeHostRepository,
    filePath: string,
  ): Promise<string | undefined> {
    if (!repository.defaultBranch) return undefined;
    const url = parseRemoteUrl(repository.id);
    return readRemoteFile(url.href, await this.accessFor(user, url), repository.defaultBranch, filePath);
  }

  /** The checked address and the credentials for one call; the guard runs again at every call (DNS may change). */
  async accessFor(user: CodeHostUser, url: URL): Promise<RemoteAccess> {
    const address = await checkRemoteAddress(url, this.options.resolver, this.options.allowPrivateNetworks);
    return { address, credentials: credentialsOf(user, url), maxFetchBytes: this.options.maxFetchBytes };
  }
}

function credentialsOf(user: CodeHostUser, url: URL): RemoteCredentials | undefined {
  if (url.protocol === 'ssh:') {
    if (!user.sshPrivateKey) throw new GitError('AUTH_FAILED', 'ls-remote', 'the package has no deploy key');
    return { kind: 'ssh', privateKey: user.sshPrivateKey, knownHosts: user.sshKnownHosts ?? null };
  }
  if (user.username !== undefined && user.password !== undefined) {
    return { kind: 'basic', username: user.username, password: user.password };
  }
  return undefined;
}
