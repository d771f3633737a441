import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { queriedAsDrizzleReads } from './pglite-parsers.js';

// What drizzle reads through the client, in and out of transactions, is checked on the app's own database by
// column-reads.int.test.ts (a PGlite from the test pool, made ready by pglite-client.ts); here, the one refusal.

describe('queriedAsDrizzleReads', () => {
  it('refuses a client that is not ready yet, whose start would set array parsers over its own', () => {
    const starting = { ready: false, parsers: {} } as unknown as PGlite;
    expect(() => queriedAsDrizzleReads(starting)).toThrow('needs a ready PGlite');
    expect(starting.parsers).toEqual({});
  });
});
