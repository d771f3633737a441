import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runGitHttpBackend } from '../support/git-fixtures.js';
import { closeServer, readGitFile, sendJson } from './fake-server.js';
import { createGitlabOAuth, deliverGitlabWebhook, type TokenGrant } from './gitlab-oauth-webhooks.js';
import { readRequest } from './read-body.js';

// A fake GitLab shaped like its public OAuth provider and REST API v4 (docs.gitlab.com: "OAuth 2.0 identity
// provider API" with PKCE and rotating refresh tokens, "Projects API", "Repository files API", "Project webhooks",
// "Personal access tokens API" /self, "Webhook events"). One server is the instance: OAuth at /oauth, the API under
// /api/v4, git over smart HTTP at /{namespace}/{project}.git (basic auth, the token as password).

export type FakeGitlabUser = { id: number; username: string; name: string; bot: boolean };

export type FakeGitlabProject = {
  id: number;
  /** `acme/widget` */
  path: string;
  name: string;
  description: string | null;
  visibility: 'private' | 'internal' | 'public';
  defaultBranch: string;
  /** A bare repository on disk, served over git and read by the files API. */
  gitDir?: string;
  /** Users (by username) who are members. */
  members: string[];
  hooks: FakeGitlabHook[];
};

export type FakeGitlabHook = { id: number; url: string; token?: string; pushEvents: boolean; tagPushEvents: boolean };

export type FakeGitlabRequest = { method: string; path: string; authorization?: string };

export type FakeGitlab = {
  url: string;
  clientId: string;
  clientSecret: string;
  /** GITLAB_* settings pointing an app at this fake. */
  env(): Record<string, string>;
  addUser(input: { username: string; name?: string; bot?: boolean }): FakeGitlabUser;
  addProject(input: Partial<Omit<FakeGitlabProject, 'hooks'>> & { path: string; members: string[] }): FakeGitlabProject;
  /** Who approves the next authorization; null answers error=access_denied. */
  setApprovingUser(username: string | null): void;
  /**
   * A project access token: a bot user that is a member of the project only (GitLab makes one per token).
   * `expiresOn` is the day GitLab shows (YYYY-MM-DD).
   */
  issueProjectAccessToken(project: FakeGitlabProject, options?: { scopes?: string[]; expiresOn?: string }): string;
  /** The fake's clock: OAuth access tokens expire two hours after issue by it. */
  advanceClock(ms: number): void;
  /** Revokes an access token, or every token and refresh token of a user (as removing the application does). */
  revokeToken(token: string): void;
  revokeUserAuthorizations(username: string): void;
  /** Refresh tokens used so far, in order (a rotated one must never be used again). */
  refreshesSeen(): string[];
  issuedTokens(): string[];
  /** Sends a push or tag push event to every hook of the project as GitLab does, with X-Gitlab-Token. */
  deliverWebhook(
    project: FakeGitlabProject,
    event: 'Push Hook' | 'Tag Push Hook',
    options?: { token?: string; eventUuid?: string; ref?: string },
  ): Promise<Array<{ status: number; body: string }>>;
  requests: FakeGitlabRequest[];
  close(): Promise<void>;
};

const API_PREFIX = '/api/v4';
let nextId = 5000;

