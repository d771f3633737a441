// The one reading of PostgreSQL errors (PGlite raises the same codes). Drizzle wraps the driver's error in `cause`,
// so each reader walks the chain; nothing here matches message text.

/** SQLSTATE codes this code base acts on. */
export const pgErrorCode = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
} as const;

type PgErrorLike = { code?: unknown; constraint?: unknown; cause?: unknown };

/** The first error in the `cause` chain that carries a PostgreSQL SQLSTATE, if any. */
export function findPgError(error: unknown): { code: string; constraint?: string } | undefined {
  let current = error as PgErrorLike | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) {
      return {
        code: current.code,
        ...(typeof current.constraint === 'string' ? { constraint: current.constraint } : {}),
      };
    }
    current = current.cause as PgErrorLike | undefined;
  }
  return undefined;
}

/** Whether an insert or update failed on a unique index (the named one, when `constraint` is given). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = findPgError(error);
  if (found?.code !== pgErrorCode.uniqueViolation) return false;
  return constraint === undefined || found.constraint === constraint;
}

/** Whether a write failed because a row it refers to, or that refers to it, does not allow it. Never "already exists". */
export function isForeignKeyViolation(error: unknown): boolean {
  return findPgError(error)?.code === pgErrorCode.foreignKeyViolation;
}

/** The name of the unique index a failed insert or update ran into, if that is why it failed. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  const found = findPgError(error);
  return found?.code === pgErrorCode.uniqueViolation ? found.constraint : undefined;
}
