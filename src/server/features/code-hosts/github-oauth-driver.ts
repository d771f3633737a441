import { AppError } from '../../http/errors.js';
import { decryptSecret } from '../../lib/crypto.js';
import type { ConnectionDriver } from './connection-driver.js';

// The old GitHub OAuth grant (scope `repo`), kept working for sellers who connected before the GitHub App. New
// connections never get it: Code hosts offers these sellers the App, and their packages move to it.

export const githubOAuthDriver: ConnectionDriver = {
  kind: 'github_oauth',
  async open(ctx, connection) {
    const host = ctx.codeHosts.github;
    if (!host) {
      throw new AppError(
        'CONFLICT',
        'This package comes from GitHub, which this server is not configured to use. ' +
          'Set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET again and restart, or add the package anew.',
      );
    }
    if (!connection.secretEncrypted) return { host, user: { id: connection.ownerId } };
    try {
      return {
        host,
        user: { id: connection.ownerId, accessToken: decryptSecret(ctx.config.secretKey, connection.secretEncrypted) },
      };
    } catch (error) {
      // A token sealed under another SECRET_KEY is as good as none: GitHub answers UNAUTHORIZED and the seller
      // reconnects.
      ctx.log.warn({ err: error, connectionId: connection.id }, 'stored GitHub token cannot be decrypted');
      return { host, user: { id: connection.ownerId } };
    }
  },
  describeAccess: (connection) =>
    `OAuth scopes: ${
      connection.scopes
        ? connection.scopes
            .split(/[\s,]+/)
            .filter(Boolean)
            .join(', ')
        : 'unknown'
    } (read and write access to every repository the account can reach)`,
};
