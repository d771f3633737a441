import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { findConnectionRow, findSameAccountConnection } from './code-hosts.repository.js';
import { createConnection, markConnectionWorking, type NewConnection, updateConnection } from './code-hosts.service.js';
import type { CodeHostConnection } from './connection-driver.js';

// Connecting the same account again (a new token after a revoked one, OAuth again after a refused refresh) renews
// the existing connection instead of adding a second one: its packages keep their connection, and its problem ends.

/** Creates the connection, or renews the owner's connection of the same kind, host and account. */
export async function saveConnection(
  ctx: AppContext,
  actor: Principal,
  values: NewConnection & { externalId: string },
): Promise<CodeHostConnection> {
  const existing = await findSameAccountConnection(ctx.db, values);
  if (!existing) return createConnection(ctx, actor, values);
  const { ownerId: _owner, kind: _kind, createdById: _creator, ...changes } = values;
  await updateConnection(ctx, existing.id, changes);
  await markConnectionWorking(ctx, existing.id);
  const renewed = await findConnectionRow(ctx.db, existing.id);
  return renewed ?? existing;
}
