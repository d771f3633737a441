import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PgliteThreadClient } from './pglite-thread.js';
import type * as schema from './schema/index.js';

// The database's types, apart from its two drivers (postgres-client.ts, pglite-client.ts) so that naming them loads
// neither.

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
export type LentPglite = { client: PgliteThreadClient; handBack(): Promise<void> };

/**
 * A NOTIFY channel every connection of this process listens to. A listening session receives its own transaction's
 * notifications before its COMMIT returns, so a process learns of its own writes synchronously, whichever code
 * wrote (features/composer/access-cache.ts relies on it); other processes' notifications arrive as they come.
 */
export type NotificationSubscription = {
  channel: string;
  onNotification(payload: string): void;
  /** PGlite: its thread ended (pglite-restarts.ts), so notifications may be missed until `onLive`. */
  onLost?(): void;
  /** PGlite: a new thread listens. What was announced while none did is unknown. */
  onLive?(): void;
};
