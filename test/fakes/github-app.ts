import { createHmac, createVerify, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeGitHub, FakeGithubRepo } from './github.js';

// A GitHub App on the fake GitHub, following the public API's shapes (docs.github.com "REST API endpoints for GitHub
// Apps" and "for GitHub App installations"): the App authenticates with a JWT signed RS256 by its private key
// (iss = App ID, at most ten minutes), mints one-hour installation tokens (`ghs_…`) that read exactly the repositories
// of the installation (API and git over HTTP), and its webhook deliveries are signed with the App's webhook secret.

export type FakeInstallation = {
  id: number;
  account: { login: string; id: number; type: 'User' | 'Organization' };
  repositoryIds: number[];
  suspendedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Tokens minted for it so far. */
  tokens: string[];
};

export type FakeGithubApp = {
  appId: string;
  slug: string;
  privateKeyPem: string;
  webhookSecret: string;
  /** GITHUB_APP_* settings for this App (with the fake's GITHUB_WEB_URL/GITHUB_API_URL). */
  env(): Record<string, string>;
  /** Installs the App on the account's repositories (as the seller does on GitHub); `installedAt` defaults to now. */
  install(accountLogin: string, repos: FakeGithubRepo[], options?: { installedAt?: Date }): FakeInstallation;
  /** Uninstalls it: its tokens stop working at once. */
  uninstall(installation: FakeInstallation): void;
  setRepositories(installation: FakeInstallation, repos: FakeGithubRepo[]): void;
  /**
   * What GitHub's install page does when a browser opens it: installs the App on these repositories of the account
   * and sends the browser to the Setup URL with `installation_id`, `setup_action=install` and the `state` it was given.
   */
  onInstallPage(choice: { setupUrl: string; accountLogin: string; repos: FakeGithubRepo[] }): void;
  /** Every installation token minted so far (tests check none is stored). */
  mintedTokens(): string[];
  /** Requests the App authenticated with its JWT, and whether the JWT was valid. */
  jwtRequests: { path: string; valid: boolean }[];
  /** Sends an event to `url` as GitHub sends the App's: JSON, X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256. */
  deliver(
    url: string,
    event: string,
    installation: FakeInstallation,
    payload: Record<string, unknown>,
    options?: { deliveryId?: string; secret?: string },
  ): Promise<{ status: number; body: string; deliveryId: string }>;
};

const HOUR_MS = 60 * 60_000;

