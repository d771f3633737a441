import { and, count, eq, gt, isNotNull, isNull, min, or } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { grants, holderTokens } from '../../db/schema/index.js';

// Developer seats (issue 31). A license may say how many developer tokens its holder may have at once; CI, deploy and
// bot tokens never take a seat. Every token of a holder installs every package the holder is licensed for, so each
// developer token uses a seat of every license: the holder's limit is the SMALLEST `seats` among the licenses that
// still give access and set one. Licenses without seats (null) limit nothing; a holder with none is unlimited.
// A license still gives access while active and not ended; one ended with endMode `updates` (frozen) still serves the
// versions released before, so its seats keep counting.

type Reader = Pick<Database, 'select'>;

const givesAccess = (now: Date) =>
  and(
    eq(grants.status, 'active'),
    or(isNull(grants.expiresAt), gt(grants.expiresAt, now), eq(grants.endMode, 'updates')),
  );

/**
 * How many developer tokens the holder may have at once; null = unlimited. features/credentials asks this before it
 * creates a developer token (a holder at the limit is refused, naming the seats).
 */
export async function seatLimitForHolder(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  customerId: string,
  db: Reader = ctx.db,
): Promise<number | null> {
  const [row] = await db
    .select({ limit: min(grants.seats) })
    .from(grants)
    .where(and(eq(grants.customerId, customerId), isNotNull(grants.seats), givesAccess(ctx.clock.now())));
  return row?.limit ?? null;
}

/** The holder's developer tokens that take a seat now: not revoked and not past their expiry. */
export async function countDeveloperTokens(db: Reader, customerId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(holderTokens)
    .where(
      and(
        eq(holderTokens.customerId, customerId),
        eq(holderTokens.kind, 'developer'),
        isNull(holderTokens.revokedAt),
        or(isNull(holderTokens.expiresAt), gt(holderTokens.expiresAt, now)),
      ),
    );
  return Number(row?.total ?? 0);
}
