import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { countSeatedDeveloperTokens } from '../credentials/holder-tokens.service.js';
import { selectSmallestSeatsOfHolder } from './seats.repository.js';

// Developer seats (issue 31). A license may say how many developer tokens its holder may have at once; CI, deploy and
// bot tokens never take a seat. Every token of a holder installs every package the holder is licensed for, so each
// developer token uses a seat of every license: the holder's limit is the SMALLEST `seats` among the licenses that
// still give access and set one. Licenses without seats (null) limit nothing; a holder with none is unlimited.
// A license still gives access while active and not ended; one ended with endMode `updates` (frozen) still serves the
// versions released before, so its seats keep counting.

type Reader = Pick<Database, 'select'>;

/**
 * How many developer tokens the holder may have at once; null = unlimited. features/credentials asks this before it
 * creates a developer token (a holder at the limit is refused, naming the seats).
 */
export async function seatLimitForHolder(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  customerId: string,
  db: Reader = ctx.db,
): Promise<number | null> {
  return selectSmallestSeatsOfHolder(db, customerId, ctx.clock.now());
}

/**
 * The holder's developer tokens that take a seat now, counted as the credentials domain counts them when it issues
 * one: not revoked, not replaced by a rotation, not past their expiry.
 */
export function countDeveloperTokens(db: Reader, customerId: string, now: Date): Promise<number> {
  return countSeatedDeveloperTokens(db, customerId, now);
}
