import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { encryptSecret } from '../../lib/crypto.js';
import {
  type CodeHostConnection,
  createConnection,
  findConnectionsOf,
  markConnectionWorking,
  updateConnection,
} from './code-hosts.service.js';

export { gitServerHost } from './git-server-host.js';

// The connection of a seller's git server (issue 30 item 4), made when they add a package by its URL: one per server
// and way in. Over HTTPS it is the server and the user name, and adding another package with a new password renews
// the stored one (and ends a refused connection's problem). Over SSH it is the server alone: keys are per package.

export type GitServerAccess =
  | { authMethod: 'basic'; origin: string; host: string; username: string; password: string }
  /** A public repository over HTTPS: no credential at all. */
  | { authMethod: 'none'; origin: string; host: string }
  | { authMethod: 'ssh_key'; origin: string; host: string };

function externalIdOf(access: GitServerAccess): string {
  if (access.authMethod === 'basic') return `basic:${access.username}`;
  return access.authMethod === 'ssh_key' ? 'ssh' : 'none';
}

const LABEL_SUFFIX = { basic: '', none: ' (public)', ssh_key: ' (SSH)' } as const;
const SCOPES = { basic: 'read (HTTPS)', none: 'public read (HTTPS)', ssh_key: 'read-only deploy keys (SSH)' } as const;

/** The owner's connection to this git server for this way in, made or renewed. */
export async function connectGitServer(
  ctx: AppContext,
  actor: Principal,
  ownerId: string,
  access: GitServerAccess,
): Promise<CodeHostConnection> {
  const externalId = externalIdOf(access);
  const existing = (await findConnectionsOf(ctx, ownerId, ['git'])).find(
    (connection) => connection.baseUrl === access.origin && connection.externalId === externalId,
  );
  const secret =
    access.authMethod === 'basic'
      ? { username: access.username, secretEncrypted: encryptSecret(ctx.config.secretKey, access.password) }
      : {};
  if (existing) {
    if (access.authMethod === 'basic') {
      await updateConnection(ctx, existing.id, secret);
      await markConnectionWorking(ctx, existing.id);
    }
    return existing;
  }
  return createConnection(ctx, actor, {
    ownerId,
    kind: 'git',
    label: `${access.host}${LABEL_SUFFIX[access.authMethod]}`,
    baseUrl: access.origin,
    externalId,
    accountName: access.authMethod === 'basic' ? access.username : null,
    authMethod: access.authMethod,
    scopes: SCOPES[access.authMethod],
    createdById: actor.person?.id ?? null,
    ...secret,
  });
}
