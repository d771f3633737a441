import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runGitHttpBackend } from '../support/git-fixtures.js';
import { closeServer, readGitFile } from './fake-server.js';
import { readRequest } from './read-body.js';

// A fake GitHub shaped like its public OAuth web flow and REST API (docs.github.com: "Authorizing OAuth
// apps", "REST API endpoints for users / emails / repositories / repository contents / webhooks", "Rate
// limits for the REST API", "Validating webhook deliveries"). One server plays both parts the way GitHub
// Enterprise Server does: the web at `/` (with git over smart HTTP at `/{owner}/{repo}.git`), the API under
// `/api/v3`.

export type FakeGithubEmail = {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility?: 'public' | 'private' | null;
};

export type FakeGithubUser = {
  id: number;
  login: string;
  name: string | null;
  avatarUrl: string;
  emails: FakeGithubEmail[];
};

export type FakeGithubRepo = {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  description: string | null;
  defaultBranch: string;
  /** Files served by the contents API, by path (e.g. `composer.json`). */
  files: Record<string, string>;
  /** Other logins that can see the repository (collaborators). */
  collaborators: string[];
  updatedAt: string;
  /**
   * A bare git repository on disk served at `{webUrl}/{owner}/{name}.git` (HTTP basic auth, the token as
   * password); the contents API reads files missing from `files` from its default branch.
   */
  gitDir?: string;
  /** Webhooks created through the API. */
  hooks: FakeGithubHook[];
};

export type FakeGithubHook = {
  id: number;
  events: string[];
  active: boolean;
  config: { url: string; content_type: string; secret?: string; insecure_ssl?: string };
};

/** What the API answers to every request while set (docs.github.com: "Rate limits for the REST API"). */
export type FakeGithubRateLimit = { kind: 'primary'; resetAt: Date } | { kind: 'secondary'; retryAfterSeconds: number };

export type FakeWebhookDelivery = { hookId: number; url: string; deliveryId: string; status: number; body: string };

export type FakeGithubRequest = { method: string; path: string; headers: IncomingMessage['headers']; body: string };

export type FakeGitHub = {
  webUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** GITHUB_* settings pointing an app at this fake. */
  env(): Record<string, string>;
  addUser(user: Partial<FakeGithubUser> & { login: string; email?: string | null }): FakeGithubUser;
  /** Who approves the next authorization; `null` makes GitHub answer `error=access_denied`. */
  setApprovingUser(login: string | null): void;
  addRepo(
    repo: Partial<Omit<FakeGithubRepo, 'files' | 'hooks'>> & {
      owner: string;
      name: string;
      files?: Record<string, string>;
      hooks?: FakeGithubHook[];
    },
  ): FakeGithubRepo;
  /** Scopes granted when the user approves (default: exactly what the app asked for). */
  setGrantedScopes(scopes: string[] | null): void;
  /** Every access token issued so far (tests check they are not stored in plaintext). */
  issuedTokens(): string[];
  /** A token for the user without the OAuth dance, as if they had signed in (default scopes: the app's). */
  issueToken(login: string, scopes?: string[]): string;
  /** From now on every API request is refused with a rate-limit answer; `null` lifts it. */
  setRateLimit(limit: FakeGithubRateLimit | null): void;
  /** Refuses webhook creation on every repository (as for a collaborator without admin rights). */
  setRefuseHooks(refuse: boolean): void;
  /**
   * Sends an event to every active hook of the repository the way GitHub does: JSON body, X-GitHub-Event,
   * X-GitHub-Delivery, X-Hub-Signature-256 (HMAC-SHA256 of the body under the hook's secret).
   */
  deliverWebhook(
    repo: FakeGithubRepo,
    event: string,
    payload: Record<string, unknown>,
    options?: { deliveryId?: string; secret?: string },
  ): Promise<FakeWebhookDelivery[]>;
  requests: FakeGithubRequest[];
  /** For extensions of the fake (github-app.ts): its state and a way to add API routes. */
  internals: FakeGithubInternals;
  close(): Promise<void>;
};

