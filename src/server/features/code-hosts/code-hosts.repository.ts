import { and, asc, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, writtenRow } from '../../db/result-rows.js';
import { type CodeHostConnectionKind, codeHostConnections, packages, users } from '../../db/schema/index.js';

// The queries of code-host connections (the code_host_connections table, which this domain alone writes). Two reads
// look at other domains' tables: how many of the owner's packages use each connection (packages domain, which itself
// calls this one, so it cannot be asked) and the owner's e-mail and old GitHub grant (users domain).

type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

export type ConnectionRow = typeof codeHostConnections.$inferSelect;
export type NewConnectionRow = typeof codeHostConnections.$inferInsert;
export type ConnectionChanges = Partial<Omit<NewConnectionRow, 'id' | 'ownerId' | 'kind' | 'createdAt'>>;

export async function findConnectionRow(db: Queryable, connectionId: string): Promise<ConnectionRow | undefined> {
  return firstRow(db.select().from(codeHostConnections).where(eq(codeHostConnections.id, connectionId)).limit(1));
}

/** The connection's row, locked until the transaction `tx` ends. */
export async function lockConnectionRow(tx: Queryable, connectionId: string): Promise<ConnectionRow | undefined> {
  return firstRow(tx.select().from(codeHostConnections).where(eq(codeHostConnections.id, connectionId)).for('update'));
}

/** The owner's connections (of those kinds when given), oldest first. */
export function selectConnectionsOf(
  db: Queryable,
  ownerId: string,
  kinds?: CodeHostConnectionKind[],
): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(codeHostConnections)
    .where(and(eq(codeHostConnections.ownerId, ownerId), kinds ? inArray(codeHostConnections.kind, kinds) : undefined))
    .orderBy(asc(codeHostConnections.createdAt), asc(codeHostConnections.id));
}

/** The owner's connection of that kind, host and account. */
export async function findSameAccountConnection(
  db: Queryable,
  key: { ownerId: string; kind: CodeHostConnectionKind; externalId: string; baseUrl?: string | null },
): Promise<ConnectionRow | undefined> {
  return firstRow(
    db
      .select()
      .from(codeHostConnections)
      .where(
        and(
          eq(codeHostConnections.ownerId, key.ownerId),
          eq(codeHostConnections.kind, key.kind),
          eq(codeHostConnections.externalId, key.externalId),
          key.baseUrl ? eq(codeHostConnections.baseUrl, key.baseUrl) : isNull(codeHostConnections.baseUrl),
        ),
      )
      .limit(1),
  );
}

/** The connections of a GitHub App installation, whoever owns them. */
export function selectInstallationConnections(db: Queryable, installationId: string): Promise<ConnectionRow[]> {
  return db
    .select()
    .from(codeHostConnections)
    .where(and(eq(codeHostConnections.kind, 'github_app'), eq(codeHostConnections.externalId, installationId)));
}

/** How many of the owner's packages use each connection (a null key for packages without one). */
export function countPackagesByConnection(
  db: Queryable,
  ownerId: string,
): Promise<{ connectionId: string | null; total: number }[]> {
  return db
    .select({ connectionId: packages.connectionId, total: count() })
    .from(packages)
    .where(eq(packages.ownerId, ownerId))
    .groupBy(packages.connectionId);
}

export async function insertConnection(db: Queryable, values: NewConnectionRow): Promise<ConnectionRow> {
  return writtenRow(db.insert(codeHostConnections).values(values).returning(), 'The new code host connection');
}

export async function updateConnectionRow(
  db: Queryable,
  connectionId: string,
  changes: ConnectionChanges,
): Promise<void> {
  await db.update(codeHostConnections).set(changes).where(eq(codeHostConnections.id, connectionId));
}

/** Deletes the owner's connection: true when there was one. */
export async function deleteConnectionOf(db: Queryable, ownerId: string, connectionId: string): Promise<boolean> {
  return hasAnyRow(
    db
      .delete(codeHostConnections)
      .where(and(eq(codeHostConnections.id, connectionId), eq(codeHostConnections.ownerId, ownerId)))
      .returning({ id: codeHostConnections.id }),
  );
}

/** Marks the connection broken, unless it already is with that same problem (the notice is then not reset). */
export async function markBrokenWithNewProblem(
  db: Queryable,
  connectionId: string,
  problem: string,
  now: Date,
): Promise<void> {
  await db
    .update(codeHostConnections)
    .set({ status: 'broken', problem, problemSince: now, problemNotifiedAt: null, updatedAt: now })
    .where(
      and(
        eq(codeHostConnections.id, connectionId),
        or(ne(codeHostConnections.status, 'broken'), sql`${codeHostConnections.problem} is distinct from ${problem}`),
      ),
    );
}

/** Ends the connection's problem, if it is broken. */
export async function markWorkingIfBroken(db: Queryable, connectionId: string, now: Date): Promise<void> {
  await db
    .update(codeHostConnections)
    .set({ status: 'active', problem: null, problemSince: null, problemNotifiedAt: null, updatedAt: now })
    .where(and(eq(codeHostConnections.id, connectionId), eq(codeHostConnections.status, 'broken')));
}

/** Claims the notice of a broken connection's problem: answers what to tell, or undefined when it was told. */
export async function claimProblemNotice(
  db: Queryable,
  connectionId: string,
  now: Date,
): Promise<{ ownerId: string; label: string; problem: string | null } | undefined> {
  return firstRow(
    db
      .update(codeHostConnections)
      .set({ problemNotifiedAt: now })
      .where(
        and(
          eq(codeHostConnections.id, connectionId),
          eq(codeHostConnections.status, 'broken'),
          isNull(codeHostConnections.problemNotifiedAt),
        ),
      )
      .returning({
        ownerId: codeHostConnections.ownerId,
        label: codeHostConnections.label,
        problem: codeHostConnections.problem,
      }),
  );
}

export async function findOwnerEmail(db: Queryable, ownerId: string): Promise<string | null | undefined> {
  const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, ownerId)).limit(1);
  return owner?.email;
}

/** The GitHub OAuth grant stored on the owner's account (sellers who connected through the old flow). */
export async function findLegacyGithubGrant(
  db: Queryable,
  ownerId: string,
): Promise<{ token: string | null; scopes: string | null; login: string | null } | undefined> {
  return firstRow(
    db
      .select({ token: users.githubAccessTokenEncrypted, scopes: users.githubScopes, login: users.githubUsername })
      .from(users)
      .where(eq(users.id, ownerId))
      .limit(1),
  );
}
