import { type AnyPgColumn, timestamp, uuid } from 'drizzle-orm/pg-core';

// The column shapes the tables share, written once so that a table lists only what is its own. Each is a function:
// a column builder belongs to the one table it is built into.

/** A point in time with its time zone (timestamptz), the only kind of time the schema keeps. */
export const timestamptz = <TName extends string>(name: TName) => timestamp(name, { withTimezone: true });

/** A required point in time that the database sets to now() when an insert leaves it out (created_at, updated_at). */
export const timestamptzNow = <TName extends string>(name: TName) => timestamptz(name).notNull().defaultNow();

/** The random uuid that most tables take as their key. */
export const uuidPrimaryKey = () => uuid('id').primaryKey().defaultRandom();

/** A required reference to the row this one belongs to (its seller, holder, package ...): deleted with that row. */
export const belongsTo = <TName extends string>(name: TName, parent: () => AnyPgColumn) =>
  uuid(name).notNull().references(parent, { onDelete: 'cascade' });
