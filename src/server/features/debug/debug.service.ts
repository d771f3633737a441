import type { DebugSession } from '../../../contract/auth.js';
import type { AppContext } from '../../context.js';
import { findSessionRow, type RequestAuth } from '../../http/session.js';
import { presentSession } from '../../http/session-user.js';

/** Everything the /logout-test page shows about the caller's session (debug routes only). */
export async function describeSession(
  ctx: AppContext,
  auth: RequestAuth | undefined,
  cookies: { session: boolean; csrf: boolean },
): Promise<DebugSession> {
  const row = auth ? await findSessionRow(ctx, auth.sessionIdHash) : undefined;
  return {
    authenticated: Boolean(auth),
    user: auth ? presentSession(auth) : null,
    session: row
      ? {
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          idleExpiresAt: new Date(
            Math.min(row.lastSeenAt.getTime() + ctx.config.session.idleMs, row.expiresAt.getTime()),
          ).toISOString(),
          userAgent: row.userAgent,
        }
      : null,
    impersonation: {
      active: Boolean(auth?.impersonator),
      impersonator: auth?.impersonator ? { id: auth.impersonator.id, email: auth.impersonator.email } : null,
    },
    cookies,
    serverTime: ctx.clock.now().toISOString(),
  };
}
