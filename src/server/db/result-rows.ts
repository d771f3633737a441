// `db.execute` answers a driver's result object (node-postgres and PGlite both give `{ rows }`); drizzle types it as
// unknown, so raw statements read their rows through this one cast.

/** The rows of a raw statement's result. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The first row a query answers, or undefined when it answers none: how every find-one query ends. */
export async function firstRow<T>(query: PromiseLike<T[]>): Promise<T | undefined> {
  const [row] = await query;
  return row;
}

/** Whether a query answers any row: a lookup found one, or a `... returning` statement wrote (claimed, deleted) one. */
export async function hasAnyRow(query: PromiseLike<unknown[]>): Promise<boolean> {
  return (await query).length > 0;
}

/** What a `select({ total: count() })` counts; 0 when it answers no row. */
export async function totalOf(query: PromiseLike<{ total: number }[]>): Promise<number> {
  const [row] = await query;
  return row?.total ?? 0;
}

/**
 * The row an `insert ... returning` (or an update of a row known to exist) answers. It always answers one, so none is
 * a bug, thrown as one naming what was not written rather than left for a caller to trip over.
 */
export async function writtenRow<T>(query: PromiseLike<T[]>, what: string): Promise<T> {
  const [row] = await query;
  if (!row) throw new Error(`${what} was not written`);
  return row;
}
