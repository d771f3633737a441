import type { CloneSource } from '../git/git-mirror.js';
import {
  type CodeHost,
  CodeHostError,
  type CodeHostRepository,
  type CodeHostUser,
  describeListed,
  describeRepository,
  type PushWebhook,
  readDefaultBranchFile,
  requireAccessToken,
} from './code-host.js';
import {
  assertRemoved,
  callHostApi,
  fileTextOf,
  hostApiError,
  okJson,
  parseJson,
  withoutTrailingSlashes,
} from './host-api.js';

// GitLab (gitlab.com or self-managed) through REST API v4 with an OAuth token (scopes read_api and read_repository)
// or a project/group access token. The API answers which projects the credential can read and whether their
// default branch holds a composer.json; git clones over HTTPS with `oauth2:<token>`. Tags and branches then come
// from the mirror clone. Push hooks need a Maintainer's `api` scope: with the least access Packgate asks for, the
// hook is usually refused and reconciliation (git ls-remote) keeps packages current instead.

export type GitlabCodeHostSettings = {
  /** The instance's web address, e.g. https://gitlab.com or https://gitlab.example.com/gitlab. */
  baseUrl: string;
};

const HOST = 'GitLab';
const PAGE_SIZE = 100;
/** A bound on the projects listed (20 pages of 100): beyond it the seller picks by search on GitLab's side. */
const MAX_PAGES = 20;

/** The fields of GitLab's project (docs.gitlab.com: "Projects API") that Packgate reads. */
export type GitlabProject = {
  id: number;
  name: string;
  path_with_namespace: string;
  description: string | null;
  visibility?: 'private' | 'internal' | 'public';
  default_branch?: string | null;
  archived?: boolean;
};

export class GitlabCodeHost implements CodeHost {
  readonly kind = 'gitlab' as const;
  private readonly apiUrl: string;

  constructor(private readonly settings: GitlabCodeHostSettings) {
    this.apiUrl = `${withoutTrailingSlashes(settings.baseUrl)}/api/v4`;
  }

  async listRepositories(user: CodeHostUser): Promise<CodeHostRepository[]> {
    const token = requireAccessToken(user, HOST);
    const projects: GitlabProject[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      // membership=true: what the credential was given, not every public project of the instance.
      const answer = await this.get(
        token,
        `/projects?membership=true&archived=false&order_by=id&sort=asc&per_page=${PAGE_SIZE}&page=${page}`,
      );
      const batch = parseJson<GitlabProject[]>(HOST, answer);
      if (!Array.isArray(batch)) throw new CodeHostError('UNAVAILABLE', 'GitLab answered the project list oddly.');
      projects.push(...batch);
      if (!answer.headers.get('x-next-page') || batch.length < PAGE_SIZE) break;
    }
    return describeListed(projects, (project) => this.describe(token, project));
  }

  async getRepository(user: CodeHostUser, id: string): Promise<CodeHostRepository> {
    // The numeric project id follows a project through renames and transfers, unlike its path.
    if (!/^\d{1,20}$/.test(id)) throw projectNotFound(id);
    const token = requireAccessToken(user, HOST);
    const answer = await this.call({ token, path: `/projects/${id}` });
    if (answer.status === 404) throw projectNotFound(id);
    return this.describe(token, okJson<GitlabProject>(HOST, answer));
  }

  async cloneSource(user: CodeHostUser, repository: CodeHostRepository): Promise<CloneSource> {
    const token = requireAccessToken(user, HOST);
    // GitLab takes any user name with an OAuth or access token as password; `oauth2` is the documented one.
    return {
      source: `${withoutTrailingSlashes(this.settings.baseUrl)}/${repository.fullName}.git`,
      auth: { token, username: 'oauth2' },
    };
  }

  async readDefaultBranchFile(
    user: CodeHostUser,
    repository: CodeHostRepository,
    filePath: string,
  ): Promise<string | undefined> {
    return readDefaultBranchFile(repository, filePath, (ref, file) =>
      this.readFile(requireAccessToken(user, HOST), repository.id, ref, file),
    );
  }

  async createPushWebhook(
    user: CodeHostUser,
    repository: CodeHostRepository,
    hook: PushWebhook,
  ): Promise<{ id: string }> {
    const answer = await this.call({
      token: requireAccessToken(user, HOST),
      path: `/projects/${repository.id}/hooks`,
      method: 'POST',
      json: {
        url: hook.url,
        // GitLab sends it back verbatim in X-Gitlab-Token.
        token: hook.secret,
        push_events: true,
        tag_push_events: true,
        enable_ssl_verification: true,
      },
    });
    return { id: String(okJson<{ id: number }>(HOST, answer, [201, 200]).id) };
  }

  async deletePushWebhook(user: CodeHostUser, repositoryFullName: string, hookId: string): Promise<void> {
    if (!/^\d{1,20}$/.test(hookId)) return;
    const answer = await this.call({
      token: requireAccessToken(user, HOST),
      path: `/projects/${encodeURIComponent(repositoryFullName)}/hooks/${hookId}`,
      method: 'DELETE',
    });
    assertRemoved(HOST, answer);
  }

  private describe(token: string, project: GitlabProject): Promise<CodeHostRepository> {
    return describeRepository(
      {
        id: String(project.id),
        name: project.name,
        fullName: project.path_with_namespace,
        description: project.description || null,
        private: project.visibility !== 'public',
        defaultBranch: project.default_branch ?? null,
      },
      (ref, filePath) => this.readFile(token, String(project.id), ref, filePath),
    );
  }

  /** A file at `ref` through the repository files API; undefined when the file or the ref is missing. */
  private async readFile(token: string, projectId: string, ref: string, filePath: string): Promise<string | undefined> {
    const answer = await this.call({
      token,
      path: `/projects/${projectId}/repository/files/${encodeURIComponent(filePath)}/raw?ref=${encodeURIComponent(ref)}`,
    });
    return fileTextOf(HOST, answer);
  }

  private async get(token: string, path: string) {
    const answer = await this.call({ token, path });
    if (answer.status !== 200) throw hostApiError(HOST, answer);
    return answer;
  }

  private call(options: { token: string; path: string; method?: 'GET' | 'POST' | 'DELETE'; json?: unknown }) {
    return callHostApi({
      host: HOST,
      url: `${this.apiUrl}${options.path}`,
      method: options.method,
      token: options.token,
      json: options.json,
    });
  }
}

function projectNotFound(id: string): CodeHostError {
  return new CodeHostError('NOT_FOUND', `Project ${JSON.stringify(id.slice(0, 200))} was not found on GitLab`);
}
