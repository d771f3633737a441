import { fastifyCookie } from '@fastify/cookie';
import type { SocketSession } from '../adapters/realtime/socket-io.js';
import type { AppContext } from '../context.js';
import { loadSession, sessionCookieName } from './session.js';

/**
 * The session a socket's handshake cookie belongs to. Sessions are the HTTP layer's, so the realtime
 * adapter is handed this function instead of reading sessions itself.
 */
export async function loadSocketSession(
  ctx: AppContext,
  cookieHeader: string | undefined,
): Promise<SocketSession | undefined> {
  const cookieValue = fastifyCookie.parse(cookieHeader ?? '')[sessionCookieName(ctx)];
  const auth = await loadSession(ctx, cookieValue);
  // A session still short of its second factor (issue 33) hears nothing until it has passed it.
  if (!auth || auth.secondFactorPending || auth.mustEnrolSecondFactor) return undefined;
  // For an impersonation session auth.user is the impersonated user, whose events the admin sees.
  return { userId: auth.user.id, sessionIdHash: auth.sessionIdHash };
}