export function attachGithubApp(github: FakeGitHub, options: { appId?: string; slug?: string } = {}): FakeGithubApp {
  const appId = options.appId ?? '424242';
  const slug = options.slug ?? 'packgate-test';
  const webhookSecret = randomBytes(16).toString('hex');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const { users, repos, tokens, routes, presentRepo, json } = github.internals;
  const installations = new Map<number, FakeInstallation>();
  const minted: string[] = [];
  const jwtRequests: { path: string; valid: boolean }[] = [];
  let nextInstallationId = 7_000_000;

  const loginOf = (installation: FakeInstallation) => `app-installation-${installation.id}`;

  function jwtIsValid(request: IncomingMessage): boolean {
    const match = /^bearer\s+([\w-]+)\.([\w-]+)\.([\w-]+)$/i.exec(request.headers.authorization ?? '');
    if (!match) return false;
    const [, header, payload, signature] = match;
    try {
      const head = JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')) as { alg?: string };
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as {
        iss?: string | number;
        iat?: number;
        exp?: number;
      };
      const verified = createVerify('RSA-SHA256')
        .update(`${header}.${payload}`)
        .verify(publicKey, Buffer.from(signature!, 'base64url'));
      const now = Math.floor(Date.now() / 1000);
      return (
        verified &&
        head.alg === 'RS256' &&
        String(claims.iss) === appId &&
        typeof claims.iat === 'number' &&
        typeof claims.exp === 'number' &&
        claims.iat <= now + 60 &&
        claims.exp > now &&
        claims.exp - claims.iat <= 600
      );
    } catch {
      return false;
    }
  }

  function presentInstallation(installation: FakeInstallation) {
    return {
      id: installation.id,
      account: { ...installation.account, node_id: `U_${installation.account.id}` },
      app_id: Number(appId),
      app_slug: slug,
      target_type: installation.account.type,
      repository_selection: 'selected',
      permissions: { contents: 'read', metadata: 'read' },
      events: ['push', 'create', 'delete', 'repository'],
      suspended_at: installation.suspendedAt,
      created_at: installation.createdAt,
      updated_at: installation.updatedAt,
    };
  }

  function installationOfToken(request: IncomingMessage): FakeInstallation | undefined {
    const match = /^(?:bearer|token)\s+(ghs_\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match) return undefined;
    return [...installations.values()].find((installation) => installation.tokens.includes(match[1]!));
  }

  function appRoute(request: IncomingMessage, response: ServerResponse, apiPath: string, _body: string, url: URL) {
    const method = request.method ?? 'GET';
    const app = /^\/app\/installations\/(\d+)(\/access_tokens)?$/.exec(apiPath);
    if (app) {
      const valid = jwtIsValid(request);
      jwtRequests.push({ path: apiPath, valid });
      if (!valid) {
        json(response, 401, { message: 'A JSON web token could not be decoded', status: '401' });
        return true;
      }
      const installation = installations.get(Number(app[1]));
      if (!installation) {
        json(response, 404, { message: 'Not Found', status: '404' });
        return true;
      }
      if (method === 'GET' && !app[2]) {
        json(response, 200, presentInstallation(installation));
        return true;
      }
      if (method === 'POST' && app[2]) {
        if (installation.suspendedAt) {
          json(response, 403, { message: 'This installation has been suspended', status: '403' });
          return true;
        }
        const token = `ghs_${randomBytes(18).toString('base64url')}`;
        installation.tokens.push(token);
        minted.push(token);
        tokens.set(token, { login: loginOf(installation), scope: 'repo' });
        json(response, 201, {
          token,
          expires_at: new Date(Date.now() + HOUR_MS).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          permissions: { contents: 'read', metadata: 'read' },
          repository_selection: 'selected',
        });
        return true;
      }
    }
    if (method === 'GET' && apiPath === '/installation/repositories') {
      const installation = installationOfToken(request);
      if (!installation) {
        json(response, 401, { message: 'Bad credentials', status: '401' });
        return true;
      }
      const visible = repos.filter((repo) => installation.repositoryIds.includes(repo.id));
      const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      if (page * perPage < visible.length) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        response.setHeader('link', `<${next.toString()}>; rel="next"`);
      }
      json(response, 200, {
        total_count: visible.length,
        repository_selection: 'selected',
        repositories: visible.slice((page - 1) * perPage, page * perPage).map((repo) => presentRepo(repo)),
      });
      return true;
    }
    return false;
  }
  routes.push(appRoute);

  let installChoice: { setupUrl: string; accountLogin: string; repos: FakeGithubRepo[] } | undefined;
  github.internals.webRoutes.push((request, response, pathname, _body, url) => {
    // github.com's path, and GitHub Enterprise Server's (which this fake on its own host name stands for).
    const paths = [`/apps/${slug}/installations/new`, `/github-apps/${slug}/installations/new`];
    if (request.method !== 'GET' || !paths.includes(pathname)) return false;
    if (!installChoice) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>No install choice set</h1>');
      return true;
    }
    const installation = api.install(installChoice.accountLogin, installChoice.repos);
    const target = new URL(installChoice.setupUrl);
    target.searchParams.set('installation_id', String(installation.id));
    target.searchParams.set('setup_action', 'install');
    const state = url.searchParams.get('state');
    if (state !== null) target.searchParams.set('state', state);
    response.writeHead(302, { location: target.toString() }).end();
    return true;
  });

  function grantRepositories(installation: FakeInstallation, granted: FakeGithubRepo[]) {
    const login = loginOf(installation);
    for (const repo of repos) {
      repo.collaborators = repo.collaborators.filter((collaborator) => collaborator !== login);
    }
    // The installation's tokens see the repositories it was given, as a collaborator would.
    for (const repo of granted) repo.collaborators.push(login);
    installation.repositoryIds = granted.map((repo) => repo.id);
  }

  const api: FakeGithubApp = {
    appId,
    slug,
    privateKeyPem,
    webhookSecret,
    env: () => ({
      GITHUB_WEB_URL: github.webUrl,
      GITHUB_API_URL: github.apiUrl,
      GITHUB_APP_ID: appId,
      GITHUB_APP_PRIVATE_KEY: privateKeyPem,
      GITHUB_APP_SLUG: slug,
      GITHUB_APP_WEBHOOK_SECRET: webhookSecret,
    }),
    install(accountLogin, granted, installOptions = {}) {
      const account = users.get(accountLogin) ?? github.addUser({ login: accountLogin });
      const at = (installOptions.installedAt ?? new Date()).toISOString();
      const installation: FakeInstallation = {
        id: nextInstallationId++,
        account: { login: account.login, id: account.id, type: 'User' },
        repositoryIds: [],
        suspendedAt: null,
        createdAt: at,
        updatedAt: at,
        tokens: [],
      };
      installations.set(installation.id, installation);
      users.set(loginOf(installation), {
        id: installation.id,
        login: loginOf(installation),
        name: null,
        avatarUrl: '',
        emails: [],
      });
      grantRepositories(installation, granted);
      return installation;
    },
    uninstall(installation) {
      installations.delete(installation.id);
      grantRepositories(installation, []);
      for (const token of installation.tokens) tokens.delete(token);
    },
    setRepositories(installation, granted) {
      grantRepositories(installation, granted);
      installation.updatedAt = new Date().toISOString();
    },
    onInstallPage(choice) {
      installChoice = choice;
    },
    mintedTokens: () => [...minted],
    jwtRequests,
    async deliver(url, event, installation, payload, deliverOptions = {}) {
      const body = JSON.stringify({
        ...payload,
        installation: { id: installation.id, account: { login: installation.account.login } },
      });
      const deliveryId = deliverOptions.deliveryId ?? randomUUID();
      const signature = createHmac('sha256', deliverOptions.secret ?? webhookSecret)
        .update(body)
        .digest('hex');
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/fake',
          'x-github-event': event,
          'x-github-delivery': deliveryId,
          'x-github-hook-installation-target-type': 'integration',
          'x-github-hook-installation-target-id': appId,
          'x-hub-signature-256': `sha256=${signature}`,
        },
        body,
      });
      return { status: answer.status, body: await answer.text(), deliveryId };
    },
  };
  return api;
}
