import type { ConnectionRepository, CodeHostConnection as ConnectionView } from '../../../contract/code-hosts.js';
import { isEntityId } from '../../../contract/ids.js';
import type { AppContext } from '../../context.js';
import type { CodeHostConnectionKind, codeHostConnections } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { recordAuditEvent } from '../shared/audit/audit.service.js';
import * as repository from './code-hosts.repository.js';
import type { CodeHostConnection, OpenedConnection } from './connection-driver.js';
import { connectionDrivers } from './connection-drivers.js';
import { notifyConnectionProblemOnce } from './connection-notice.js';

// Code-host connections (issue 30): the only writer of code_host_connections. A package belongs to one connection;
// opening it gives the host and the credentials of this one use. Removing a connection leaves its packages serving
// what was published (packages.connection_id becomes null, and Management says to connect again).

// What other domains tell of a code host by its kind (its name in a sentence, the configured host) lives beside the
// kinds, where the connection drivers read it too.
export { codeHostName, codeHostOf } from './code-host-kinds.js';

export type { CodeHostConnection, OpenedConnection } from './connection-driver.js';
// API v1 answers a host's refusal as the seller app does; other domains reach it through this service.
export { withConnectionErrors } from './connection-errors.js';
export { credentialProblem, isCredentialRefusal } from './connection-problem.js';

export type NewConnection = Pick<
  typeof codeHostConnections.$inferInsert,
  | 'ownerId'
  | 'kind'
  | 'label'
  | 'authMethod'
  | 'baseUrl'
  | 'externalId'
  | 'accountName'
  | 'username'
  | 'secretEncrypted'
  | 'refreshTokenEncrypted'
  | 'tokenExpiresAt'
  | 'scopes'
  | 'webhookSecretEncrypted'
  | 'createdById'
>;

export async function findConnection(
  ctx: Pick<AppContext, 'db'>,
  connectionId: string,
): Promise<CodeHostConnection | undefined> {
  if (!isEntityId(connectionId)) return undefined;
  return repository.findConnectionRow(ctx.db, connectionId);
}

/** The owner's connection; NOT_FOUND for an unknown id and another seller's connection alike. */
export async function getOwnedConnection(
  ctx: Pick<AppContext, 'db'>,
  ownerId: string,
  connectionId: string,
): Promise<CodeHostConnection> {
  const row = await findConnection(ctx, connectionId);
  if (!row || row.ownerId !== ownerId) throw new AppError('NOT_FOUND', 'Code host connection not found');
  return row;
}

/** The host and the credentials of one use of the connection (minted or refreshed by its driver). */
export async function openConnection(
  ctx: AppContext,
  connectionOrId: string | CodeHostConnection,
): Promise<OpenedConnection & { connection: CodeHostConnection }> {
  const connection = typeof connectionOrId === 'string' ? await findConnection(ctx, connectionOrId) : connectionOrId;
  if (!connection) {
    throw new AppError('NOT_FOUND', 'The code host connection was removed.', {
      suggestion: 'Connect the code host again on Code hosts, then refresh the package.',
    });
  }
  const driver = connectionDrivers[connection.kind];
  if (!driver) {
    throw new AppError('CONFLICT', `Connections of kind ${connection.kind} are not available on this server.`);
  }
  return { ...(await driver.open(ctx, connection)), connection };
}

/** The owner's connections, oldest first. */
export async function findConnectionsOf(
  ctx: Pick<AppContext, 'db'>,
  ownerId: string,
  kinds?: CodeHostConnectionKind[],
): Promise<CodeHostConnection[]> {
  return repository.selectConnectionsOf(ctx.db, ownerId, kinds);
}

/** What a connection may access, in words (its driver's, else its stored scopes). */
export function describeAccess(connection: CodeHostConnection): string {
  return connectionDrivers[connection.kind]?.describeAccess?.(connection) ?? connection.scopes ?? 'Not stated';
}

/** GET /api/code-hosts: the owner's connections with what each may access and how many packages use it. */
export async function listConnections(ctx: AppContext, ownerId: string): Promise<ConnectionView[]> {
  const rows = await findConnectionsOf(ctx, ownerId);
  const counts = await repository.countPackagesByConnection(ctx.db, ownerId);
  const countOf = new Map(counts.map((row) => [row.connectionId, row.total]));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    label: row.label,
    accountName: row.accountName,
    baseUrl: row.baseUrl,
    access: describeAccess(row),
    status: row.status,
    problem: row.problem,
    problemSince: row.problemSince?.toISOString() ?? null,
    packageCount: countOf.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** The repositories a connection may read, live from its host (never cached: installations change at any time). */
export async function listConnectionRepositories(
  ctx: AppContext,
  ownerId: string,
  connectionId: string,
): Promise<ConnectionRepository[]> {
  const opened = await openConnection(ctx, await getOwnedConnection(ctx, ownerId, connectionId));
  const repositories = await opened.host.listRepositories(opened.user);
  // What the dashboard and API v1 show of each: nothing of the host's own record beyond these.
  return repositories.map((found) => ({
    id: found.id,
    fullName: found.fullName,
    description: found.description,
    hasComposerJson: found.hasComposerJson,
    composerName: found.composerName,
  }));
}

/** Stores a new connection, audited as `code_host.connected`. */
export async function createConnection(
  ctx: AppContext,
  actor: Principal | undefined,
  values: NewConnection,
): Promise<CodeHostConnection> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await repository.insertConnection(tx, { ...values, createdAt: now, updatedAt: now });
    if (actor) {
      await recordAuditEvent(tx, ctx, actor, {
        action: 'code_host.connected',
        targetType: 'code_host_connection',
        targetId: row.id,
        details: { kind: row.kind, label: row.label },
      });
    }
    return row;
  });
}

