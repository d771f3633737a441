import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runGitHttpBackend } from '../support/git-fixtures.js';
import { closeServer, readGitFile, sendJson } from './fake-server.js';
import { readRequest } from './read-body.js';

// A fake Bitbucket Cloud shaped like its public REST API 2.0 (developer.atlassian.com: "Repositories", "Source",
// "Webhooks", paginated `values`/`next`), access tokens (workspace or repository, Bearer on the API, `x-token-auth`
// for git) and signed webhooks (X-Hub-Signature: sha256=HMAC-SHA256 of the body under the hook's secret). The API is
// under /2.0; git over smart HTTP at /{workspace}/{slug}.git. App passwords (basic auth with a user name) are refused.

export type FakeBitbucketRepository = {
  uuid: string;
  workspace: string;
  slug: string;
  description: string;
  mainBranch: string;
  gitDir?: string;
  hooks: Array<{ uuid: string; url: string; secret?: string; events: string[] }>;
};

type AccessToken = { workspace: string; repositorySlug?: string; scopes: string[]; revoked?: boolean };

export type FakeBitbucket = {
  url: string;
  apiUrl: string;
  /** BITBUCKET_* settings pointing an app at this fake. */
  env(): Record<string, string>;
  addRepository(input: {
    workspace: string;
    slug: string;
    gitDir?: string;
    mainBranch?: string;
    description?: string;
  }): FakeBitbucketRepository;
  /** A workspace access token, or with `repositorySlug` a repository access token. */
  issueAccessToken(options: { workspace: string; repositorySlug?: string; scopes?: string[] }): string;
  revokeToken(token: string): void;
  /** Deletes the repository, as its admin would on Bitbucket. */
  removeRepository(repository: FakeBitbucketRepository): void;
  /** Sends repo:push to every hook of the repository, signed as Bitbucket signs it. */
  deliverPush(
    repository: FakeBitbucketRepository,
    options?: { secret?: string; requestUuid?: string },
  ): Promise<Array<{ status: number; body: string }>>;
  close(): Promise<void>;
};

const API_PREFIX = '/2.0';

