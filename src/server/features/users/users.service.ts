import { isEntityId } from '../../../contract/ids.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../http/errors.js';
import type { RequestHost } from '../../http/hosts.js';
import { firstFreeSlug, slugBase } from './slug.js';
import * as repository from './users.repository.js';

export type User = repository.UserRow;
export type UserType = User['userType'];

/** The users service needs only the database and a clock, so the admin command line can call it too. */
export type UsersDeps = Pick<AppContext, 'db' | 'clock'>;

// Two sign-ups may pick the same free slug at once; the unique index decides and the loser tries the next one.
const SLUG_ATTEMPTS = 5;

/** E-mail addresses are compared and stored in lowercase (the unique index is on lower(email)). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserById(deps: UsersDeps, id: string): Promise<User | undefined> {
  // A malformed id would make PostgreSQL reject the uuid cast; to the caller it is simply nobody.
  if (!isEntityId(id)) return undefined;
  return repository.findUserRowById(deps.db, id);
}

export async function getUserById(deps: UsersDeps, id: string): Promise<User> {
  const user = await findUserById(deps, id);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

/** How a seller is named to holders and buyers (a row shape, not who acts): their host slug and the brand fallbacks. */
export type SellerProfile = Pick<User, 'id' | 'slug' | 'displayName' | 'githubUsername'>;

export async function findSellerProfile(
  deps: Pick<AppContext, 'db'>,
  by: { id: string } | { slug: string },
): Promise<SellerProfile | undefined> {
  const seller =
    'id' in by
      ? isEntityId(by.id)
        ? await repository.findUserRowById(deps.db, by.id)
        : undefined
      : await repository.findUserRowBySlug(deps.db, by.slug);
  return (
    seller && {
      id: seller.id,
      slug: seller.slug,
      displayName: seller.displayName,
      githubUsername: seller.githubUsername,
    }
  );
}

/** The seller whose repository host the request came to; undefined on the app's own host and the bare Composer host. */
export async function findHostSeller(
  deps: Pick<AppContext, 'db'>,
  host: RequestHost,
): Promise<SellerProfile | undefined> {
  return host.kind === 'repository' && host.seller ? findSellerProfile(deps, { slug: host.seller.slug }) : undefined;
}

export async function findUserByEmail(deps: UsersDeps, email: string): Promise<User | undefined> {
  return repository.findUserRowByEmail(deps.db, normalizeEmail(email));
}

export async function findUserByGithubId(deps: UsersDeps, githubId: number): Promise<User | undefined> {
  return repository.findUserRowByGithubId(deps.db, githubId);
}

/** Every account, newest first (the admin Users tab). */
export async function listUsers(deps: UsersDeps): Promise<User[]> {
  return repository.selectUsersNewestFirst(deps.db);
}

export async function listAdmins(deps: UsersDeps): Promise<User[]> {
  return repository.selectAdmins(deps.db);
}

export type NewUser = {
  userType: UserType;
  email?: string | null;
  githubId?: number | null;
  githubUsername?: string | null;
  displayName?: string | null;
  avatarUrl?: string | null;
  githubAccessTokenEncrypted?: string | null;
  githubScopes?: string | null;
  selectedTier?: string | null;
};

/** Creates a user with a unique slug taken from the code-host username, else from the e-mail's local part. */
export async function createUser(deps: UsersDeps, values: NewUser): Promise<User> {
  const base = slugBase(values.githubUsername ?? values.email ?? 'seller');
  const now = deps.clock.now();
  for (let attempt = 1; ; attempt++) {
    const slug = firstFreeSlug(base, await slugsStartingWith(deps, base));
    try {
      return await repository.insertUser(deps.db, {
        ...values,
        email: values.email ? normalizeEmail(values.email) : null,
        slug,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      if (attempt >= SLUG_ATTEMPTS || !isUniqueViolation(error, 'users_slug_unique')) throw error;
    }
  }
}

export async function updateUser(deps: UsersDeps, id: string, patch: Partial<NewUser>): Promise<User> {
  const user = await repository.updateUserRow(deps.db, id, {
    ...patch,
    ...(patch.email ? { email: normalizeEmail(patch.email) } : {}),
    updatedAt: deps.clock.now(),
  });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}

/** The seller behind a verified e-mail address: the existing account, or a new one. */
export async function findOrCreateUserByEmail(deps: UsersDeps, email: string): Promise<{ user: User; isNew: boolean }> {
  const existing = await findUserByEmail(deps, email);
  if (existing) return { user: existing, isNew: false };
  try {
    return { user: await createUser(deps, { userType: 'seller', email }), isNew: true };
  } catch (error) {
    // The same address signed in twice at once: the other request created it.
    if (!isUniqueViolation(error, 'users_email_unique')) throw error;
    const created = await findUserByEmail(deps, email);
    if (!created) throw error;
    return { user: created, isNew: false };
  }
}

export type AdminOutcome = 'created' | 'promoted' | 'unchanged';

/** Makes the owner of an e-mail address an admin, creating the account when there is none (idempotent). */
export async function createOrPromoteAdmin(
  deps: UsersDeps,
  email: string,
): Promise<{ user: User; outcome: AdminOutcome }> {
  const existing = await findUserByEmail(deps, email);
  if (!existing) return { user: await createUser(deps, { userType: 'admin', email }), outcome: 'created' };
  if (existing.userType === 'admin') return { user: existing, outcome: 'unchanged' };
  return { user: await updateUser(deps, existing.id, { userType: 'admin' }), outcome: 'promoted' };
}

function slugsStartingWith(deps: UsersDeps, base: string): Promise<Set<string>> {
  return repository.selectSlugsStartingWith(deps.db, base);
}

/** The seller's choice for their holders' tokens a secret scanner reports (issue 32): revoke at once, or mark and keep. */
export async function setLeakedTokenAction(deps: UsersDeps, id: string, action: 'revoke' | 'mark'): Promise<User> {
  const user = await repository.updateUserRow(deps.db, id, { leakedTokenAction: action });
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}