export async function startFakeGitlab(): Promise<FakeGitlab> {
  const clientId = 'fake-gitlab-application-id';
  const clientSecret = `gloas-${randomBytes(16).toString('hex')}`;
  const users = new Map<string, FakeGitlabUser>();
  const projects: FakeGitlabProject[] = [];
  const tokens = new Map<string, TokenGrant>();
  const refreshTokens = new Map<string, { username: string; scopes: string[] }>();
  const refreshes: string[] = [];
  const requests: FakeGitlabRequest[] = [];
  let approvingUser: string | null = null;
  let clockOffset = 0;
  let nextHookId = 1;
  let baseUrl = '';
  const now = () => Date.now() + clockOffset;
  const oauth = createGitlabOAuth({
    clientId,
    clientSecret,
    hasUser: (username) => users.has(username),
    approvingUser: () => approvingUser,
    tokens,
    refreshTokens,
    refreshes,
    now,
  });

  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://fake').pathname;
    const gitPath = /^\/(.+?)\.git(\/.*)$/.exec(pathname);
    if (gitPath && !pathname.startsWith(API_PREFIX)) {
      requests.push({ method: request.method ?? 'GET', path: pathname, authorization: request.headers.authorization });
      return serveGit(request, response, gitPath[1]!, gitPath[2]!);
    }
    readRequest(request, baseUrl)
      .then(({ url, body }) => {
        requests.push({
          method: request.method ?? 'GET',
          path: url.pathname + url.search,
          authorization: request.headers.authorization,
        });
        return route(request, response, url, body);
      })
      .catch((error: Error) => sendJson(response, 500, { message: error.message }));
  });

  async function route(request: IncomingMessage, response: ServerResponse, url: URL, body: string) {
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/oauth/authorize') return oauth.authorize(response, url);
    if (method === 'POST' && url.pathname === '/oauth/token') return oauth.token(response, body);
    if (!url.pathname.startsWith(API_PREFIX)) return sendJson(response, 404, { message: '404 Not Found' });
    const apiPath = url.pathname.slice(API_PREFIX.length);
    const grant = bearerGrant(request);
    if (!grant) return sendJson(response, 401, { message: '401 Unauthorized' });
    const user = users.get(grant.username)!;
    if (!grant.scopes.includes('api') && !grant.scopes.includes('read_api') && !grant.scopes.includes('read_user')) {
      return sendJson(response, 403, {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
      });
    }

    if (method === 'GET' && apiPath === '/user') {
      return sendJson(response, 200, {
        id: user.id,
        username: user.username,
        name: user.name,
        bot: user.bot,
        state: 'active',
      });
    }
    if (method === 'GET' && apiPath === '/personal_access_tokens/self') {
      if (grant.kind !== 'access_token') return sendJson(response, 404, { message: '404 Not Found' });
      return sendJson(response, 200, {
        id: 1,
        name: grant.name ?? 'token',
        revoked: false,
        scopes: grant.scopes,
        user_id: user.id,
        active: true,
        expires_at: grant.expiresOn ?? null,
      });
    }
    if (method === 'GET' && apiPath === '/projects') {
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 20) || 20);
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const visible = projects.filter((project) => project.members.includes(user.username)).sort((a, b) => a.id - b.id);
      const slice = visible.slice((page - 1) * perPage, page * perPage);
      const hasNext = page * perPage < visible.length;
      response.setHeader('x-next-page', hasNext ? String(page + 1) : '');
      response.setHeader('x-page', String(page));
      response.setHeader('x-per-page', String(perPage));
      return sendJson(response, 200, slice.map(presentProject));
    }
    const files = /^\/projects\/([^/]+)\/repository\/files\/([^/]+)\/raw$/.exec(apiPath);
    if (method === 'GET' && files) {
      const project = visibleProject(user, files[1]!);
      const content = project
        ? await readFile(project, url.searchParams.get('ref'), decodeURIComponent(files[2]!))
        : undefined;
      if (content === undefined) return sendJson(response, 404, { message: '404 File Not Found' });
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(content);
      return;
    }
    const hooks = /^\/projects\/([^/]+)\/hooks(?:\/(\d+))?$/.exec(apiPath);
    if (hooks) {
      const project = visibleProject(user, hooks[1]!);
      if (!project) return sendJson(response, 404, { message: '404 Project Not Found' });
      // Hooks are a Maintainer's, through the `api` scope; read_api cannot write anything.
      if (!grant.scopes.includes('api')) {
        return sendJson(response, 403, {
          error: 'insufficient_scope',
          error_description: 'The request requires higher privileges than provided by the access token.',
          scope: 'api',
        });
      }
      if (method === 'POST' && !hooks[2]) {
        const input = JSON.parse(body || '{}') as {
          url?: string;
          token?: string;
          push_events?: boolean;
          tag_push_events?: boolean;
        };
        if (!input.url) return sendJson(response, 400, { error: 'url is missing' });
        const hook: FakeGitlabHook = {
          id: nextHookId++,
          url: input.url,
          token: input.token,
          pushEvents: input.push_events ?? true,
          tagPushEvents: input.tag_push_events ?? false,
        };
        project.hooks.push(hook);
        return sendJson(response, 201, {
          id: hook.id,
          url: hook.url,
          project_id: project.id,
          push_events: hook.pushEvents,
          tag_push_events: hook.tagPushEvents,
        });
      }
      if (method === 'DELETE' && hooks[2]) {
        const index = project.hooks.findIndex((hook) => hook.id === Number(hooks[2]));
        if (index === -1) return sendJson(response, 404, { message: '404 Not found' });
        project.hooks.splice(index, 1);
        response.writeHead(204).end();
        return;
      }
    }
    const single = /^\/projects\/([^/]+)$/.exec(apiPath);
    if (method === 'GET' && single) {
      const project = visibleProject(user, single[1]!);
      if (!project) return sendJson(response, 404, { message: '404 Project Not Found' });
      return sendJson(response, 200, presentProject(project));
    }
    sendJson(response, 404, { error: '404 Not Found' });
  }

  function presentProject(project: FakeGitlabProject) {
    const [namespace] = project.path.split('/');
    return {
      id: project.id,
      name: project.name,
      path: project.path.split('/').pop(),
      path_with_namespace: project.path,
      name_with_namespace: project.path.replace('/', ' / '),
      description: project.description,
      visibility: project.visibility,
      default_branch: project.gitDir ? project.defaultBranch : null,
      archived: false,
      http_url_to_repo: `${baseUrl}/${project.path}.git`,
      web_url: `${baseUrl}/${project.path}`,
      namespace: { path: namespace, full_path: namespace, kind: 'group' },
      last_activity_at: new Date(now()).toISOString(),
    };
  }

  /** GitLab takes a numeric id or the URL-encoded path; members only, others get 404. */
  function visibleProject(user: FakeGitlabUser, idOrPath: string): FakeGitlabProject | undefined {
    const key = decodeURIComponent(idOrPath);
    const project = projects.find((candidate) => String(candidate.id) === key || candidate.path === key);
    return project?.members.includes(user.username) ? project : undefined;
  }

  async function readFile(
    project: FakeGitlabProject,
    ref: string | null,
    filePath: string,
  ): Promise<string | undefined> {
    if (!project.gitDir || !ref) return undefined;
    return readGitFile(project.gitDir, ref, filePath);
  }

  function liveGrant(value: string | undefined): TokenGrant | undefined {
    const grant = value ? tokens.get(value) : undefined;
    if (!grant || grant.revoked) return undefined;
    if (grant.expiresAt !== undefined && grant.expiresAt <= now()) return undefined;
    return grant;
  }

  function bearerGrant(request: IncomingMessage): TokenGrant | undefined {
    const bearer = /^bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const header = request.headers['private-token'];
    return liveGrant(bearer?.[1] ?? (typeof header === 'string' ? header : undefined));
  }

  /** git over HTTP: any user name with an OAuth or access token as password, read_repository needed. */
  function serveGit(request: IncomingMessage, response: ServerResponse, projectPath: string, rest: string) {
    const project = projects.find((candidate) => candidate.path === projectPath);
    const basic = /^basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const password = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').slice(1).join(':') : '';
    const grant = liveGrant(password || undefined);
    const canRead =
      grant &&
      project?.gitDir &&
      project.members.includes(grant.username) &&
      grant.scopes.some((scope) => ['read_repository', 'api'].includes(scope));
    if (!canRead) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="GitLab"' }).end('HTTP Basic: Access denied');
      return;
    }
    runGitHttpBackend(request, response, { projectRoot: project!.gitDir!, pathInfo: decodeURIComponent(rest) });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    clientId,
    clientSecret,
    env: () => ({ GITLAB_URL: baseUrl, GITLAB_CLIENT_ID: clientId, GITLAB_CLIENT_SECRET: clientSecret }),
    addUser(input) {
      const user: FakeGitlabUser = {
        id: nextId++,
        username: input.username,
        name: input.name ?? input.username,
        bot: input.bot ?? false,
      };
      users.set(user.username, user);
      return user;
    },
    addProject(input) {
      const project: FakeGitlabProject = {
        id: input.id ?? nextId++,
        path: input.path,
        name: input.name ?? input.path.split('/').pop()!,
        description: input.description ?? null,
        visibility: input.visibility ?? 'private',
        defaultBranch: input.defaultBranch ?? 'main',
        gitDir: input.gitDir,
        members: [...input.members],
        hooks: [],
      };
      projects.push(project);
      return project;
    },
    setApprovingUser(username) {
      approvingUser = username;
    },
    issueProjectAccessToken(project, options = {}) {
      const username = `project_${project.id}_bot_${randomBytes(4).toString('hex')}`;
      users.set(username, { id: nextId++, username, name: `${project.name} token`, bot: true });
      project.members.push(username);
      const value = `glpat-${randomBytes(15).toString('base64url')}`;
      tokens.set(value, {
        username,
        scopes: options.scopes ?? ['read_api', 'read_repository'],
        kind: 'access_token',
        name: 'packgate',
        expiresOn: options.expiresOn,
        // GitLab retires an access token at midnight UTC of its expiry date.
        expiresAt: options.expiresOn ? Date.parse(`${options.expiresOn}T00:00:00Z`) : undefined,
      });
      return value;
    },
    advanceClock(ms) {
      clockOffset += ms;
    },
    revokeToken(value) {
      const grant = tokens.get(value);
      if (grant) grant.revoked = true;
    },
    revokeUserAuthorizations(username) {
      for (const grant of tokens.values()) if (grant.username === username) grant.revoked = true;
      for (const [value, grant] of refreshTokens) if (grant.username === username) refreshTokens.delete(value);
    },
    refreshesSeen: () => [...refreshes],
    issuedTokens: () => [...tokens.keys(), ...refreshTokens.keys()],
    deliverWebhook: (project, event, options = {}) => deliverGitlabWebhook(baseUrl, project, event, options),
    requests,
    close: () => closeServer(server),
  };
}
