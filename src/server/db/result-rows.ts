// `db.execute` answers a driver's result object (node-postgres and PGlite both give `{ rows }`); drizzle types it as
// unknown, so raw statements read their rows through this one cast.

/** The rows of a raw statement's result. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
