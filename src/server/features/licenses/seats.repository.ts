import { and, eq, gt, isNotNull, isNull, min, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { grants } from '../../db/schema/index.js';

// The reads behind developer seats (seats.ts says the rules).

type Reader = Pick<Database, 'select'>;

/** A license gives access while active and not ended, or ended with endMode `updates` (frozen). */
const givesAccess = (now: Date) =>
  and(
    eq(grants.status, 'active'),
    or(isNull(grants.expiresAt), gt(grants.expiresAt, now), eq(grants.endMode, 'updates')),
  );

/** The smallest `seats` among the holder's licenses that give access at `now` and set one; null when none does. */
export async function selectSmallestSeatsOfHolder(db: Reader, customerId: string, now: Date): Promise<number | null> {
  const [row] = await db
    .select({ limit: min(grants.seats) })
    .from(grants)
    .where(and(eq(grants.customerId, customerId), isNotNull(grants.seats), givesAccess(now)));
  return row?.limit ?? null;
}
