import { decryptSecret } from '../../lib/crypto.js';
import { codeHostOf } from './code-host-kinds.js';
import type { ConnectionDriver } from './connection-driver.js';

// The old GitHub OAuth grant (scope `repo`), kept working for sellers who connected before the GitHub App. New
// connections never get it: Code hosts offers these sellers the App, and their packages move to it.

export const githubOAuthDriver: ConnectionDriver = {
  kind: 'github_oauth',
  async open(ctx, connection) {
    const host = codeHostOf(ctx, 'github');
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
