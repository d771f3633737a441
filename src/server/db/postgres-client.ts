import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Database, DatabaseHandle, NotificationSubscription } from './database-types.js';
import * as schema from './schema/index.js';

// The PostgreSQL driver (node-postgres), loaded by client.ts only when a server opens PostgreSQL.

/** Connections of the PostgreSQL pool of one process. */
const POOL_MAX = 20;

/** Serializes migrators across processes on one PostgreSQL database: two servers starting at once migrate once. */
const MIGRATION_LOCK_ID = 727274;

/** Applies the migrations of `folder` with drizzle's node-postgres migrator. */
export async function migrate(db: Database, folder: string): Promise<void> {
  await migrateNodePostgres(db as unknown as Parameters<typeof migrateNodePostgres>[0], { migrationsFolder: folder });
}

export async function openPostgres(
  url: string,
  migrated: boolean,
  notifications: NotificationSubscription | undefined,
  applyMigrations: (db: Database) => Promise<void>,
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
  const db = drizzle(pool, { schema });
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
    await applyMigrations(drizzle(client, { schema }) as unknown as Database);
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
