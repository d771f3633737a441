import { Octokit } from '@octokit/rest';
import type { CloneSource } from '../git/git-mirror.js';
import {
  type CodeHost,
  CodeHostError,
  type CodeHostRepository,
  type CodeHostUser,
  composerNameOf,
  describeListed,
  type PushWebhook,
  requireAccessToken,
} from './code-host.js';

// GitHub and GitHub Enterprise Server through the REST API with the seller's own OAuth token (scope `repo`).
// The API answers what only GitHub knows: which repositories the seller may use, whether their default
// branch holds a composer.json, and where to clone them. Tags, branches and files per reference then come
// from a mirror clone (adapters/git), never from one API call per tag.
//
// Listing checks composer.json with one contents call per repository, because nothing cheaper answers it
// for private repositories: code search has its own limit of 10 requests a minute, searches only the
// default branch of indexed repositories (new and recently pushed ones lag), and cannot span every
// organisation a token reaches. The checks run a few at a time and are remembered per user and per
// repository `pushed_at`, so a second listing only asks again about repositories pushed since.

export type GithubCodeHostSettings = { webUrl: string; apiUrl: string };

const REQUEST_TIMEOUT_MS = 15_000;
const COMPOSER_CHECK_TTL_MS = 60 * 60_000;
const COMPOSER_CHECK_CACHE_LIMIT = 20_000;
const AFFILIATION = 'owner,collaborator,organization_member';
/** Events that can add, move or remove a tag or branch. */
const WEBHOOK_EVENTS = ['push', 'create', 'delete'];

type GithubRepository = {
  id: number;
  name: string;
  full_name: string;
  description: string | null;
  private: boolean;
  default_branch?: string | null;
  pushed_at?: string | null;
};

type HttpError = Error & {
  status: number;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
};

export class GithubCodeHost implements CodeHost {
  readonly kind = 'github' as const;
  private readonly composerChecks = new Map<
    string,
    { hasComposerJson: boolean; composerName: string | null; expiresAt: number }
  >();

  constructor(
    private readonly settings: GithubCodeHostSettings,
    private readonly now: () => number = Date.now,
  ) {}

  async listRepositories(user: CodeHostUser): Promise<CodeHostRepository[]> {
    const octokit = this.client(user);
    const listed = await call(() =>
      octokit.paginate(octokit.rest.repos.listForAuthenticatedUser, { affiliation: AFFILIATION, per_page: 100 }),
    );
    return describeListed(listed as GithubRepository[], (repo) => this.describe(octokit, user, repo));
  }

