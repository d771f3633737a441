import { createSign } from 'node:crypto';
import type { CloneSource } from '../git/git-mirror.js';
import { type CodeHost, CodeHostError, type CodeHostRepository, type CodeHostUser } from './code-host.js';
import type { GithubCodeHost } from './github-code-host.js';

// A GitHub App (github.com or GHES): the App's key signs a short JWT (RS256, docs.github.com "Generating a JSON Web
// Token (JWT) for a GitHub App"), which buys a one-hour installation token limited to the repositories the seller
// picked and to Contents: read and Metadata: read. The token lives in memory only, until five minutes before it
// expires; nothing long-lived is stored for code.

export type GithubAppSettings = { appId: string; privateKey: string; apiUrl: string };

export type GithubInstallation = {
  id: number;
  account: { login: string; id: number; type: string } | null;
  repositorySelection: 'all' | 'selected';
  permissions: Record<string, string>;
  suspendedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const REQUEST_TIMEOUT_MS = 15_000;
/** A cached token is used until this long before it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;
/** What Packgate asks of every installation token: read the code, nothing else. */
export const GITHUB_APP_PERMISSIONS = { contents: 'read', metadata: 'read' } as const;

export class GithubAppClient {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    readonly settings: GithubAppSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The App's own JWT: issued a minute in the past against clock drift, valid nine minutes (GitHub allows ten). */
  appJwt(): string {
    const issuedAt = Math.floor(this.now() / 1000) - 60;
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: issuedAt, exp: issuedAt + 600 - 60, iss: this.settings.appId })}`;
    const signature = createSign('RSA-SHA256').update(unsigned).sign(this.settings.privateKey).toString('base64url');
    return `${unsigned}.${signature}`;
  }

  /** GET /app/installations/{id}; NOT_FOUND when it does not exist (or belongs to another App). */
  async getInstallation(installationId: string): Promise<GithubInstallation> {
    const data = (await this.request('GET', `/app/installations/${installationId}`)) as {
      id: number;
      account?: { login: string; id: number; type: string } | null;
      repository_selection: 'all' | 'selected';
      permissions?: Record<string, string>;
      suspended_at?: string | null;
      created_at: string;
      updated_at: string;
    };
    return {
      id: data.id,
      account: data.account ?? null,
      repositorySelection: data.repository_selection,
      permissions: data.permissions ?? {},
      suspendedAt: data.suspended_at ?? null,
      createdAt: data.created_at,
      updatedAt: data.updated_at,
    };
  }

  /** A token of the installation for one sync or listing, minted when the cached one is near its end. */
  async installationToken(installationId: string): Promise<string> {
    const cached = this.tokens.get(installationId);
    if (cached && cached.expiresAt - TOKEN_MARGIN_MS > this.now()) return cached.token;
    const data = (await this.request('POST', `/app/installations/${installationId}/access_tokens`, {
      permissions: GITHUB_APP_PERMISSIONS,
    })) as { token: string; expires_at: string };
    this.tokens.set(installationId, { token: data.token, expiresAt: Date.parse(data.expires_at) });
    return data.token;
  }

  /** Forgets the installation's token (uninstalled, suspended). */
  forget(installationId: string): void {
    this.tokens.delete(installationId);
  }

  private async request(method: string, path: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.settings.apiUrl}${path}`, {
        method,
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${this.appJwt()}`,
          'user-agent': 'Packgate',
          'x-github-api-version': '2022-11-28',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch {
      throw new CodeHostError('UNAVAILABLE', 'GitHub could not be reached.');
    }
    if (response.ok) return response.json();
    if (response.status === 404) {
      throw new CodeHostError('UNAUTHORIZED', 'The GitHub App is no longer installed on this account.');
    }
    if (response.status === 403) {
      throw new CodeHostError('UNAUTHORIZED', 'The GitHub App’s installation is suspended on this account.');
    }
    if (response.status === 401) {
      throw new CodeHostError('UNAVAILABLE', 'GitHub refused the App’s key: check GITHUB_APP_ID and its private key.');
    }
    throw new CodeHostError('UNAVAILABLE', `GitHub answered HTTP ${response.status}.`);
  }
}

/**
 * The code host of one installation: the caller's `accessToken` is an installation token. No per-repository webhooks:
 * the App's own webhook hears every push.
 */
export class GithubAppCodeHost implements CodeHost {
  readonly kind = 'github' as const;

  constructor(private readonly github: GithubCodeHost) {}

  listRepositories(user: CodeHostUser): Promise<CodeHostRepository[]> {
    return this.github.listInstallationRepositories(user);
  }

  getRepository(user: CodeHostUser, id: string): Promise<CodeHostRepository> {
    return this.github.getRepository(user, id);
  }

  cloneSource(user: CodeHostUser, repository: CodeHostRepository): Promise<CloneSource> {
    return this.github.cloneSource(user, repository);
  }

  readDefaultBranchFile(user: CodeHostUser, repository: CodeHostRepository, filePath: string) {
    return this.github.readDefaultBranchFile(user, repository, filePath);
  }
}
