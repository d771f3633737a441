import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { rowsOf } from './result-rows.js';

// The app's database reads each kind of value the same way on PGlite and on PostgreSQL, as drizzle's own drivers read
// them: dates, timestamps and intervals (their arrays too, and numeric arrays) as PostgreSQL's text, numeric as text,
// jsonb parsed. On PGlite the client in the database's thread has drizzle's parsers as its own, since drizzle's own
// cannot cross to it (pglite-thread.worker.ts): a mistake there shows here, in and out of a transaction.

const VALUES = `1 as id, '2026-01-10 10:00:00+00'::timestamptz as at, '2026-01-10 10:00:00'::timestamp as plain_at,
  '2026-01-10'::date as day, '1 day 2 hours'::interval as span, 12.50::numeric as amount,
  array['2026-01-10 10:00:00+00'::timestamptz] as ats, array['2026-01-10 10:00:00'::timestamp] as plain_ats,
  array['2026-01-10'::date] as days, array['3 days'::interval] as spans, array[1.5, 2.25]::numeric[] as amounts,
  array['a', 'b'] as tags, '{"k": [1, "x"]}'::jsonb as meta, true as flag`;

/** drizzle's node-postgres and PGlite drivers, on their own, both read those values so (the session in UTC). */
const EXPECTED = {
  id: 1,
  at: '2026-01-10 10:00:00+00',
  plain_at: '2026-01-10 10:00:00',
  day: '2026-01-10',
  span: '1 day 02:00:00',
  amount: '12.50',
  ats: '{"2026-01-10 10:00:00+00"}',
  plain_ats: '{"2026-01-10 10:00:00"}',
  days: '{2026-01-10}',
  spans: '{"3 days"}',
  amounts: '{1.5,2.25}',
  tags: ['a', 'b'],
  meta: { k: [1, 'x'] },
  flag: true,
};

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

type Transaction = Parameters<Parameters<TestApp['ctx']['db']['transaction']>[0]>[0];

class RolledBack extends Error {}

/** Runs `work` in a transaction whose session is in UTC, then rolls it back; answers what `work` answered. */
async function inRolledBackTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  let result: { value: T } | undefined;
  await app.ctx.db
    .transaction(async (tx) => {
      await tx.execute(sql`set local timezone = 'UTC'`);
      result = { value: await work(tx) };
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  if (!result) throw new Error('the transaction did not run');
  return result.value;
}

describe('the app’s database reads values', () => {
  it('as drizzle’s drivers do: dates, intervals and their arrays as text, jsonb parsed', async () => {
    // Outside a transaction the session's own time zone applies: the timestamptz is compared as an instant there.
    const [row] = rowsOf<Record<string, unknown>>(await app.ctx.db.execute(sql.raw(`select ${VALUES}`)));
    expect(new Date(String(row?.at)).toISOString()).toBe('2026-01-10T10:00:00.000Z');
    expect({ ...row, at: EXPECTED.at, ats: EXPECTED.ats }).toEqual(EXPECTED);
    expect(typeof row?.ats).toBe('string');
  });

  it('the same in a transaction and a nested one, which rolls back what it wrote when it fails', async () => {
    const read = await inRolledBackTransaction(async (tx) => {
      await tx.execute(sql.raw(`create temp table column_reads as select ${VALUES}`));
      const inside = rowsOf(await tx.execute(sql`select * from column_reads`));
      await tx
        .transaction(async (nested) => {
          expect(rowsOf(await nested.execute(sql`select * from column_reads`))).toEqual([EXPECTED]);
          await nested.execute(sql`insert into column_reads (id) values (2)`);
          throw new Error('undone');
        })
        .catch((error: unknown) => {
          if (!(error instanceof Error && error.message === 'undone')) throw error;
        });
      const ids = rowsOf(await tx.execute(sql`select id from column_reads order by id`));
      return { inside, ids };
    });
    expect(read.inside).toEqual([EXPECTED]);
    expect(read.ids).toEqual([{ id: 1 }]);
  });
});
