import { codeHostOf } from './code-host-kinds.js';
import type { ConnectionDriver } from './connection-driver.js';

// The server's folder of git repositories (GIT_REPOS_DIR): no credentials, every seller of this server sees it.

export const localDriver: ConnectionDriver = {
  kind: 'local',
  async open(ctx, connection) {
    return { host: codeHostOf(ctx, 'local'), user: { id: connection.ownerId } };
  },
  describeAccess: () => 'Every repository in the server’s folder (read only)',
};
