import { BitbucketCodeHost } from '../../adapters/codehost/bitbucket-code-host.js';
import { CodeHostError } from '../../adapters/codehost/code-host.js';
import { decryptSecret } from '../../lib/crypto.js';
import type { CodeHostConnection, ConnectionDriver } from './connection-driver.js';

// Bitbucket Cloud connections: a workspace access token (every repository of the workspace) or a repository access
// token (one repository). The connection's externalId is `workspace` or `workspace/repository`.

export function bitbucketTargetOf(connection: Pick<CodeHostConnection, 'externalId' | 'accountName'>): {
  workspace: string;
  repositorySlug?: string;
} {
  const [workspace, repositorySlug] = (connection.externalId ?? connection.accountName ?? '').split('/');
  return { workspace: workspace ?? '', ...(repositorySlug ? { repositorySlug } : {}) };
}

export const bitbucketDriver: ConnectionDriver = {
  kind: 'bitbucket',
  async open(ctx, connection) {
    if (!connection.secretEncrypted) {
      throw new CodeHostError('UNAUTHORIZED', 'Bitbucket holds no token for this connection.');
    }
    let accessToken: string;
    try {
      accessToken = decryptSecret(ctx.config.secretKey, connection.secretEncrypted);
    } catch {
      throw new CodeHostError('UNAUTHORIZED', 'The stored Bitbucket token cannot be read on this server.');
    }
    const host = new BitbucketCodeHost({
      apiUrl: ctx.config.bitbucket.apiUrl,
      webUrl: ctx.config.bitbucket.webUrl,
      ...bitbucketTargetOf(connection),
    });
    return { host, user: { id: connection.ownerId, accessToken } };
  },
  describeAccess(connection) {
    const target = bitbucketTargetOf(connection);
    const what = target.repositorySlug
      ? `the repository ${target.workspace}/${target.repositorySlug}`
      : `every repository of the workspace ${target.workspace}`;
    const scopes = connection.scopes ? ` (scopes: ${connection.scopes})` : '';
    return `Access token reading ${what}${scopes}`;
  },
};
