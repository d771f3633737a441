import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { is, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { initdbInChildProcess } from './pglite-initdb.js';
import * as schema from './schema/index.js';
import { assertSchemaNotNewer } from './schema-version.js';

export type Schema = typeof schema;
/** One type for both drivers: queries are written once against PostgreSQL's dialect. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseHandle = {
  db: Database;
  kind: DatabaseKind;
  /** Connections open, idle and waited for (PGlite: its one in-process session). */
  poolStats(): PoolStats;
  close(): Promise<void>;
};

export type PoolStats = { total: number; idle: number; waiting: number; max: number };

/** Connections of the PostgreSQL pool of one process. */
const POOL_MAX = 20;
const PGLITE_POOL: PoolStats = { total: 1, idle: 0, waiting: 0, max: 1 };

/** How often PGlite refreshes its planner statistics (PostgreSQL's autovacuum does it by itself). */
const PGLITE_ANALYZE_INTERVAL_MS = 60 * 60 * 1000;

/** The code's migrations (copied beside the built server by scripts/build-server.mjs). */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies the migrations of `folder` (the code's by default) that the database lacks, after refusing a database
 * whose schema is newer than the code (schema-version.ts). The caller serializes migrators on PostgreSQL.
 */
export async function applyMigrations(db: Database, kind: DatabaseKind, folder = migrationsFolder): Promise<void> {
  await assertSchemaNotNewer(db, migrationsFolder);
  if (kind === 'postgres') {
    await migrateNodePostgres(db as unknown as Parameters<typeof migrateNodePostgres>[0], { migrationsFolder: folder });
  } else {
    await migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder: folder });
  }
}

/** Serializes migrators across processes on one PostgreSQL database: two servers starting at once migrate once. */
const MIGRATION_LOCK_ID = 727274;

/**
 * Where the data lives. `migrated` says the database is a copy of an already migrated template (the test
 * suite migrates one per run), so opening it skips the migrator. A PGlite target may start in memory from a
 * `dumpDataDir()` tarball (`loadDataDir`), and may set PostgreSQL's `shared_buffers` (PGLITE_SHARED_BUFFERS otherwise).
 */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string; migrated?: boolean }
  | {
      kind: 'pglite';
      dataDir?: string;
      loadDataDir?: Blob;
      migrated?: boolean;
      sharedBuffers?: string;
      /** A PGlite already open and migrated that the caller lends (the test suite's pool): closing hands it back. */
      lent?: LentPglite;
    };

/** An open PGlite lent to one app: the app stops listening and hands it back instead of closing it. */
export type LentPglite = { client: PGlite; handBack(): Promise<void> };

/**
 * A NOTIFY channel every connection of this process listens to. A listening session receives its own transaction's
 * notifications before its COMMIT returns, so a process learns of its own writes synchronously, whichever code
 * wrote (features/composer/access-cache.ts relies on it); other processes' notifications arrive as they come.
 */
export type NotificationSubscription = { channel: string; onNotification(payload: string): void };

/** Opens the database, applies pending migrations and returns a handle that closes it cleanly. */
export async function openDatabase(
  target: DatabaseTarget,
  notifications?: NotificationSubscription,
): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') return openPostgres(target.url, target.migrated ?? false, notifications);
  return openPglite(target, notifications);
}

async function openPostgres(
  url: string,
  migrated: boolean,
  notifications: NotificationSubscription | undefined,
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_MAX,
    // Before a new connection is handed out, so that no write can precede its LISTEN.
    onConnect: notifications
      ? async (client: pg.ClientBase) => {
          client.on('notification', (message) => {
            if (message.channel === notifications.channel) notifications.onNotification(message.payload ?? '');
          });
          await client.query(`LISTEN ${notifications.channel}`);
        }
      : undefined,
  });
  // An idle connection the server drops (restart, failover) must not crash the process: the pool replaces it.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  const db = drizzleNodePostgres(pool, { schema });
  const poolStats = () => ({
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: POOL_MAX,
  });
  if (migrated) return { db: db as unknown as Database, kind: 'postgres', poolStats, close: () => pool.end() };
  // Several processes may start together: one migrates at a time, and the next finds nothing left to apply.
  const client = await pool.connect();
  try {
    await client.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    await applyMigrations(drizzleNodePostgres(client, { schema }) as unknown as Database, 'postgres');
  } catch (error) {
    await client.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`).catch(() => undefined);
    client.release();
    await pool.end();
    throw error;
  }
  await client.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`).catch(() => undefined);
  client.release();
  return { db: db as unknown as Database, kind: 'postgres', poolStats, close: () => pool.end() };
}

async function openPglite(
  target: Extract<DatabaseTarget, { kind: 'pglite' }>,
  notifications: NotificationSubscription | undefined,
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
    const client = new PGlite({ dataDir, loadDataDir, startParams });
    await client.waitReady;
    const db = drizzlePglite(client, { schema });
    if (!migrated) {
      try {
        await applyMigrations(db as unknown as Database, 'pglite');
      } catch (error) {
        await client.close().catch(() => undefined);
        throw error;
      }
    }
    // PGlite is one session: its listener runs inside the statement that commits, before that statement returns.
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
        // Closed already when PGlite stopped by itself (or a readiness test stopped it).
        if (!client.closed) await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
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
    db: drizzlePglite(lent.client, { schema }) as unknown as Database,
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

/** Which kind of database an open handle's `db` talks to. */
export function databaseKindOf(db: Database): DatabaseKind {
  return is(db, PgliteDatabase) ? 'pglite' : 'postgres';
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