  /** The repositories a GitHub App installation was given (the user's token is the installation's), by fullName. */
  async listInstallationRepositories(user: CodeHostUser): Promise<CodeHostRepository[]> {
    const octokit = this.client(user);
    const listed = await call(() =>
      octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 }),
    );
    return describeListed(listed as unknown as GithubRepository[], (repo) => this.describe(octokit, user, repo));
  }

  async getRepository(user: CodeHostUser, id: string): Promise<CodeHostRepository> {
    // GitHub's numeric id follows a repository through renames and transfers, unlike its name.
    if (!/^\d{1,20}$/.test(id)) throw repositoryNotFound(id);
    const octokit = this.client(user);
    const repo = await call(
      async () =>
        (await octokit.request('GET /repositories/{repository_id}', { repository_id: Number(id) }))
          .data as GithubRepository,
      {
        notFound: () => {
          throw repositoryNotFound(id);
        },
      },
    );
    return this.describe(octokit, user, repo, { fresh: true });
  }

  async cloneSource(user: CodeHostUser, repository: CodeHostRepository): Promise<CloneSource> {
    const token = requireAccessToken(user, 'GitHub');
    return { source: `${this.settings.webUrl}/${repository.fullName}.git`, auth: { token } };
  }

  async readDefaultBranchFile(
    user: CodeHostUser,
    repository: CodeHostRepository,
    filePath: string,
  ): Promise<string | undefined> {
    return readContents(this.client(user), repository.fullName, filePath);
  }

  async createPushWebhook(
    user: CodeHostUser,
    repository: CodeHostRepository,
    hook: PushWebhook,
  ): Promise<{ id: string }> {
    const octokit = this.client(user);
    const [owner, repo] = splitFullName(repository.fullName);
    const created = await call(() =>
      octokit.rest.repos.createWebhook({
        owner,
        repo,
        name: 'web',
        active: true,
        events: WEBHOOK_EVENTS,
        config: { url: hook.url, content_type: 'json', secret: hook.secret, insecure_ssl: '0' },
      }),
    );
    return { id: String(created.data.id) };
  }

  async deletePushWebhook(user: CodeHostUser, repositoryFullName: string, hookId: string): Promise<void> {
    const octokit = this.client(user);
    const [owner, repo] = splitFullName(repositoryFullName);
    await call(() => octokit.rest.repos.deleteWebhook({ owner, repo, hook_id: Number(hookId) }), {
      notFound: () => undefined,
    });
  }

  private client(user: CodeHostUser): Octokit {
    const token = requireAccessToken(user, 'GitHub');
    return new Octokit({
      auth: token,
      baseUrl: this.settings.apiUrl,
      userAgent: 'Packgate',
      request: {
        fetch: (url: string | URL, init?: RequestInit) =>
          fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
      },
      // Octokit logs deprecation notices and failed requests to the console; errors reach us as exceptions.
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
  }

  private async describe(
    octokit: Octokit,
    user: CodeHostUser,
    repo: GithubRepository,
    options: { fresh?: boolean } = {},
  ): Promise<CodeHostRepository> {
    const cacheKey = `${user.id}:${repo.id}:${repo.pushed_at ?? ''}:${repo.default_branch ?? ''}`;
    const cached = this.composerChecks.get(cacheKey);
    let composer: { hasComposerJson: boolean; composerName: string | null };
    if (!options.fresh && cached && cached.expiresAt > this.now()) {
      composer = cached;
    } else {
      const composerJson = await readContents(octokit, repo.full_name, 'composer.json');
      composer = { hasComposerJson: composerJson !== undefined, composerName: composerNameOf(composerJson) };
      this.remember(cacheKey, composer);
    }
    return {
      id: String(repo.id),
      name: repo.name,
      fullName: repo.full_name,
      description: repo.description || null,
      private: repo.private,
      defaultBranch: repo.default_branch ?? null,
      hasComposerJson: composer.hasComposerJson,
      composerName: composer.composerName,
    };
  }

  private remember(key: string, composer: { hasComposerJson: boolean; composerName: string | null }): void {
    if (this.composerChecks.size >= COMPOSER_CHECK_CACHE_LIMIT) {
      const now = this.now();
      for (const [entry, value] of this.composerChecks) if (value.expiresAt <= now) this.composerChecks.delete(entry);
      // Still full of fresh entries: drop the oldest half (Map keeps insertion order).
      if (this.composerChecks.size >= COMPOSER_CHECK_CACHE_LIMIT) {
        let toDrop = Math.ceil(this.composerChecks.size / 2);
        for (const entry of this.composerChecks.keys()) {
          if (toDrop-- <= 0) break;
          this.composerChecks.delete(entry);
        }
      }
    }
    this.composerChecks.set(key, {
      hasComposerJson: composer.hasComposerJson,
      composerName: composer.composerName,
      expiresAt: this.now() + COMPOSER_CHECK_TTL_MS,
    });
  }
}

/** A file of the default branch through the contents API; undefined when missing or not a file. */
async function readContents(octokit: Octokit, fullName: string, filePath: string): Promise<string | undefined> {
  const [owner, repo] = splitFullName(fullName);
  const data = await call(
    async () => (await octokit.rest.repos.getContent({ owner, repo, path: filePath })).data as unknown,
    // An empty repository answers 404 too ("This repository is empty").
    { notFound: () => undefined },
  );
  if (!data || Array.isArray(data)) return undefined;
  const file = data as { type?: string; encoding?: string; content?: string };
  if (file.type !== 'file' || typeof file.content !== 'string') return undefined;
  return file.encoding === 'base64' ? Buffer.from(file.content, 'base64').toString('utf8') : file.content;
}

function splitFullName(fullName: string): [string, string] {
  const [owner, repo, ...rest] = fullName.split('/');
  if (!owner || !repo || rest.length > 0) throw repositoryNotFound(fullName);
  return [owner, repo];
}

function repositoryNotFound(id: string): CodeHostError {
  return new CodeHostError('NOT_FOUND', `Repository ${JSON.stringify(id.slice(0, 200))} was not found on GitHub`);
}

function isHttpError(error: unknown): error is HttpError {
  return error instanceof Error && typeof (error as Partial<HttpError>).status === 'number';
}

/** Runs a GitHub call, turning its failures into CodeHostErrors; `notFound` decides what a 404 means. */
async function call<T, F = never>(work: () => Promise<T>, options: { notFound?: () => F } = {}): Promise<T | F> {
  try {
    return await work();
  } catch (error) {
    if (isHttpError(error) && error.status === 404 && options.notFound) return options.notFound();
    throw toCodeHostError(error);
  }
}

/** GitHub's answers as CodeHostErrors (docs.github.com: "Rate limits for the REST API", "Troubleshooting"). */
export function toCodeHostError(error: unknown, now: number = Date.now()): CodeHostError {
  if (error instanceof CodeHostError) return error;
  if (!isHttpError(error)) {
    return new CodeHostError('UNAVAILABLE', 'GitHub could not be reached.');
  }
  const headers = error.response?.headers ?? {};
  const header = (name: string) => {
    const value = headers[name];
    return value === undefined ? undefined : String(value);
  };
  const remaining = header('x-ratelimit-remaining');
  const reset = Number(header('x-ratelimit-reset'));
  const retryAfter = Number(header('retry-after'));
  const isRateLimited =
    error.status === 429 || (error.status === 403 && (remaining === '0' || Number.isFinite(retryAfter)));
  if (isRateLimited) {
    let retryAt: Date | undefined;
    if (Number.isFinite(retryAfter) && retryAfter >= 0) retryAt = new Date(now + retryAfter * 1000);
    else if (remaining === '0' && Number.isFinite(reset) && reset > 0) retryAt = new Date(reset * 1000);
    return new CodeHostError('RATE_LIMITED', 'GitHub API rate limit exceeded.', { retryAt });
  }
  if (error.status === 401) {
    return new CodeHostError('UNAUTHORIZED', 'GitHub refused the stored access token.');
  }
  if (error.status === 403) {
    // e.g. an organisation's SAML enforcement or OAuth app restrictions: the token lacks access.
    return new CodeHostError('UNAUTHORIZED', `GitHub refused access: ${githubMessage(error)}`);
  }
  if (error.status === 404) return new CodeHostError('NOT_FOUND', 'GitHub answered 404 Not Found.');
  if (error.status >= 500) {
    return new CodeHostError('UNAVAILABLE', `GitHub is not answering properly (HTTP ${error.status}).`);
  }
  return new CodeHostError('UNAVAILABLE', `GitHub answered HTTP ${error.status}: ${githubMessage(error)}`);
}

function githubMessage(error: HttpError): string {
  const data = error.response?.data as { message?: unknown } | undefined;
  const message = typeof data?.message === 'string' ? data.message : 'no details';
  return message.length > 200 ? `${message.slice(0, 197)}...` : message;
}
