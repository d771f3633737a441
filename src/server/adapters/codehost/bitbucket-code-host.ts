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
  type HostApiAnswer,
  okJson,
  withoutTrailingSlashes,
} from './host-api.js';

// Bitbucket Cloud through REST API 2.0 with a workspace or repository access token (docs: "Access Tokens", scopes
// repository and webhook). An access token belongs to a workspace or to one repository, not to a person, so a host
// is made per connection: it lists the workspace's repositories, or the one repository. Git clones over HTTPS with
// `x-token-auth:<token>`. App passwords are not accepted: Bitbucket ends them on 2026-06-09.

export type BitbucketCodeHostSettings = {
  /** https://api.bitbucket.org/2.0 */
  apiUrl: string;
  /** https://bitbucket.org: where git clones from. */
  webUrl: string;
  /** The workspace slug the token belongs to. */
  workspace: string;
  /** For a repository access token: the one repository it reads. */
  repositorySlug?: string;
};

const HOST = 'Bitbucket';
const PAGE_SIZE = 100;
const MAX_PAGES = 20;
/** `{xxxxxxxx-xxxx-...}`: how Bitbucket writes the uuids that name repositories through renames. */
const UUID = /^\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/i;
/** Workspace and repository slugs: lower-case letters, digits, `-`, `_`, `.`. */
export const BITBUCKET_SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

/** The fields of Bitbucket's repository object that Packgate reads. */
export type BitbucketRepository = {
  uuid: string;
  name: string;
  slug?: string;
  full_name: string;
  description?: string | null;
  is_private?: boolean;
  mainbranch?: { name?: string } | null;
};

type Page<T> = { values?: T[]; next?: string };

export class BitbucketCodeHost implements CodeHost {
  readonly kind = 'bitbucket' as const;
  private readonly apiUrl: string;
  private readonly webUrl: string;

  constructor(private readonly settings: BitbucketCodeHostSettings) {
    this.apiUrl = withoutTrailingSlashes(settings.apiUrl);
    this.webUrl = withoutTrailingSlashes(settings.webUrl);
    if (!BITBUCKET_SLUG.test(settings.workspace)) throw new CodeHostError('NOT_FOUND', 'Unknown Bitbucket workspace');
  }

  async listRepositories(user: CodeHostUser): Promise<CodeHostRepository[]> {
    const token = requireAccessToken(user, HOST);
    const found: BitbucketRepository[] = [];
    if (this.settings.repositorySlug) {
      found.push(await this.fetchRepository(token, this.settings.repositorySlug));
    } else {
      let url: string | undefined =
        `${this.apiUrl}/repositories/${encodeURIComponent(this.settings.workspace)}?pagelen=${PAGE_SIZE}&sort=full_name`;
      for (let page = 0; url && page < MAX_PAGES; page++) {
        const data: Page<BitbucketRepository> = okJson(HOST, await this.call(token, url));
        found.push(...(data.values ?? []));
        // `next` is followed only while it stays on the API the settings name.
        url = typeof data.next === 'string' && data.next.startsWith(`${this.apiUrl}/`) ? data.next : undefined;
      }
    }
    return describeListed(found, (repository) => this.describe(token, repository));
  }

  async getRepository(user: CodeHostUser, id: string): Promise<CodeHostRepository> {
    if (!UUID.test(id)) throw repositoryNotFound(id);
    const token = requireAccessToken(user, HOST);
    const repository = await this.fetchRepository(token, id);
    // A repository access token reads one repository; a workspace token its workspace. Nothing else is ours.
    const [workspace, slug] = repository.full_name.toLowerCase().split('/');
    if (workspace !== this.settings.workspace.toLowerCase()) throw repositoryNotFound(id);
    if (this.settings.repositorySlug && slug !== this.settings.repositorySlug.toLowerCase()) {
      throw repositoryNotFound(id);
    }
    return this.describe(token, repository);
  }

  async cloneSource(user: CodeHostUser, repository: CodeHostRepository): Promise<CloneSource> {
    return {
      source: `${this.webUrl}/${repository.fullName}.git`,
      auth: { token: requireAccessToken(user, HOST), username: 'x-token-auth' },
    };
  }

  async readDefaultBranchFile(
    user: CodeHostUser,
    repository: CodeHostRepository,
    filePath: string,
  ): Promise<string | undefined> {
    return readDefaultBranchFile(repository, filePath, (ref, file) =>
      this.readFile(requireAccessToken(user, HOST), repository.fullName, ref, file),
    );
  }

