import { AppError } from '../../http/errors.js';
import type { ConnectionDriver } from './connection-driver.js';

// The server's folder of git repositories (GIT_REPOS_DIR): no credentials, every seller of this server sees it.

export const localDriver: ConnectionDriver = {
  kind: 'local',
  async open(ctx, connection) {
    const host = ctx.codeHosts.local;
    if (!host) {
      throw new AppError(
        'CONFLICT',
        'This package comes from the local repository folder, which this server is not configured to use. ' +
          'Put its repository back in GIT_REPOS_DIR and restart, or add the package anew.',
      );
    }
    return { host, user: { id: connection.ownerId } };
  },
  describeAccess: () => 'Every repository in the server’s folder (read only)',
};
