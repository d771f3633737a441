import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type BuiltApp, buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import type { DatabaseTarget } from '../../src/server/db/client.js';
import type { Clock } from '../../src/server/lib/clock.js';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-03-01T12:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  set(date: Date | string): void {
    this.current = new Date(date);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export type TestApp = BuiltApp & { baseUrl: string; port: number; dataDir: string; clock: TestClock };

/** Which database the server suite runs on: PGlite always, PostgreSQL when the project says so. */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.PACKGATE_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

async function createFreshPostgresDatabase(): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('PACKGATE_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `packgate_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Starts the real app on a free port with a fresh database and data folder. */
export async function startTestApp(
  options: { env?: Record<string, string>; clock?: TestClock; redis?: boolean } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'packgate-test-'));
  const clock = options.clock ?? new TestClock();
  const fresh = testDatabaseKind() === 'postgres' ? await createFreshPostgresDatabase() : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SECRET_KEY: randomBytes(32).toString('hex'),
    ...(options.redis && process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    ...options.env,
  });
  const built = await buildApp({
    config,
    clock,
    database: fresh?.target ?? { kind: 'pglite' },
    logger: false,
  });
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  built.ctx.config.publicUrl = options.env?.PUBLIC_URL ?? `http://localhost:${port}`;
  built.ctx.config.port = port;
  return {
    ...built,
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    clock,
    async close() {
      await built.close();
      await fresh?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
