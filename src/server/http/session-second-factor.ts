import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { SignedInSession } from '../../contract/security.js';
import type { AppContext } from '../context.js';
import { sessions } from '../db/schema/index.js';
import { sha256Hex } from '../lib/crypto.js';
import { MUST_ENROL_SECOND_FACTOR, type RequestAuth } from './session.js';

// The second factor's side of sessions (issue 33): the sessions table is written only by http/, so the auth
// domain's second-factor routes call these to finish a pending sign-in, lift an enrolment requirement, and list or
// end a person's sessions on the Security page.

/** The pending session has passed its second factor: it reaches everything now, and says how it signed in. */
export async function completeSecondFactor(ctx: AppContext, auth: RequestAuth, method: string): Promise<void> {
  await ctx.db
    .update(sessions)
    .set({
      secondFactorPending: false,
      signInMethod: sql`coalesce(${sessions.signInMethod} || '+', '') || ${method}`,
    })
    .where(eq(sessions.idHash, auth.sessionIdHash));
}

/** The person now has a second factor: none of their sessions is sent to enrol any longer. */
export async function liftEnrolmentRequirement(ctx: AppContext, personId: string): Promise<void> {
  await ctx.db
    .update(sessions)
    .set({ data: sql`${sessions.data} - ${MUST_ENROL_SECOND_FACTOR}::text` })
    .where(and(eq(sessions.userId, personId), sql`${sessions.data} ? ${MUST_ENROL_SECOND_FACTOR}::text`));
}

/** A session's id in the list: derived from its hash, so neither the cookie nor its hash leaves the server. */
function listId(idHash: string): string {
  return sha256Hex(`session-list:${idHash}`).slice(0, 16);
}

/** The person's own sign-ins (not an admin's impersonations of them), newest activity first. */
async function personSessions(ctx: AppContext, personId: string) {
  return ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, personId), isNull(sessions.impersonatorId), gt(sessions.expiresAt, ctx.clock.now())))
    .orderBy(sql`${sessions.lastSeenAt} desc`)
    .limit(100);
}

export async function listSignedInSessions(ctx: AppContext, auth: RequestAuth): Promise<SignedInSession[]> {
  const rows = await personSessions(ctx, auth.person.id);
  return rows.map((row) => ({
    id: listId(row.idHash),
    device: describeDevice(row.userAgent),
    network: row.network,
    signInMethod: row.signInMethod,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.idHash === auth.sessionIdHash,
  }));
}

/** Signs out one of the person's sessions by its list id; false when there is none (or it is another person's). */
export async function endSignedInSession(ctx: AppContext, auth: RequestAuth, id: string): Promise<boolean> {
  const row = (await personSessions(ctx, auth.person.id)).find((candidate) => listId(candidate.idHash) === id);
  if (!row) return false;
  await ctx.db.delete(sessions).where(eq(sessions.idHash, row.idHash));
  ctx.realtime.disconnectSession(row.idHash);
  return true;
}

/** Signs out every other session of the person; answers how many. */
export async function endOtherSignedInSessions(ctx: AppContext, auth: RequestAuth): Promise<number> {
  const others = (await personSessions(ctx, auth.person.id)).filter((row) => row.idHash !== auth.sessionIdHash);
  for (const row of others) {
    await ctx.db.delete(sessions).where(eq(sessions.idHash, row.idHash));
    ctx.realtime.disconnectSession(row.idHash);
  }
  return others.length;
}

const BROWSERS: readonly [string, string][] = [
  ['Edg/', 'Edge'],
  ['OPR/', 'Opera'],
  ['Firefox/', 'Firefox'],
  ['HeadlessChrome/', 'Chrome (headless)'],
  ['Chrome/', 'Chrome'],
  ['Safari/', 'Safari'],
  ['curl/', 'curl'],
];
const SYSTEMS: readonly [string, string][] = [
  ['iPhone', 'iPhone'],
  ['iPad', 'iPad'],
  ['Android', 'Android'],
  ['Windows', 'Windows'],
  ['Mac OS X', 'macOS'],
  ['CrOS', 'ChromeOS'],
  ['Linux', 'Linux'],
];

/** "Chrome on macOS" from a user agent, by plain substring tests (no regex over a header). */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = BROWSERS.find(([marker]) => userAgent.includes(marker))?.[1];
  const system = SYSTEMS.find(([marker]) => userAgent.includes(marker))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
