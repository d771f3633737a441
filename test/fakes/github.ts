import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake GitHub shaped like its public OAuth web flow and REST API (docs.github.com: "Authorizing OAuth
// apps", "REST API endpoints for users / emails / repositories / repository contents"). One server plays
// both parts the way GitHub Enterprise Server does: the web at `/`, the API under `/api/v3`.

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
};

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
    repo: Partial<Omit<FakeGithubRepo, 'files'>> & { owner: string; name: string; files?: Record<string, string> },
  ): FakeGithubRepo;
  /** Scopes granted when the user approves (default: exactly what the app asked for). */
  setGrantedScopes(scopes: string[] | null): void;
  /** Every access token issued so far (tests check they are not stored in plaintext). */
  issuedTokens(): string[];
  requests: FakeGithubRequest[];
  close(): Promise<void>;
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
  let baseUrl = '';

  const server = createServer((request, response) => {
    readBody(request)
      .then((body) => {
        const url = new URL(request.url ?? '/', baseUrl);
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
    if (!url.pathname.startsWith(API_PREFIX)) return json(response, 404, { message: 'Not Found' });
    const apiPath = url.pathname.slice(API_PREFIX.length);

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
      const file = repo?.files[filePath];
      if (!repo || file === undefined) return json(response, 404, { message: 'Not Found', status: '404' });
      const content = Buffer.from(file).toString('base64');
      return json(response, 200, {
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
    const repoPath = /^\/repos\/([^/]+)\/([^/]+)$/.exec(apiPath);
    if (method === 'GET' && repoPath) {
      const repo = visibleRepo(user, grant.scope, repoPath[1]!, repoPath[2]!);
      if (!repo) return json(response, 404, { message: 'Not Found', status: '404' });
      return json(response, 200, presentRepo(repo));
    }
    json(response, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
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
      };
      repos.push(repo);
      return repo;
    },
    issuedTokens: () => [...tokens.keys()],
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
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

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
