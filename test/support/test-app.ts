import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { type BuildAppOptions, type BuiltApp, buildApp } from '../../src/server/app.js';
import type { DatabaseTarget } from '../../src/server/db/client.js';
import type { Clock } from '../../src/server/lib/clock.js';
import { createDatabaseFromTemplate, loadPgliteTemplate } from './database-template.js';
import { loopbackAppConfig } from './loopback-config.js';
import { borrowPglite } from './pglite-pool.js';
import './global-setup.js'; // the types of what the global setup provides

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

export type TestApp = BuiltApp & {
  baseUrl: string;
  port: number;
  dataDir: string;
  clock: TestClock;
  /** The app's database, for a second app on the same PostgreSQL database (a second process). */
  databaseTarget?: DatabaseTarget;
};

/** Session settings under which a test's sign-ins stay valid while it moves the clock weeks or months ahead. */
export const YEAR_LONG_SESSIONS = { SESSION_IDLE_MINUTES: String(365 * 24 * 60), SESSION_ABSOLUTE_DAYS: '365' };

/** Which database the server suite runs on: PGlite always, PostgreSQL when the project says so. */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.PACKGATE_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

/** PostgreSQL's shared buffers for a test's PGlite (see freshDatabase). */
const TEST_SHARED_BUFFERS = '16MB';

/** A fresh database for one app: a copy of the run's migrated template (on PGlite, an emptied one from the pool). */
async function freshDatabase(): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (testDatabaseKind() === 'pglite') {
    const template = inject('pgliteTemplate');
    if (!template) return { target: { kind: 'pglite', sharedBuffers: TEST_SHARED_BUFFERS }, drop: async () => {} };
    // A test database holds a few hundred rows: PGlite's 128MB of shared buffers cost each start about 0.7 s of CPU
    // to set up (1.5 s to 0.8 s) and 112 MB of memory, and bought nothing.
    const lent = await borrowPglite(await loadPgliteTemplate(template), TEST_SHARED_BUFFERS);
    return { target: { kind: 'pglite', lent, migrated: true }, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('PACKGATE_TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = inject('postgresTemplate');
  const database = await createDatabaseFromTemplate(adminUrl, template ?? 'template1');
  return { target: { kind: 'postgres', url: database.url, migrated: Boolean(template) }, drop: database.drop };
}

/** Starts the real app on a free port with a fresh database and data folder. */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    clock?: TestClock;
    redis?: boolean;
    /** Receives the app's log lines, written by its own logger at level info; no log by default. */
    logStream?: { write(line: string): void };
    /** Forces or lifts overload shedding (see src/server/http/overload.ts). */
    pressureCheck?: BuildAppOptions['pressureCheck'];
    /** Small lease, backoff and poll durations for tests of the job runner. */
    jobTimings?: BuildAppOptions['jobTimings'];
    /** Requests the rate limits let through uncounted (see src/server/app.ts). */
    rateLimitExempt?: BuildAppOptions['rateLimitExempt'];
    /** An existing database and data folder (a restored backup) instead of fresh ones; the caller removes them. */
    existing?: { database: DatabaseTarget; dataDir: string };
  } = {},
): Promise<TestApp> {
  const dataDir = options.existing?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'packgate-test-'));
  const clock = options.clock ?? new TestClock();
  const fresh = options.existing ? { target: options.existing.database, drop: async () => {} } : await freshDatabase();
  const config = loopbackAppConfig(dataDir, {
    ...(options.logStream ? { LOG_LEVEL: 'info' } : {}),
    ...(options.redis && process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    ...options.env,
  });
  const built = await buildApp({
    config,
    clock,
    database: fresh.target,
    pressureCheck: options.pressureCheck,
    jobTimings: options.jobTimings,
    rateLimitExempt: options.rateLimitExempt,
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
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
    databaseTarget: fresh.target,
    async close() {
      await built.close();
      await fresh.drop();
      if (!options.existing) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app of a file or `describe` block, filled in when its tests run (so a test reads `started.app`, not a copy). */
export type StartedTestApp = { app: TestApp };

/**
 * Starts an app (see startTestApp) before the tests of the enclosing file or `describe` block and closes it after them.
 * The field is filled in when the tests run, so a test reads it from the returned object, not at the file's top.
 * Options given as a function are made when the tests start, so they can name what an earlier `beforeAll` started
 * for the app to talk to (whose `afterAll`, registered earlier too, then runs after the app is closed).
 */
export function testAppAroundTests(
  options?: Parameters<typeof startTestApp>[0] | (() => Parameters<typeof startTestApp>[0]),
): StartedTestApp {
  const started = {} as StartedTestApp;
  beforeAll(async () => {
    started.app = await startTestApp(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await started.app?.close();
  });
  return started;
}
