import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { AppError } from '../lib/app-error.js';

// Keyset paging (issue 34 item 4): a list ordered newest first by (created_at, id) continues after the last row it
// gave, so page 1,000 costs what page 1 costs (OFFSET reads and drops every row before it). The cursor names that
// row's position to the microsecond: a JavaScript Date keeps milliseconds, and rows created within the same
// millisecond would otherwise be skipped or given twice.

/** Where a page starts: strictly older than this creation time (microseconds since 1970), or as old with a smaller id. */
export type KeysetPosition = { micros: string; id: string };

const CURSOR_TEXT = /^(\d{1,17})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const MAX_CURSOR_LENGTH = 100;

export const badCursorMessage = 'This cursor was not given by this list. Ask for the first page again, without cursor.';

/** The opaque cursor an answer gives for the page after its last row. */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.micros}_${position.id}`).toString('base64url');
}

/** The position a cursor names; a cursor this server did not make is refused (400, VALIDATION_FAILED). */
export function decodeCursor(cursor: string): KeysetPosition {
  const match =
    cursor.length <= MAX_CURSOR_LENGTH ? CURSOR_TEXT.exec(Buffer.from(cursor, 'base64url').toString()) : null;
  if (!match?.[1] || !match[2]) throw new AppError('VALIDATION_FAILED', badCursorMessage);
  return { micros: match[1], id: match[2] };
}

/** A creation time as microseconds since 1970, exact (PostgreSQL keeps microseconds), for the next cursor. */
export const positionMicros = (createdAt: AnyColumn): SQL<string> =>
  sql<string>`(extract(epoch from ${createdAt}) * 1000000)::bigint::text`;

/** The rows after a position in (created_at desc, id desc) order. */
export function olderThan(createdAt: AnyColumn, id: AnyColumn, position: KeysetPosition): SQL {
  return sql`(${createdAt}, ${id}) < (timestamptz 'epoch' + ${position.micros}::bigint * interval '1 microsecond', ${position.id}::uuid)`;
}

/**
 * Takes one row more than the page to know whether another page follows: answers the page and, when one does, the
 * cursor after its last row.
 */
export function pageOf<T extends { position: KeysetPosition }>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(last.position) : null };
}
