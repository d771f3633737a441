import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testAppAroundTests } from '../../../test/support/test-app.js';

// PGlite once answered each statement on the server's own thread through a promise: a chain of statements (a sync
// writing a package's versions) never let the event loop turn, and every request that arrived meanwhile waited for the
// whole chain. It now runs in a thread of its own (pglite-thread.ts) and each answer comes back as a message, as
// PostgreSQL's come over the network, so both databases must pass the same way.

/** At most this many statements: far longer than a slice on any machine (each costs tens of microseconds or more). */
const MAX_STATEMENTS = 20_000;

describe('a long chain of statements', () => {
  const started = testAppAroundTests();

  it('lets a request that arrives meanwhile be answered before the chain ends', async () => {
    const { app } = started;
    let status: number | undefined;
    const answered = fetch(`${app.baseUrl}/api/health`).then((response) => {
      status = response.status;
    });
    let statements = 0;
    while (status === undefined && statements < MAX_STATEMENTS) {
      await app.ctx.db.execute(sql`select 1`);
      statements++;
    }
    await answered;
    expect(statements).toBeLessThan(MAX_STATEMENTS);
    expect(status).toBe(200);
  });

  it('lets a timer run during a transaction’s statements', async () => {
    const { app } = started;
    let fired = false;
    const timer = setTimeout(() => {
      fired = true;
    }, 0);
    const statements = await app.ctx.db.transaction(async (tx) => {
      let count = 0;
      while (!fired && count < MAX_STATEMENTS) {
        await tx.execute(sql`select 1`);
        count++;
      }
      return count;
    });
    clearTimeout(timer);
    expect(fired).toBe(true);
    expect(statements).toBeLessThan(MAX_STATEMENTS);
  });
});
