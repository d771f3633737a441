import { and, asc, desc, eq, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow, writtenRow } from '../../db/result-rows.js';
import { users } from '../../db/schema/index.js';

// The queries of accounts (the users table, which this domain alone writes): people and organisations.

type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type UserChanges = Partial<Omit<NewUserRow, 'id' | 'createdAt'>>;

async function findUserWhere(db: Queryable, where: SQL): Promise<UserRow | undefined> {
  return firstRow(db.select().from(users).where(where).limit(1));
}

export const findUserRowById = (db: Queryable, id: string) => findUserWhere(db, eq(users.id, id));
export const findUserRowBySlug = (db: Queryable, slug: string) => findUserWhere(db, eq(users.slug, slug));
/** By the lower-case address: the unique index is on lower(email). */
export const findUserRowByEmail = (db: Queryable, email: string) =>
  findUserWhere(db, sql`lower(${users.email}) = ${email}`);
export const findUserRowByGithubId = (db: Queryable, githubId: number) =>
  findUserWhere(db, eq(users.githubId, githubId));

/** Every account, newest first. */
export function selectUsersNewestFirst(db: Queryable): Promise<UserRow[]> {
  return db.select().from(users).orderBy(desc(users.createdAt), asc(users.email));
}

export function selectAdmins(db: Queryable): Promise<UserRow[]> {
  return db.select().from(users).where(eq(users.userType, 'admin')).orderBy(asc(users.createdAt));
}

export async function insertUser(db: Queryable, values: NewUserRow): Promise<UserRow> {
  return writtenRow(db.insert(users).values(values).returning(), 'The new user');
}

/** Changes an account; undefined when there is none with that id. */
export async function updateUserRow(db: Queryable, id: string, changes: UserChanges): Promise<UserRow | undefined> {
  return firstRow(db.update(users).set(changes).where(eq(users.id, id)).returning());
}

/** The slugs equal to `base` or starting with `base-` (`base` holds only [a-z0-9-], so it needs no LIKE escaping). */
export async function selectSlugsStartingWith(db: Queryable, base: string): Promise<Set<string>> {
  const rows = await db
    .select({ slug: users.slug })
    .from(users)
    .where(or(eq(users.slug, base), like(users.slug, `${base}-%`)));
  return new Set(rows.map((row) => row.slug));
}

/** Marks the account closed; false when it already was (nothing changed). */
export async function markAccountClosed(
  db: Pick<Database, 'update'>,
  id: string,
  closedAt: Date,
  eraseAfter: Date,
): Promise<boolean> {
  return hasAnyRow(
    db
      .update(users)
      .set({ closedAt, eraseAfter, updatedAt: closedAt })
      .where(and(eq(users.id, id), isNull(users.closedAt)))
      .returning({ id: users.id }),
  );
}

/** Empties the account's identity: e-mail, names, avatar and code-host identity (the slug stays). */
export async function eraseAccountIdentity(db: Pick<Database, 'update'>, id: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      email: null,
      displayName: null,
      githubId: null,
      githubUsername: null,
      avatarUrl: null,
      githubAccessTokenEncrypted: null,
      githubScopes: null,
      updatedAt: now,
    })
    .where(eq(users.id, id));
}