/** Changes what a connection stores (a renewed secret, a renamed account); never its owner or kind. */
export async function updateConnection(
  ctx: AppContext,
  connectionId: string,
  changes: Partial<Omit<NewConnection, 'ownerId' | 'kind' | 'createdById'>>,
): Promise<void> {
  await repository.updateConnectionRow(ctx.db, connectionId, { ...changes, updatedAt: ctx.clock.now() });
}

/**
 * Removes the connection. Its packages keep serving every published version; they sync no more until moved to another
 * connection, and Management says so. Audited as `code_host.removed`.
 */
export async function removeConnection(ctx: AppContext, actor: Principal, connectionId: string): Promise<void> {
  const ownerId = actor.sellerId;
  const row = await getOwnedConnection(ctx, ownerId, connectionId);
  await ctx.db.transaction(async (tx) => {
    if (!(await repository.deleteConnectionOf(tx, ownerId, row.id)))
      throw new AppError('NOT_FOUND', 'Code host connection not found');
    await recordAuditEvent(tx, ctx, actor, {
      action: 'code_host.removed',
      targetType: 'code_host_connection',
      targetId: row.id,
      details: { kind: row.kind, label: row.label },
    });
  });
}

/**
 * The host refused the connection's credential: the connection shows `problem` until it works again. The seller is
 * told once per problem (problemNotifiedAt; the e-mail itself is sent by the broken-credentials notice).
 */
export async function markConnectionBroken(ctx: AppContext, connectionId: string, problem: string): Promise<void> {
  const now = ctx.clock.now();
  // Only a new problem resets the notice: syncs meeting the same refusal at once must not e-mail twice.
  await repository.markBrokenWithNewProblem(ctx.db, connectionId, problem, now);
  await notifyConnectionProblemOnce(ctx, connectionId);
}

/** The host accepted the connection again: its problem is over. */
export async function markConnectionWorking(ctx: AppContext, connectionId: string): Promise<void> {
  await repository.markWorkingIfBroken(ctx.db, connectionId, ctx.clock.now());
}

/** The owner's local-folder connection, made the first time they add a package from the folder. */
export async function ensureLocalConnection(ctx: AppContext, ownerId: string): Promise<CodeHostConnection> {
  const [existing] = await findConnectionsOf(ctx, ownerId, ['local']);
  if (existing) return existing;
  return createConnection(ctx, undefined, { ownerId, kind: 'local', label: 'Local folder', authMethod: 'none' });
}

/** The `repo` grant still on the user (sellers who connected through the old OAuth flow), as an unsaved connection. */
export async function legacyGithubGrantOf(
  ctx: AppContext,
  ownerId: string,
): Promise<(NewConnection & { secretEncrypted: string }) | undefined> {
  const owner = await repository.findLegacyGithubGrant(ctx.db, ownerId);
  if (!owner?.token) return undefined;
  const scopes = owner.scopes?.split(/[\s,]+/).filter(Boolean);
  // Sign-in asks only for the identity now: such a grant reads no code and never becomes a connection.
  if (scopes && scopes.length > 0 && !scopes.includes('repo')) return undefined;
  return {
    ownerId,
    kind: 'github_oauth',
    label: `${owner.login ?? 'GitHub account'} on GitHub`,
    accountName: owner.login,
    authMethod: 'oauth',
    secretEncrypted: owner.token,
    scopes: owner.scopes,
  };
}

/** The owner's GitHub OAuth connection: the one the migration made, or one made now from a legacy `repo` grant. */
export async function adoptLegacyGithubGrant(
  ctx: AppContext,
  ownerId: string,
): Promise<CodeHostConnection | undefined> {
  const [existing] = await findConnectionsOf(ctx, ownerId, ['github_oauth']);
  if (existing) return existing;
  const grant = await legacyGithubGrantOf(ctx, ownerId);
  return grant ? createConnection(ctx, undefined, grant) : undefined;
}
