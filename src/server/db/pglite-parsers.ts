import { type PGlite, type QueryOptions, type Transaction, types } from '@electric-sql/pglite';
import { createQueryTurns, type QueryTurns } from './query-turns.js';

// drizzle's PGlite driver hands its own parsers to every query (drizzle-orm/pglite/session.js: dates, timestamps,
// intervals and some arrays are kept as text, which drizzle's columns then read), and PGlite 0.5 merges those with
// its 318 parsers for each query it answers: about 120 µs of the server's CPU per statement, as much as a lookup by a
// unique index costs it (issue 34). The client's own parsers are set to drizzle's instead, once, and drizzle gets a
// view of the client whose queries carry none: the same values, parsed by the same functions, without the merge.

/**
 * The types drizzle's PGlite driver reads as text: timestamp, timestamptz, interval, date, and the arrays of numeric,
 * timestamp, timestamptz, interval and date (PGlite would otherwise parse those arrays into JavaScript arrays).
 */
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];

const keepText = (value: string) => value;

function withoutParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (options?.parsers === undefined) return options;
  const { parsers: _parsers, ...rest } = options;
  return rest;
}

/**
 * `target` with its queries stripped of their parsers and taking turns with the event loop, and each transaction's
 * too; anything else is `target`'s own.
 */
function stripQueryParsers<T extends PGlite | Transaction>(target: T, turns: QueryTurns): T {
  // Made once per client or transaction, not at each access: drizzle reads `query` at every statement.
  const query = (text: string, params?: unknown[], options?: QueryOptions) => {
    // A long chain of statements lets the event loop turn now and then (query-turns.ts).
    const turn = turns.pauseIfLong();
    if (turn === undefined) return target.query(text, params, withoutParsers(options));
    return turn.then(() => target.query(text, params, withoutParsers(options)));
  };
  // A client's transactions hand out theirs stripped too (a transaction has none of its own: drizzle nests with
  // savepoints).
  const transaction =
    'transaction' in target
      ? <R>(callback: (tx: Transaction) => Promise<R>) =>
          target.transaction((tx) => callback(stripQueryParsers(tx, turns)))
      : undefined;
  return new Proxy(target, {
    get(object, property) {
      if (property === 'query') return query;
      if (property === 'transaction' && transaction) return transaction;
      // Bound to the client itself: PGlite's methods and getters read its private fields.
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/**
 * The client as drizzle gets it: its own parsers read drizzle's text types as text, and its queries carry no parsers
 * of their own. `client` must be ready: PGlite sets the parsers of array types while it starts, over any given before.
 * The client's direct queries then read those types as text too (the server makes none that returns them). A long
 * chain of drizzle's statements lets the event loop turn every few milliseconds (query-turns.ts).
 */
export function queriedAsDrizzleReads(client: PGlite): PGlite {
  if (!client.ready) throw new Error('queriedAsDrizzleReads needs a ready PGlite: wait for client.waitReady first.');
  for (const type of DRIZZLE_TEXT_TYPES) client.parsers[type] = keepText;
  return stripQueryParsers(client, createQueryTurns());
}
