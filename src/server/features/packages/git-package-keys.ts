import type { CodeHostUser } from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import type { packages } from '../../db/schema/index.js';
import { decryptSecret } from '../../lib/crypto.js';

// A package read from a git server over SSH has its own deploy key (sealed in packages.deploy_key_private_encrypted)
// and the server's host key pinned when it was added: both go with the connection's user for this one use.

type PackageKeys = Partial<Pick<typeof packages.$inferSelect, 'deployKeyPrivateEncrypted' | 'sshHostKey'>>;

export function withDeployKey(ctx: AppContext, user: CodeHostUser, pkg: PackageKeys): CodeHostUser {
  if (!pkg.deployKeyPrivateEncrypted) return user;
  return {
    ...user,
    sshPrivateKey: decryptSecret(ctx.config.secretKey, pkg.deployKeyPrivateEncrypted),
    sshKnownHosts: pkg.sshHostKey ?? undefined,
  };
}
