import { randomBytes } from 'node:crypto';
import { portalSessions, sessions, users } from '../../src/server/db/schema/index.js';
import { sessionCookieName } from '../../src/server/http/session.js';
import { DAY_MS } from '../../src/server/lib/clock.js';
import { generateToken, sha256Hex } from '../../src/server/lib/crypto.js';
import { TestClient } from './http-client.js';
import type { TestApp } from './test-app.js';

// Signed-in users for tests, created straight in the database so that a test does not depend on
// the sign-in flows (GitHub, magic links) it is not about.

export type TestUser = typeof users.$inferSelect;

export type CreateTestUserOptions = {
  userType?: 'seller' | 'admin';
  email?: string;
  githubUsername?: string;
  selectedTier?: string | null;
  slug?: string;
};

/** Inserts a user row; e-mail and slug are made unique so that a test can create as many as it likes. */
export async function createTestUser(app: TestApp, options: CreateTestUserOptions = {}): Promise<TestUser> {
  const suffix = randomBytes(4).toString('hex');
  const userType = options.userType ?? 'seller';
  const [user] = await app.ctx.db
    .insert(users)
    .values({
      userType,
      email: options.email ?? `${userType}-${suffix}@example.com`,
      githubUsername: options.githubUsername ?? null,
      slug: options.slug ?? `${userType}-${suffix}`,
      selectedTier: options.selectedTier ?? null,
    })
    .returning();
  return user!;
}

/**
 * Inserts a session for the user and returns its cookie value. With `impersonatorId` the session is
 * an admin's impersonation of `userId`, as the admin endpoints create it.
 */
export async function createTestSession(
  app: TestApp,
  userId: string,
  options: { impersonatorId?: string; expiresAt?: Date } = {},
): Promise<string> {
  const cookieValue = generateToken('pgs');
  const now = app.ctx.clock.now();
  await app.ctx.db.insert(sessions).values({
    idHash: sha256Hex(cookieValue),
    userId,
    impersonatorId: options.impersonatorId ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: options.expiresAt ?? new Date(now.getTime() + app.ctx.config.session.absoluteMs),
  });
  return cookieValue;
}

/**
 * Inserts a license holder's portal session, as the e-mailed sign-in link makes it (signing in by link is
 * portal.int.test.ts's subject), and returns its cookie value (`packgate_portal` over http).
 */
export async function createPortalSession(app: TestApp, customerId: string, lifetimeMs = 7 * DAY_MS): Promise<string> {
  const cookieValue = generateToken('pgps');
  const now = app.ctx.clock.now();
  await app.ctx.db.insert(portalSessions).values({
    idHash: sha256Hex(cookieValue),
    customerId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + lifetimeMs),
  });
  return cookieValue;
}

export type SignedIn = { client: TestClient; user: TestUser; cookie: string; cookieName: string };

/** A TestClient carrying the session cookie of a user of its own (created unless `user` is given). */
export async function signIn(
  app: TestApp,
  options: CreateTestUserOptions & { user?: TestUser; impersonatorId?: string } = {},
): Promise<SignedIn> {
  const user = options.user ?? (await createTestUser(app, options));
  const cookie = await createTestSession(app, user.id, { impersonatorId: options.impersonatorId });
  const cookieName = sessionCookieName(app.ctx);
  const client = new TestClient(app.baseUrl);
  client.setCookie(cookieName, cookie);
  return { client, user, cookie, cookieName };
}

export function signInSeller(app: TestApp, options: Omit<CreateTestUserOptions, 'userType'> = {}): Promise<SignedIn> {
  return signIn(app, { ...options, userType: 'seller' });
}

export function signInAdmin(app: TestApp, options: Omit<CreateTestUserOptions, 'userType'> = {}): Promise<SignedIn> {
  return signIn(app, { ...options, userType: 'admin' });
}
