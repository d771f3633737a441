import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type {
  Database,
  DatabaseHandle,
  DatabaseTarget,
  LentPglite,
  NotificationSubscription,
  PoolStats,
} from './database-types.js';
import { initdbInChildProcess } from './pglite-initdb.js';
import { openRestartingPgliteThread } from './pglite-restarts.js';
import { openPgliteThread } from './pglite-thread.js';
import * as schema from './schema/index.js';

// The embedded driver (PGlite: PostgreSQL compiled to WebAssembly, in a thread of this process: pglite-thread.ts),
// loaded by client.ts only when a server opens PGlite. The test suite lends threads of the same kind.

const PGLITE_POOL: PoolStats = { total: 1, idle: 0, waiting: 0, max: 1 };

/** How often PGlite refreshes its planner statistics (PostgreSQL's autovacuum does it by itself). */
const PGLITE_ANALYZE_INTERVAL_MS = 60 * 60 * 1000;

/** Applies the migrations of `folder` with drizzle's PGlite migrator. */
export async function migrate(db: Database, folder: string): Promise<void> {
  await migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder: folder });
}

export async function openPglite(
  target: Extract<DatabaseTarget, { kind: 'pglite' }>,
  notifications: NotificationSubscription | undefined,
  applyMigrations: (db: Database) => Promise<void>,
): Promise<DatabaseHandle> {
  if (target.lent) return openLentPglite(target.lent, notifications);
  const { dataDir, loadDataDir, sharedBuffers } = target;
  const migrated = target.migrated ?? false;
  let releaseLock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireLock(path.join(dataDir, '..', `${path.basename(dataDir)}.lock`));
  }
  try {
    const startParams = pgliteStartParams(sharedBuffers);
    if (dataDir && !loadDataDir) await initdbInChildProcess(dataDir, startParams);
    // In a thread of its own, so that no statement holds the server's event loop (pglite-thread.worker.ts); on a
    // folder, a thread that ends by itself is replaced (pglite-restarts.ts). In memory its data would end with it.
    const client = dataDir
      ? await openRestartingPgliteThread({ dataDir, loadDataDir, startParams }, restartEvents(notifications))
      : await openPgliteThread({ loadDataDir, startParams });
    const db = drizzle(client as unknown as PGlite, { schema });
    if (!migrated) {
      try {
        await applyMigrations(db as unknown as Database);
      } catch (error) {
        await client.close().catch(() => undefined);
        throw error;
      }
    }
    if (notifications) await client.listen(notifications.channel, notifications.onNotification);
    // PGlite has no autovacuum: without the planner statistics ANALYZE gathers, joins over a few thousand rows were
    // planned as nested loops over "a dozen rows" and took seconds (npm run bench:analytics). ANALYZE samples a
    // bounded number of rows per table, so it stays short whatever the size.
    const analyze = () => client.exec('ANALYZE').catch(() => undefined);
    const analyzer = setInterval(analyze, PGLITE_ANALYZE_INTERVAL_MS);
    analyzer.unref();
    if (!migrated) await analyze();
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      poolStats: () => PGLITE_POOL,
      close: async () => {
        clearInterval(analyzer);
        // Closed already when PGlite's thread ended in memory (or a readiness test closed it).
        if (!client.closed) await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** What the server hears of its database's thread ending and opening again: the log, and the notifications' gap. */
function restartEvents(notifications: NotificationSubscription | undefined) {
  return {
    onLost(error: Error) {
      // As PostgreSQL's pool logs a lost connection (postgres-client.ts): the operator should know, nothing crashes.
      console.error(`Opening the embedded database again: ${error.message}`);
      notifications?.onLost?.();
    },
    onRestarted() {
      console.error('The embedded database answers again.');
      notifications?.onLive?.();
    },
    onRestartFailed(error: Error, retryInMs: number) {
      console.error(`The embedded database did not open (${error.message}); trying again in ${retryInMs} ms.`);
    },
  };
}

/**
 * PGlite's `shared_buffers` unless the target sets one. PGlite's own is PostgreSQL's 128MB, held in the WebAssembly
 * memory and written whole at start-up, so it is resident from the first second: 145 MB of an idle server's RSS.
 * PGlite reads its files through the operating system's page cache, as PostgreSQL does, so a small buffer costs a
 * copy per page read, not a disk read (npm run bench and bench:analytics measure it).
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/** PGlite's start parameters with PostgreSQL's `shared_buffers` set. */
export function pgliteStartParams(sharedBuffers = PGLITE_SHARED_BUFFERS): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
}

async function openLentPglite(
  lent: LentPglite,
  notifications: NotificationSubscription | undefined,
): Promise<DatabaseHandle> {
  const stopListening = notifications
    ? await lent.client.listen(notifications.channel, notifications.onNotification)
    : async () => {};
  return {
    db: drizzle(lent.client as unknown as PGlite, { schema }) as unknown as Database,
    kind: 'pglite',
    poolStats: () => PGLITE_POOL,
    close: async () => {
      await stopListening();
      await lent.handBack();
    },
  };
}

/** PGlite is single-process: a second process on the same directory must fail fast, not corrupt it. */
function acquireLock(lockFile: string): () => void {
  const tryCreate = () => {
    const fd = openSync(lockFile, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  };
  try {
    tryCreate();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSync(lockFile, 'utf8').trim());
    if (holder && holder !== process.pid && isProcessAlive(holder)) {
      throw new Error(`The database in ${path.dirname(lockFile)} is in use by process ${holder}; stop it first.`);
    }
    unlinkSync(lockFile); // stale lock left by a crashed process
    tryCreate();
  }
  return () => {
    if (existsSync(lockFile)) unlinkSync(lockFile);
  };
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