export async function startFakeBitbucket(): Promise<FakeBitbucket> {
  const repositories: FakeBitbucketRepository[] = [];
  const tokens = new Map<string, AccessToken>();
  let baseUrl = '';

  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://fake').pathname;
    const gitPath = /^\/([^/]+)\/([^/]+?)\.git(\/.*)$/.exec(pathname);
    if (gitPath && !pathname.startsWith(API_PREFIX))
      return serveGit(request, response, gitPath[1]!, gitPath[2]!, gitPath[3]!);
    readRequest(request, baseUrl)
      .then(({ url, body }) => route(request, response, url, body))
      .catch((error: Error) => sendJson(response, 500, { type: 'error', error: { message: error.message } }));
  });

  function grantOf(request: IncomingMessage): AccessToken | undefined {
    const bearer = /^bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const grant = bearer ? tokens.get(bearer[1]!) : undefined;
    return grant && !grant.revoked ? grant : undefined;
  }

  function canRead(grant: AccessToken, repository: FakeBitbucketRepository): boolean {
    if (grant.workspace !== repository.workspace) return false;
    return !grant.repositorySlug || grant.repositorySlug === repository.slug;
  }

  function findRepository(workspace: string, slugOrUuid: string): FakeBitbucketRepository | undefined {
    const key = decodeURIComponent(slugOrUuid).toLowerCase();
    return repositories.find(
      (repository) =>
        repository.workspace === decodeURIComponent(workspace) &&
        (repository.slug === key || repository.uuid.toLowerCase() === key),
    );
  }

  function present(repository: FakeBitbucketRepository) {
    return {
      type: 'repository',
      uuid: repository.uuid,
      name: repository.slug,
      slug: repository.slug,
      full_name: `${repository.workspace}/${repository.slug}`,
      description: repository.description,
      is_private: true,
      scm: 'git',
      mainbranch: repository.gitDir ? { type: 'branch', name: repository.mainBranch } : null,
      links: {
        html: { href: `${baseUrl}/${repository.workspace}/${repository.slug}` },
        clone: [
          {
            name: 'https',
            href: `${baseUrl.replace('://', '://x-token-auth@')}/${repository.workspace}/${repository.slug}.git`,
          },
        ],
      },
    };
  }

  async function route(request: IncomingMessage, response: ServerResponse, url: URL, body: string) {
    const method = request.method ?? 'GET';
    if (!url.pathname.startsWith(API_PREFIX))
      return sendJson(response, 404, { type: 'error', error: { message: 'Not found' } });
    const path = url.pathname.slice(API_PREFIX.length);
    if (/^basic\s/i.test(request.headers.authorization ?? '')) {
      // App passwords ended on 2026-06-09: basic authentication with one is refused.
      return sendJson(response, 401, {
        type: 'error',
        error: { message: 'App passwords are no longer supported. Use an API token or access token.' },
      });
    }
    const grant = grantOf(request);
    if (!grant) return sendJson(response, 401, { type: 'error', error: { message: 'Unauthorized' } });
    response.setHeader('x-oauth-scopes', grant.scopes.join(', '));

    const list = /^\/repositories\/([^/]+)$/.exec(path);
    if (method === 'GET' && list) {
      if (grant.workspace !== decodeURIComponent(list[1]!))
        return sendJson(response, 404, { type: 'error', error: { message: 'Not found' } });
      const visible = repositories
        .filter((repository) => canRead(grant, repository))
        .sort((a, b) => a.slug.localeCompare(b.slug));
      const pagelen = Math.min(100, Number(url.searchParams.get('pagelen') ?? 10) || 10);
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const values = visible.slice((page - 1) * pagelen, page * pagelen).map(present);
      const next =
        page * pagelen < visible.length
          ? `${baseUrl}${API_PREFIX}/repositories/${list[1]}?pagelen=${pagelen}&page=${page + 1}`
          : undefined;
      return sendJson(response, 200, { pagelen, size: visible.length, page, values, ...(next ? { next } : {}) });
    }
    const single = /^\/repositories\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    if (!single) return sendJson(response, 404, { type: 'error', error: { message: 'Not found' } });
    const repository = findRepository(single[1]!, single[2]!);
    if (!repository || !canRead(grant, repository)) {
      return sendJson(response, 404, { type: 'error', error: { message: 'Repository not found' } });
    }
    const rest = single[3] ?? '';
    if (method === 'GET' && rest === '') return sendJson(response, 200, present(repository));
    const source = /^\/src\/([^/]+)\/(.+)$/.exec(rest);
    if (method === 'GET' && source) {
      const content = await readFile(repository, decodeURIComponent(source[1]!), decodeURIComponent(source[2]!));
      if (content === undefined) return sendJson(response, 404, { type: 'error', error: { message: 'No such file' } });
      response.writeHead(200, { 'content-type': 'text/plain' }).end(content);
      return;
    }
    const hooks = /^\/hooks(?:\/([^/]+))?$/.exec(rest);
    if (hooks) {
      if (!grant.scopes.includes('webhook')) {
        return sendJson(response, 403, {
          type: 'error',
          error: {
            message: 'Your credentials lack one or more required privilege scopes.',
            detail: { required: ['webhook'], granted: grant.scopes },
          },
        });
      }
      if (method === 'POST' && !hooks[1]) {
        const input = JSON.parse(body || '{}') as { url?: string; secret?: string; events?: string[] };
        if (!input.url) return sendJson(response, 400, { type: 'error', error: { message: 'url required' } });
        const hook = { uuid: `{${randomUUID()}}`, url: input.url, secret: input.secret, events: input.events ?? [] };
        repository.hooks.push(hook);
        return sendJson(response, 201, {
          type: 'webhook_subscription',
          uuid: hook.uuid,
          url: hook.url,
          events: hook.events,
          active: true,
          secret_set: Boolean(hook.secret),
        });
      }
      if (method === 'DELETE' && hooks[1]) {
        const index = repository.hooks.findIndex((hook) => hook.uuid === decodeURIComponent(hooks[1]!));
        if (index === -1) return sendJson(response, 404, { type: 'error', error: { message: 'Not found' } });
        repository.hooks.splice(index, 1);
        response.writeHead(204).end();
        return;
      }
    }
    sendJson(response, 404, { type: 'error', error: { message: 'Not found' } });
  }

  async function readFile(
    repository: FakeBitbucketRepository,
    ref: string,
    filePath: string,
  ): Promise<string | undefined> {
    if (!repository.gitDir) return undefined;
    return readGitFile(repository.gitDir, ref, filePath);
  }

  /** git over HTTP with `x-token-auth:<access token>`. */
  function serveGit(request: IncomingMessage, response: ServerResponse, workspace: string, slug: string, rest: string) {
    const repository = findRepository(workspace, slug);
    const basic = /^basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const [username, ...password] = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':') : [];
    const grant = username === 'x-token-auth' ? tokens.get(password.join(':')) : undefined;
    if (!repository?.gitDir || !grant || grant.revoked || !canRead(grant, repository)) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="Bitbucket.org HTTP"' }).end('Unauthorized');
      return;
    }
    runGitHttpBackend(request, response, { projectRoot: repository.gitDir, pathInfo: decodeURIComponent(rest) });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    apiUrl: `${baseUrl}${API_PREFIX}`,
    env: () => ({ BITBUCKET_API_URL: `${baseUrl}${API_PREFIX}`, BITBUCKET_WEB_URL: baseUrl }),
    addRepository(input) {
      const repository: FakeBitbucketRepository = {
        uuid: `{${randomUUID()}}`,
        workspace: input.workspace,
        slug: input.slug,
        description: input.description ?? '',
        mainBranch: input.mainBranch ?? 'main',
        gitDir: input.gitDir,
        hooks: [],
      };
      repositories.push(repository);
      return repository;
    },
    issueAccessToken(options) {
      const value = `ATCTT3xFfGN0${randomBytes(24).toString('base64url')}`;
      tokens.set(value, {
        workspace: options.workspace,
        repositorySlug: options.repositorySlug,
        scopes: options.scopes ?? ['repository', 'webhook'],
      });
      return value;
    },
    removeRepository(repository) {
      const index = repositories.indexOf(repository);
      if (index !== -1) repositories.splice(index, 1);
    },
    revokeToken(value) {
      const grant = tokens.get(value);
      if (grant) grant.revoked = true;
    },
    async deliverPush(repository, options = {}) {
      const answers: Array<{ status: number; body: string }> = [];
      for (const hook of repository.hooks.filter((candidate) => candidate.events.includes('repo:push'))) {
        const body = JSON.stringify({
          actor: { type: 'user', display_name: 'Seller' },
          repository: {
            type: 'repository',
            uuid: repository.uuid,
            full_name: `${repository.workspace}/${repository.slug}`,
            name: repository.slug,
          },
          push: { changes: [{ new: { type: 'tag', name: 'v1.0.0' }, old: null, created: true }] },
        });
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'user-agent': 'Bitbucket-Webhooks/2.0',
          'x-event-key': 'repo:push',
          'x-hook-uuid': hook.uuid,
          'x-request-uuid': options.requestUuid ?? randomUUID(),
          'x-attempt-number': '1',
        };
        const secret = options.secret ?? hook.secret;
        if (secret) headers['x-hub-signature'] = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
        const answer = await fetch(hook.url, { method: 'POST', headers, body });
        answers.push({ status: answer.status, body: await answer.text() });
      }
      return answers;
    },
    close: () => closeServer(server),
  };
}