/** A route added by an extension: answers and returns true, or returns false to let the fake go on. */
export type FakeGithubRoute = (
  request: IncomingMessage,
  response: ServerResponse,
  apiPath: string,
  body: string,
  url: URL,
) => boolean;

export type FakeGithubInternals = {
  users: Map<string, FakeGithubUser>;
  repos: FakeGithubRepo[];
  tokens: Map<string, { login: string; scope: string }>;
  /** Routes tried before the fake asks for a user's token (the App's own endpoints authenticate otherwise). */
  routes: FakeGithubRoute[];
  /** Routes of the web side (outside /api/v3), tried first; `apiPath` is the whole path there. */
  webRoutes: FakeGithubRoute[];
  presentRepo(repo: FakeGithubRepo): Record<string, unknown>;
  json(response: ServerResponse, status: number, body: unknown): void;
};

const API_PREFIX = '/api/v3';
let nextId = 1000;

export async function startFakeGitHub(options: { clientId?: string; clientSecret?: string } = {}): Promise<FakeGitHub> {
  const clientId = options.clientId ?? 'fake-github-client-id';
  const clientSecret = options.clientSecret ?? 'fake-github-client-secret';
  const users = new Map<string, FakeGithubUser>();
  const repos: FakeGithubRepo[] = [];
  const codes = new Map<string, { login: string; scope: string; redirectUri: string }>();
  const tokens = new Map<string, { login: string; scope: string }>();
  const requests: FakeGithubRequest[] = [];
  let approvingUser: string | null = null;
  let grantedScopes: string[] | null = null;
  let rateLimit: FakeGithubRateLimit | null = null;
  let refuseHooks = false;
  let nextHookId = 1;
  let baseUrl = '';
  const extraRoutes: FakeGithubRoute[] = [];
  const extraWebRoutes: FakeGithubRoute[] = [];

  const server = createServer((request, response) => {
    // git's smart HTTP streams its request body to git http-backend: it is not read here.
    const gitPath = /^\/([^/]+)\/([^/]+?)\.git(\/.*)$/.exec(new URL(request.url ?? '/', 'http://fake').pathname);
    if (gitPath) {
      requests.push({ method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body: '' });
      return serveGit(request, response, gitPath[1]!, gitPath[2]!, gitPath[3]!);
    }
    readRequest(request, baseUrl)
      .then(({ url, body }) => {
        requests.push({
          method: request.method ?? 'GET',
          path: url.pathname + url.search,
          headers: request.headers,
          body,
        });
        route(request, response, url, body);
      })
      .catch((error: Error) => json(response, 500, { message: error.message }));
  });

  function route(request: IncomingMessage, response: ServerResponse, url: URL, body: string) {
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/login/oauth/authorize') return authorize(response, url);
    if (method === 'POST' && url.pathname === '/login/oauth/access_token') {
      return accessToken(request, response, body);
    }
    if (!url.pathname.startsWith(API_PREFIX)) {
      for (const extra of extraWebRoutes) if (extra(request, response, url.pathname, body, url)) return;
      return json(response, 404, { message: 'Not Found' });
    }
    const apiPath = url.pathname.slice(API_PREFIX.length);

    if (rateLimit) return answerRateLimited(response, request);
    for (const extra of extraRoutes) if (extra(request, response, apiPath, body, url)) return;
    const grant = tokenGrant(request);
    if (!grant) {
      return json(response, 401, {
        message: 'Requires authentication',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
    }
    const user = users.get(grant.login)!;
    response.setHeader('x-oauth-scopes', grant.scope.split(',').filter(Boolean).join(', '));
    response.setHeader('x-github-media-type', 'github.v3; format=json');

    if (method === 'GET' && apiPath === '/user') return json(response, 200, presentUser(user));
    if (method === 'GET' && apiPath === '/user/emails') {
      if (!hasScope(grant.scope, 'user:email') && !hasScope(grant.scope, 'user')) {
        return json(response, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
      }
      return json(
        response,
        200,
        user.emails.map((entry) => ({ visibility: null, ...entry })),
      );
    }
    if (method === 'GET' && apiPath === '/user/repos') return listRepos(response, url, user, grant.scope);

    const contents = /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/.exec(apiPath);
    if (method === 'GET' && contents) {
      const repo = visibleRepo(user, grant.scope, contents[1]!, contents[2]!);
      const filePath = decodeURIComponent(contents[3]!);
      void readRepoFile(repo, filePath).then((file) => {
        if (!repo || file === undefined) return json(response, 404, { message: 'Not Found', status: '404' });
        answerContents(response, filePath, file);
      });
      return;
    }
    const byId = /^\/repositories\/(\d+)$/.exec(apiPath);
    if (method === 'GET' && byId) {
      const repo = repos.find((candidate) => candidate.id === Number(byId[1]));
      if (!repo || (repo.private && !canSee(user, grant.scope, repo))) {
        return json(response, 404, { message: 'Not Found', status: '404' });
      }
      return json(response, 200, presentRepo(repo));
    }
    const hooksPath = /^\/repos\/([^/]+)\/([^/]+)\/hooks(?:\/(\d+))?$/.exec(apiPath);
    if (hooksPath) return routeHooks(response, method, user, grant.scope, hooksPath, body);
    const repoPath = /^\/repos\/([^/]+)\/([^/]+)$/.exec(apiPath);
    if (method === 'GET' && repoPath) {
      const repo = visibleRepo(user, grant.scope, repoPath[1]!, repoPath[2]!);
      if (!repo) return json(response, 404, { message: 'Not Found', status: '404' });
      return json(response, 200, presentRepo(repo));
    }
    json(response, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  }

  function answerContents(response: ServerResponse, filePath: string, file: string) {
    const content = Buffer.from(file).toString('base64');
    json(response, 200, {
      type: 'file',
      encoding: 'base64',
      size: Buffer.byteLength(file),
      name: filePath.split('/').pop(),
      path: filePath,
      // GitHub wraps base64 content at 60 characters.
      content: `${content.replace(/.{1,60}/g, '$&\n')}`,
      sha: randomBytes(20).toString('hex'),
    });
  }

  async function readRepoFile(repo: FakeGithubRepo | undefined, filePath: string): Promise<string | undefined> {
    if (!repo) return undefined;
    if (repo.files[filePath] !== undefined) return repo.files[filePath];
    if (!repo.gitDir) return undefined;
    return readGitFile(repo.gitDir, repo.defaultBranch, filePath);
  }

  function answerRateLimited(response: ServerResponse, request: IncomingMessage) {
    const limit = rateLimit!;
    const documentation = 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api';
    if (limit.kind === 'secondary') {
      response.setHeader('retry-after', String(limit.retryAfterSeconds));
      return json(response, 403, {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: documentation,
        status: '403',
      });
    }
    const grant = tokenGrant(request);
    const userId = grant ? users.get(grant.login)?.id : undefined;
    response.setHeader('x-ratelimit-limit', '5000');
    response.setHeader('x-ratelimit-remaining', '0');
    response.setHeader('x-ratelimit-used', '5000');
    response.setHeader('x-ratelimit-reset', String(Math.floor(limit.resetAt.getTime() / 1000)));
    response.setHeader('x-ratelimit-resource', 'core');
    json(response, 403, {
      message: `API rate limit exceeded for user ID ${userId ?? 0}.`,
      documentation_url: documentation,
      status: '403',
    });
  }

  /** Webhooks need admin rights on the repository: only its owner here; others get 404 as on GitHub. */
  function routeHooks(
    response: ServerResponse,
    method: string,
    user: FakeGithubUser,
    scope: string,
    match: RegExpExecArray,
    body: string,
  ) {
    const repo = visibleRepo(user, scope, match[1]!, match[2]!);
    if (!repo || repo.owner !== user.login || refuseHooks) {
      return json(response, 404, { message: 'Not Found', status: '404' });
    }
    const hookId = match[3] ? Number(match[3]) : undefined;
    if (method === 'POST' && hookId === undefined) {
      let input: { name?: string; active?: boolean; events?: string[]; config?: FakeGithubHook['config'] };
      try {
        input = JSON.parse(body) as typeof input;
      } catch {
        return json(response, 400, { message: 'Problems parsing JSON' });
      }
      if (!input.config?.url) {
        return json(response, 422, { message: 'Validation Failed', errors: [{ field: 'url', code: 'missing' }] });
      }
      const hook: FakeGithubHook = {
        id: nextHookId++,
        events: input.events ?? ['push'],
        active: input.active ?? true,
        config: { ...input.config, content_type: input.config.content_type ?? 'form' },
      };
      repo.hooks.push(hook);
      return json(response, 201, presentHook(repo, hook));
    }
    if (method === 'GET' && hookId === undefined) {
      return json(
        response,
        200,
        repo.hooks.map((hook) => presentHook(repo, hook)),
      );
    }
    const index = repo.hooks.findIndex((hook) => hook.id === hookId);
    if (index === -1) return json(response, 404, { message: 'Not Found', status: '404' });
    if (method === 'DELETE') {
      repo.hooks.splice(index, 1);
      response.writeHead(204).end();
      return;
    }
    if (method === 'GET') return json(response, 200, presentHook(repo, repo.hooks[index]!));
    json(response, 404, { message: 'Not Found', status: '404' });
  }

  function presentHook(repo: FakeGithubRepo, hook: FakeGithubHook) {
    const { secret, ...config } = hook.config;
    return {
      type: 'Repository',
      id: hook.id,
      name: 'web',
      active: hook.active,
      events: hook.events,
      // GitHub never shows a hook's secret back.
      config: { ...config, ...(secret ? { secret: '********' } : {}) },
      url: `${baseUrl}${API_PREFIX}/repos/${repo.owner}/${repo.name}/hooks/${hook.id}`,
    };
  }

  /** Private repositories need HTTP basic auth with a token that can see them (any user name, as on GitHub). */
  function serveGit(request: IncomingMessage, response: ServerResponse, owner: string, name: string, rest: string) {
    const repo = repos.find(
      (candidate) =>
        candidate.owner.toLowerCase() === owner.toLowerCase() && candidate.name.toLowerCase() === name.toLowerCase(),
    );
    const basic = /^basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const password = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').slice(1).join(':') : '';
    const grant = password ? tokens.get(password) : undefined;
    const user = grant ? users.get(grant.login) : undefined;
    const allowed = repo?.gitDir && (!repo.private || (user && grant && canSee(user, grant.scope, repo)));
    if (!allowed) {
      if (!grant) {
        response.writeHead(401, { 'www-authenticate': 'Basic realm="GitHub"' }).end('Unauthorized');
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Repository not found.');
      }
      return;
    }
    runGitHttpBackend(request, response, { projectRoot: repo.gitDir!, pathInfo: decodeURIComponent(rest) });
  }

  function authorize(response: ServerResponse, url: URL) {
    const redirectUri = url.searchParams.get('redirect_uri');
    const state = url.searchParams.get('state');
    if (url.searchParams.get('client_id') !== clientId || !redirectUri) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
      return;
    }
    const target = new URL(redirectUri);
    if (approvingUser === null || !users.has(approvingUser)) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user has denied your application access.');
      target.searchParams.set('error_uri', 'https://docs.github.com/apps/troubleshooting');
    } else {
      const code = randomBytes(10).toString('hex');
      const requested = (url.searchParams.get('scope') ?? '').split(/[ ,]+/).filter(Boolean);
      codes.set(code, {
        login: approvingUser,
        scope: (grantedScopes ?? requested).join(','),
        redirectUri,
      });
      target.searchParams.set('code', code);
    }
    if (state !== null) target.searchParams.set('state', state);
    response.writeHead(302, { location: target.toString() }).end();
  }

  function accessToken(request: IncomingMessage, response: ServerResponse, body: string) {
    const params = parseParams(request, body);
    const wantsJson = (request.headers.accept ?? '').includes('application/json');
    // GitHub answers form-encoded unless asked for JSON, and reports refusals with 200 and an `error` field.
    const answer = (payload: Record<string, string>) => {
      if (wantsJson) return json(response, 200, payload);
      response
        .writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' })
        .end(new URLSearchParams(payload).toString());
    };
    if (params.client_id !== clientId || params.client_secret !== clientSecret) {
      return answer({
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
      });
    }
    const grant = params.code ? codes.get(params.code) : undefined;
    if (!grant || (params.redirect_uri && params.redirect_uri !== grant.redirectUri)) {
      return answer({
        error: grant ? 'redirect_uri_mismatch' : 'bad_verification_code',
        error_description: grant
          ? 'The redirect_uri MUST match the registered callback URL for this application.'
          : 'The code passed is incorrect or expired.',
      });
    }
    codes.delete(params.code!); // single use, like GitHub's
    const token = `gho_${randomBytes(18).toString('base64url')}`;
    tokens.set(token, { login: grant.login, scope: grant.scope });
    answer({ access_token: token, token_type: 'bearer', scope: grant.scope });
  }

  function listRepos(response: ServerResponse, url: URL, user: FakeGithubUser, scope: string): void {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const visible = repos.filter((repo) => canSee(user, scope, repo));
    const lastPage = Math.max(1, Math.ceil(visible.length / perPage));
    const links: string[] = [];
    const pageUrl = (number: number) => {
      const next = new URL(url);
      next.searchParams.set('per_page', String(perPage));
      next.searchParams.set('page', String(number));
      return next.toString();
    };
    if (page < lastPage) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(lastPage)}>; rel="last"`);
    if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
    if (links.length > 0) response.setHeader('link', links.join(', '));
    json(
      response,
      200,
      visible.slice((page - 1) * perPage, page * perPage).map((repo) => presentRepo(repo)),
    );
  }

  function canSee(user: FakeGithubUser, scope: string, repo: FakeGithubRepo): boolean {
    const related = repo.owner === user.login || repo.collaborators.includes(user.login);
    // Private repositories need the `repo` scope.
    return related && (!repo.private || hasScope(scope, 'repo'));
  }

  function visibleRepo(user: FakeGithubUser, scope: string, owner: string, name: string) {
    const repo = repos.find(
      (candidate) =>
        candidate.owner.toLowerCase() === owner.toLowerCase() && candidate.name.toLowerCase() === name.toLowerCase(),
    );
    if (!repo) return undefined;
    if (!repo.private) return repo;
    return canSee(user, scope, repo) ? repo : undefined;
  }

  function presentUser(user: FakeGithubUser) {
    const publicEmail = user.emails.find((entry) => entry.visibility === 'public')?.email ?? null;
    return {
      login: user.login,
      id: user.id,
      node_id: `U_${user.id}`,
      avatar_url: user.avatarUrl,
      html_url: `${baseUrl}/${user.login}`,
      type: 'User',
      site_admin: false,
      name: user.name,
      email: publicEmail,
    };
  }

  function presentRepo(repo: FakeGithubRepo) {
    const owner = users.get(repo.owner);
    return {
      id: repo.id,
      node_id: `R_${repo.id}`,
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      private: repo.private,
      owner: { login: repo.owner, id: owner?.id ?? 0, type: 'User' },
      html_url: `${baseUrl}/${repo.owner}/${repo.name}`,
      description: repo.description,
      fork: false,
      url: `${baseUrl}${API_PREFIX}/repos/${repo.owner}/${repo.name}`,
      clone_url: `${baseUrl}/${repo.owner}/${repo.name}.git`,
      default_branch: repo.defaultBranch,
      visibility: repo.private ? 'private' : 'public',
      updated_at: repo.updatedAt,
      pushed_at: repo.updatedAt,
    };
  }

  function tokenGrant(request: IncomingMessage) {
    const match = /^(?:bearer|token)\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    return match ? tokens.get(match[1]!) : undefined;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    webUrl: baseUrl,
    apiUrl: `${baseUrl}${API_PREFIX}`,
    clientId,
    clientSecret,
    env: () => ({
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
      GITHUB_WEB_URL: baseUrl,
      GITHUB_API_URL: `${baseUrl}${API_PREFIX}`,
    }),
    addUser(input) {
      const id = input.id ?? nextId++;
      const emails =
        input.emails ??
        (input.email === null
          ? []
          : [{ email: input.email ?? `${input.login}@users.example.com`, primary: true, verified: true }]);
      const user: FakeGithubUser = {
        id,
        login: input.login,
        name: input.name === undefined ? input.login : input.name,
        avatarUrl: input.avatarUrl ?? `${baseUrl}/avatars/u/${id}`,
        emails,
      };
      users.set(user.login, user);
      return user;
    },
    setApprovingUser(login) {
      approvingUser = login;
    },
    setGrantedScopes(scopes) {
      grantedScopes = scopes;
    },
    addRepo(input) {
      const repo: FakeGithubRepo = {
        id: input.id ?? nextId++,
        owner: input.owner,
        name: input.name,
        private: input.private ?? true,
        description: input.description ?? null,
        defaultBranch: input.defaultBranch ?? 'main',
        files: input.files ?? {},
        collaborators: input.collaborators ?? [],
        updatedAt: input.updatedAt ?? new Date().toISOString(),
        gitDir: input.gitDir,
        hooks: input.hooks ?? [],
      };
      repos.push(repo);
      return repo;
    },
    issuedTokens: () => [...tokens.keys()],
    issueToken(login, scopes = ['read:user', 'user:email', 'repo']) {
      if (!users.has(login)) throw new Error(`no fake GitHub user ${login}`);
      const token = `gho_${randomBytes(18).toString('base64url')}`;
      tokens.set(token, { login, scope: scopes.join(',') });
      return token;
    },
    setRateLimit(limit) {
      rateLimit = limit;
    },
    setRefuseHooks(refuse) {
      refuseHooks = refuse;
    },
    async deliverWebhook(repo, event, payload, options = {}) {
      const deliveries: FakeWebhookDelivery[] = [];
      for (const hook of repo.hooks.filter((candidate) => candidate.active)) {
        const body = JSON.stringify(payload);
        const deliveryId = options.deliveryId ?? randomUUID();
        const secret = options.secret ?? hook.config.secret;
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/fake',
          'x-github-event': event,
          'x-github-delivery': deliveryId,
          'x-github-hook-id': String(hook.id),
        };
        if (secret)
          headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
        const answer = await fetch(hook.config.url, { method: 'POST', headers, body });
        deliveries.push({
          hookId: hook.id,
          url: hook.config.url,
          deliveryId,
          status: answer.status,
          body: await answer.text(),
        });
      }
      return deliveries;
    },
    requests,
    internals: { users, repos, tokens, routes: extraRoutes, webRoutes: extraWebRoutes, presentRepo, json },
    close: () => closeServer(server),
  };
}

function hasScope(granted: string, scope: string): boolean {
  return granted.split(',').includes(scope);
}

function parseParams(request: IncomingMessage, body: string): Record<string, string | undefined> {
  const fromQuery = Object.fromEntries(new URL(request.url ?? '/', 'http://fake').searchParams);
  const type = request.headers['content-type'] ?? '';
  if (type.includes('application/json')) {
    try {
      return { ...fromQuery, ...(JSON.parse(body) as Record<string, string>) };
    } catch {
      return fromQuery;
    }
  }
  return { ...fromQuery, ...Object.fromEntries(new URLSearchParams(body)) };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
