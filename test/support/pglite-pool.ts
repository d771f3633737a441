import type { LentPglite } from '../../src/server/db/client.js';
import { pgliteStartParams } from '../../src/server/db/pglite-client.js';
import { openPgliteThread, type PgliteThreadClient } from '../../src/server/db/pglite-thread.js';

// Test apps on PGlite borrow their database from this worker's pool, each in a thread of its own as the server opens
// it (db/pglite-thread.ts). Starting a PGlite from the migrated template (unpacking the dump, instantiating the
// WebAssembly, starting PostgreSQL) costs about 0.4 s of CPU and leaves a few hundred MB for the garbage collector;
// emptying every table of one that an app handed back costs about 0.1 s. An emptied database is the template again:
// the migrations create no rows, and RESTART IDENTITY rewinds the sequences.

/** Databases kept open between apps: files start apps one or two at a time. */
const MAX_IDLE = 2;

const idle: PgliteThreadClient[] = [];

/** The public tables of a migrated database, in one TRUNCATE statement (drizzle's own journal is in its schema). */
const emptyStatements = new WeakMap<PgliteThreadClient, Promise<string>>();

function emptyStatement(client: PgliteThreadClient): Promise<string> {
  let statement = emptyStatements.get(client);
  if (!statement) {
    statement = client
      .query<{ name: string }>("select quote_ident(tablename) as name from pg_tables where schemaname = 'public'")
      .then(({ rows }) => `truncate ${rows.map((row) => row.name).join(', ')} restart identity cascade`);
    emptyStatements.set(client, statement);
  }
  return statement;
}

/** A migrated PGlite for one app: an emptied one from the pool, or a new one from the template. */
export async function borrowPglite(template: Blob, sharedBuffers: string): Promise<LentPglite> {
  const client =
    idle.pop() ??
    (await openPgliteThread({
      loadDataDir: template,
      startParams: pgliteStartParams(sharedBuffers),
    }));
  let handedBack = false;
  return {
    client,
    async handBack() {
      if (handedBack || client.closed) return;
      handedBack = true;
      if (idle.length >= MAX_IDLE) {
        await client.close();
        return;
      }
      try {
        await client.exec(await emptyStatement(client));
      } catch {
        await client.close(); // whatever the app left it in, it is not the template: the next app gets a new one
        return;
      }
      idle.push(client);
    },
  };
}