  async createPushWebhook(
    user: CodeHostUser,
    repository: CodeHostRepository,
    hook: PushWebhook,
  ): Promise<{ id: string }> {
    const answer = await callHostApi({
      host: HOST,
      url: `${this.repositoryUrl(repository.fullName)}/hooks`,
      method: 'POST',
      token: requireAccessToken(user, HOST),
      // Bitbucket signs each delivery with the secret: X-Hub-Signature: sha256=<HMAC-SHA256 of the body>.
      json: { description: 'Packgate', url: hook.url, active: true, secret: hook.secret, events: ['repo:push'] },
    });
    const created = okJson<{ uuid?: unknown }>(HOST, answer, [201, 200]);
    if (typeof created.uuid !== 'string') throw new CodeHostError('UNAVAILABLE', 'Bitbucket answered oddly.');
    return { id: created.uuid };
  }

  async deletePushWebhook(user: CodeHostUser, repositoryFullName: string, hookId: string): Promise<void> {
    if (!UUID.test(hookId)) return;
    const answer = await callHostApi({
      host: HOST,
      url: `${this.repositoryUrl(repositoryFullName)}/hooks/${encodeURIComponent(hookId)}`,
      method: 'DELETE',
      token: requireAccessToken(user, HOST),
    });
    assertRemoved(HOST, answer);
  }

  private async fetchRepository(token: string, slugOrUuid: string): Promise<BitbucketRepository> {
    const answer = await this.call(
      token,
      `${this.apiUrl}/repositories/${encodeURIComponent(this.settings.workspace)}/${encodeURIComponent(slugOrUuid)}`,
    );
    if (answer.status === 404) throw repositoryNotFound(slugOrUuid);
    return okJson<BitbucketRepository>(HOST, answer);
  }

  private describe(token: string, repository: BitbucketRepository): Promise<CodeHostRepository> {
    return describeRepository(
      {
        id: repository.uuid,
        name: repository.name,
        fullName: repository.full_name,
        description: repository.description || null,
        private: repository.is_private !== false,
        defaultBranch: repository.mainbranch?.name ?? null,
      },
      (ref, filePath) => this.readFile(token, repository.full_name, ref, filePath),
    );
  }

  /** A file at `ref` (GET /repositories/{full_name}/src/{ref}/{path}); undefined when missing. */
  private async readFile(token: string, fullName: string, ref: string, filePath: string): Promise<string | undefined> {
    const path = filePath.split('/').map(encodeURIComponent).join('/');
    const answer = await this.call(token, `${this.repositoryUrl(fullName)}/src/${encodeURIComponent(ref)}/${path}`);
    return fileTextOf(HOST, answer);
  }

  private repositoryUrl(fullName: string): string {
    const [workspace, slug, ...rest] = fullName.split('/');
    if (!workspace || !slug || rest.length > 0) throw repositoryNotFound(fullName);
    return `${this.apiUrl}/repositories/${encodeURIComponent(workspace)}/${encodeURIComponent(slug)}`;
  }

  private call(token: string, url: string): Promise<HostApiAnswer> {
    return callHostApi({ host: HOST, url, token });
  }
}

/** Checks an access token against the workspace, or the repository, it is said to belong to. */
export async function fetchBitbucketTarget(
  settings: Pick<BitbucketCodeHostSettings, 'apiUrl' | 'workspace' | 'repositorySlug'>,
  token: string,
): Promise<{ workspaceName: string; repositoryCount: number | null; scopes: string | null }> {
  const apiUrl = withoutTrailingSlashes(settings.apiUrl);
  const workspace = encodeURIComponent(settings.workspace);
  const url = settings.repositorySlug
    ? `${apiUrl}/repositories/${workspace}/${encodeURIComponent(settings.repositorySlug)}`
    : `${apiUrl}/repositories/${workspace}?pagelen=1`;
  const answer = await callHostApi({ host: HOST, url, token });
  if (answer.status === 404) {
    throw new CodeHostError(
      'NOT_FOUND',
      settings.repositorySlug
        ? `Bitbucket has no repository ${settings.workspace}/${settings.repositorySlug} that this token can read`
        : `Bitbucket has no workspace ${settings.workspace} that this token can read`,
    );
  }
  const data = okJson<{ size?: unknown; full_name?: unknown }>(HOST, answer);
  return {
    workspaceName: settings.workspace,
    repositoryCount: settings.repositorySlug ? 1 : typeof data.size === 'number' ? data.size : null,
    // Bitbucket names what an access token may do in this header (its scopes, comma-separated).
    scopes: answer.headers.get('x-oauth-scopes'),
  };
}

function repositoryNotFound(id: string): CodeHostError {
  return new CodeHostError('NOT_FOUND', `Repository ${JSON.stringify(id.slice(0, 200))} was not found on Bitbucket`);
}
