import { decryptSecret } from '../../lib/crypto.js';
import type { ConnectionDriver } from './connection-driver.js';
import { gitServerHost } from './git-server-host.js';

// Any git server by URL (issue 30 item 4). An HTTPS connection holds the user name and the sealed password or token
// of one server; an SSH connection holds nothing secret (each package has its own deploy key, which the packages
// domain adds to the user when it opens the package's host).

export const gitDriver: ConnectionDriver = {
  kind: 'git',
  async open(ctx, connection) {
    const user: { id: string; username?: string; password?: string } = { id: connection.ownerId };
    if (connection.authMethod === 'basic' && connection.secretEncrypted) {
      user.username = connection.username ?? '';
      user.password = decryptSecret(ctx.config.secretKey, connection.secretEncrypted);
    }
    return { host: gitServerHost(ctx), user };
  },
  describeAccess: (connection) =>
    connection.authMethod === 'ssh_key'
      ? 'The repositories whose read-only deploy key you added, one key per package (SSH)'
      : connection.authMethod === 'none'
        ? 'Public repositories on this server (HTTPS, no credential)'
        : `What ${connection.username ?? 'the user'} may read on this server (HTTPS with a password or token)`,
};
