import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queriedAsDrizzleReads } from './pglite-parsers.js';

// drizzle on a client made ready for it (its own parsers, none per query) must read every value as drizzle on a
// PGlite of its own reads it, in and out of transactions.

const TABLE = `create table t (
  id int primary key,
  at timestamptz, plain_at timestamp, day date, span interval, amount numeric,
  ats timestamptz[], plain_ats timestamp[], days date[], spans interval[], amounts numeric[],
  tags text[], meta jsonb, flag boolean, big bigint
)`;
const ROW = `insert into t values (
  1, '2026-01-10 10:00:00+00', '2026-01-10 10:00:00', '2026-01-10', '1 day 2 hours', 12.50,
  array['2026-01-10 10:00:00+00'::timestamptz], array['2026-01-10 10:00:00'::timestamp], array['2026-01-10'::date],
  array['3 days'::interval], array[1.5, 2.25], array['a', 'b'], '{"k": [1, "x"]}', true, 9007199254740993
)`;

let reference: PGlite;
let ready: PGlite;

beforeAll(async () => {
  reference = new PGlite();
  ready = new PGlite();
  for (const client of [reference, ready]) {
    await client.waitReady;
    await client.exec(`${TABLE}; ${ROW}`);
  }
});

afterAll(async () => {
  await reference.close();
  await ready.close();
});

describe('queriedAsDrizzleReads', () => {
  it('reads every type as drizzle does on its own, and keeps dates as text', async () => {
    const expected = (await drizzle(reference).execute(sql`select * from t`)).rows;
    const db = drizzle(queriedAsDrizzleReads(ready));
    expect((await db.execute(sql`select * from t`)).rows).toEqual(expected);
    expect(expected[0]).toMatchObject({ at: '2026-01-10 10:00:00+00', day: '2026-01-10', meta: { k: [1, 'x'] } });
  });

  it('reads the same inside a transaction, and rolls back what a failed one wrote', async () => {
    const expected = (await drizzle(reference).execute(sql`select * from t`)).rows;
    const db = drizzle(queriedAsDrizzleReads(ready));
    const inside = await db.transaction(async (tx) => (await tx.execute(sql`select * from t`)).rows);
    expect(inside).toEqual(expected);
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t (id) values (2)`);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect((await db.execute(sql`select id from t order by id`)).rows).toEqual([{ id: 1 }]);
  });

  it('refuses a client that is not ready yet, whose start would set array parsers over its own', () => {
    const starting = new PGlite();
    try {
      expect(() => queriedAsDrizzleReads(starting)).toThrow('needs a ready PGlite');
    } finally {
      void starting.waitReady.then(() => starting.close());
    }
  });
});
