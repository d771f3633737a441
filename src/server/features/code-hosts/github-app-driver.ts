import { GithubAppClient, GithubAppCodeHost } from '../../adapters/codehost/github-app.js';
import { GithubCodeHost } from '../../adapters/codehost/github-code-host.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { ConnectionDriver } from './connection-driver.js';

// A GitHub App installation (issue 30 item 1): each opening mints (or reuses, until five minutes before its end) a
// one-hour installation token from the App's key. Nothing but the installation id is stored.

const apps = new WeakMap<object, { client: GithubAppClient; host: GithubAppCodeHost }>();

/** This server's App client and host, one per configuration (the token cache lives there). */
export function githubAppOf(ctx: Pick<AppContext, 'config'>): { client: GithubAppClient; host: GithubAppCodeHost } {
  const settings = ctx.config.githubApp;
  if (!settings) {
    throw new AppError(
      'CONFLICT',
      'This connection is a GitHub App installation, but this server has no GitHub App configured. ' +
        'Set GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY and GITHUB_APP_SLUG again and restart.',
    );
  }
  let app = apps.get(settings);
  if (!app) {
    const client = new GithubAppClient({
      appId: settings.appId,
      privateKey: settings.privateKey,
      apiUrl: settings.apiUrl,
    });
    const host = new GithubAppCodeHost(new GithubCodeHost({ webUrl: settings.webUrl, apiUrl: settings.apiUrl }));
    app = { client, host };
    apps.set(settings, app);
  }
  return app;
}

export const githubAppDriver: ConnectionDriver = {
  kind: 'github_app',
  async open(ctx, connection) {
    const { client, host } = githubAppOf(ctx);
    if (!connection.externalId) throw new AppError('CONFLICT', 'This GitHub App connection names no installation.');
    const token = await client.installationToken(connection.externalId);
    return { host, user: { id: connection.ownerId, accessToken: token } };
  },
  describeAccess: (connection) =>
    `GitHub App: Contents read, Metadata read, on the repositories ${connection.accountName ?? 'the account'} chose`,
};
