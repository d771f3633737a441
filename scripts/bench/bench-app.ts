import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../src/server/app.js';
import type { Config } from '../../src/server/config.js';
import type { DatabaseTarget } from '../../src/server/db/client.js';
import { loopbackAppConfig } from '../../test/support/loopback-config.js';

// The setup every benchmark shares: the databases it runs on (PGlite, then a temporary PostgreSQL database) and a
// Packgate app listening on loopback with its own data folder, cleaned up afterwards.

export type BenchDatabase = {
  target: DatabaseTarget;
  label: string;
  /** PostgreSQL: the server's URL the temporary database was created with (more are made from it). */
  adminUrl?: string;
  drop(): Promise<void>;
};

/**
 * PGlite, as on a fresh machine (unless BENCH_SKIP_PGLITE=1), and PostgreSQL when BENCH_DATABASE_URL (or
 * TEST_DATABASE_URL) names a server whose user may create databases: a temporary database `<prefix>_<random>` is
 * created, and dropped afterwards unless BENCH_KEEP_DATABASE=1.
 */
export function benchDatabases(prefix: string): Array<() => Promise<BenchDatabase>> {
  const runs: Array<() => Promise<BenchDatabase>> = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    // BENCH_PGLITE_SHARED_BUFFERS compares PGlite's shared_buffers with the server's default (db/client.ts).
    const sharedBuffers = process.env.BENCH_PGLITE_SHARED_BUFFERS;
    runs.push(async () => ({
      target: { kind: 'pglite', ...(sharedBuffers ? { sharedBuffers } : {}) },
      label: `PGlite (embedded${sharedBuffers ? `, shared_buffers ${sharedBuffers}` : ''})`,
      drop: async () => {},
    }));
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) runs.push(() => temporaryPostgres(adminUrl, prefix));
  return runs;
}

/** Runs `measure` on each of benchDatabases(prefix) in turn, dropping each afterwards. */
export async function measureOnEachBenchDatabase(
  prefix: string,
  measure: (database: BenchDatabase) => Promise<void>,
): Promise<void> {
  for (const open of benchDatabases(prefix)) {
    const database = await open();
    try {
      await measure(database);
    } finally {
      await database.drop();
    }
  }
}

/**
 * Runs `work` on a database of its own beside `database`: on PostgreSQL a temporary database `<prefix>_<random>`,
 * dropped afterwards; on PGlite the same target (whoever starts a server on it gives it a data folder of its own).
 */
export async function withDatabaseOfItsOwn<T>(
  database: BenchDatabase,
  prefix: string,
  work: (own: BenchDatabase) => Promise<T>,
): Promise<T> {
  const own: BenchDatabase =
    database.target.kind === 'postgres'
      ? await temporaryPostgres(database.adminUrl!, prefix)
      : { target: database.target, label: database.label, drop: async () => {} };
  try {
    return await work(own);
  } finally {
    await own.drop();
  }
}

export async function temporaryPostgres(adminUrl: string, prefix: string): Promise<BenchDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    label: 'PostgreSQL',
    adminUrl,
    async drop() {
      if (process.env.BENCH_KEEP_DATABASE === '1') return console.log(`  kept database ${name}`);
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export type BenchApp = {
  built: Awaited<ReturnType<typeof buildApp>>;
  config: Config;
  workDir: string;
  /** The listening app's base URL (http://127.0.0.1:port). */
  address: string;
  /** Closes the app, drops the database and removes the work folder. */
  close(): Promise<void>;
};

/** Packgate on `database` (with `env` over the bench's settings), listening on a free loopback port, with a work folder under the system's temp folder. */
export async function startBenchApp(
  database: BenchDatabase,
  workPrefix: string,
  env: Record<string, string> = {},
): Promise<BenchApp> {
  const workDir = await mkdtemp(path.join(tmpdir(), workPrefix));
  const config = loopbackAppConfig(path.join(workDir, 'data'), env);
  const built = await buildApp({ config, database: database.target, logger: false });
  const close = async () => {
    await built.close();
    await database.drop();
    await rm(workDir, { recursive: true, force: true });
  };
  try {
    const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
    return { built, config, workDir, address, close };
  } catch (error) {
    await close();
    throw error;
  }
}
