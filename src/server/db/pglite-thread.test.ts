import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgError, pgErrorCode } from './pg-errors.js';
import { pgliteStartParams } from './pglite-client.js';
import { openPgliteThread, type PgliteThreadClient } from './pglite-thread.js';

// The embedded database in a thread of its own: what the server relies on from PGlite must hold across the thread's
// boundary (its errors' fields, one session's transactions, a transaction's notifications before its COMMIT answers),
// and a statement there must not hold the server's event loop. The app's own reads through it are in
// column-reads.int.test.ts and every other server test on PGlite.

/** Opening PGlite runs initdb in memory: seconds on a busy machine. */
const OPEN_TIMEOUT_MS = 120_000;

describe('the embedded database in its own thread', { timeout: 30_000 }, () => {
  let client: PgliteThreadClient;

  beforeAll(async () => {
    client = await openPgliteThread({ startParams: pgliteStartParams() });
    await client.exec('create table item (id int primary key, name text not null)');
  }, OPEN_TIMEOUT_MS);

  afterAll(() => client?.close());

  it('keeps PostgreSQL’s error fields, which the server reads to tell a duplicate from a failure', async () => {
    await client.query('insert into item values (1, $1)', ['first']);
    const failure = await client.query('insert into item values (1, $1)', ['again']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(findPgError(failure)).toEqual({ code: pgErrorCode.uniqueViolation, constraint: 'item_pkey' });
    expect((await client.query('select name from item where id = 1')).rows).toEqual([{ name: 'first' }]);
  });

  it('answers rows as arrays when asked, with values parsed as in the server’s thread', async () => {
    const result = await client.query(
      `select 2::int as n, '{"a": [1]}'::jsonb as meta, '\\x0102'::bytea as bytes,
        '2026-01-10 10:00:00+00'::timestamptz as at`,
      [],
      { rowMode: 'array' },
    );
    expect(result.rows).toEqual([[2, { a: [1] }, new Uint8Array([1, 2]), '2026-01-10 10:00:00+00']]);
  });

  it('undoes a transaction whose work fails, and commits one whose work succeeds', async () => {
    const failed = await client
      .transaction(async (tx) => {
        await tx.query("insert into item values (10, 'kept?')");
        await tx.query("insert into item values (10, 'duplicate')");
      })
      .catch((error: unknown) => error);
    expect(findPgError(failed)?.code).toBe(pgErrorCode.uniqueViolation);
    const committed = await client.transaction(async (tx) => {
      await tx.query("insert into item values (11, 'kept')");
      return 'done';
    });
    expect(committed).toBe('done');
    const { rows } = await client.query<{ id: number }>('select id from item where id >= 10 order by id');
    expect(rows).toEqual([{ id: 11 }]);
  });

  it('lets no statement from outside into a transaction that is still open', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const transaction = client.transaction(async (tx) => {
      await tx.query("insert into item values (20, 'uncommitted')");
      await held;
      order.push('transaction ended');
      throw new Error('undone on purpose');
    });
    // PGlite is one session: run inside the open transaction, this read would see its row.
    const outside = client
      .query<{ count: number }>('select count(*)::int as count from item where id = 20')
      .then((result) => {
        order.push('outside answered');
        return result.rows[0]?.count;
      });
    // Both have asked; the transaction waits for the test, the read for its turn.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order).toEqual([]);
    release();
    await expect(transaction).rejects.toThrow('undone on purpose');
    expect(await outside).toBe(0);
    expect(order).toEqual(['transaction ended', 'outside answered']);
  });

  it('gives each of many statements asked at once its own answer, and a transaction asked among them its turn', async () => {
    const values = Array.from({ length: 50 }, (_, index) => index);
    const before = values.map((value) => client.query<{ v: number }>('select $1::int as v', [value]));
    const inside = client.transaction(async (tx) => (await tx.query<{ v: number }>('select 100 as v')).rows[0]?.v);
    const after = values.map((value) => client.query<{ v: number }>('select $1::int + 1000 as v', [value]));
    const answers = await Promise.all([...before, ...after]);
    expect(answers.map((result) => result.rows[0]?.v)).toEqual([...values, ...values.map((value) => value + 1000)]);
    expect(await inside).toBe(100);
  });

  it('hands a transaction’s notifications over before its COMMIT answers', async () => {
    const events: string[] = [];
    const stop = await client.listen('thread_test', (payload) => events.push(`notified ${payload}`));
    await client.transaction(async (tx) => {
      await tx.query("notify thread_test, 'changed'");
    });
    events.push('committed');
    await stop();
    await client.query("notify thread_test, 'after stop'");
    expect(events).toEqual(['notified changed', 'committed']);
  });

  it('lets the event loop turn while a statement runs', async () => {
    let answered = false;
    const statement = client.query('select pg_sleep(3)').then(() => {
      answered = true;
    });
    // On the server's thread, PGlite ran the whole statement before any timer: this one fires 3 s before its answer.
    const answeredWhenTimerFired = await new Promise<boolean>((resolve) => setTimeout(() => resolve(answered), 0));
    await statement;
    expect(answeredWhenTimerFired).toBe(false);
  });

  it(
    'dumps its data so that another thread starts from it',
    async () => {
      const dump = await client.dumpDataDir('none');
      const copy = await openPgliteThread({ loadDataDir: dump, startParams: pgliteStartParams() });
      try {
        expect((await copy.query('select name from item where id = 1')).rows).toEqual([{ name: 'first' }]);
      } finally {
        await copy.close();
      }
      expect(copy.closed).toBe(true);
      await expect(copy.query('select 1')).rejects.toThrow('The embedded database is closed.');
    },
    OPEN_TIMEOUT_MS,
  );
});
