import { type Database, migrationsFolder, pingDatabase } from '../db/client.js';
import { codeSchemaVersion, databaseSchemaVersion } from '../db/schema-version.js';

// /api/ready (issue 35): whether a load balancer may send this process traffic. /api/health stays the liveness check
// (the process answers); readiness also asks what the answers depend on: the database answers, its schema is the
// code's (every migration applied), the access feed listens (the warm Composer path's invalidations, PostgreSQL
// LISTEN), and the process is not shutting down. Each check is bounded, so a database that hangs makes the answer
// a 503, not a request that never ends.

export const READINESS_CHECK_TIMEOUT_MS = 2_000;

export type CheckResult = 'ok' | 'failed' | 'unknown';
export type ReadinessChecks = {
  database: CheckResult;
  migrations: CheckResult;
  accessFeed: CheckResult;
  shutdown: CheckResult;
};

export type Readiness = {
  check(): Promise<{ isReady: boolean; checks: ReadinessChecks }>;
  /** From now on the process is not ready: it is closing (close() calls it first). */
  markShuttingDown(): void;
};

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createReadiness(dependencies: { db: Database; isAccessFeedListening: () => boolean }): Readiness {
  const { db } = dependencies;
  const code = codeSchemaVersion(migrationsFolder);
  let isShuttingDown = false;

  const databaseCheck = async (): Promise<CheckResult> => {
    try {
      await withTimeout(pingDatabase(db), READINESS_CHECK_TIMEOUT_MS);
      return 'ok';
    } catch {
      return 'failed';
    }
  };
  const migrationsCheck = async (): Promise<CheckResult> => {
    try {
      const schema = await withTimeout(databaseSchemaVersion(db, migrationsFolder), READINESS_CHECK_TIMEOUT_MS);
      return schema.version === code.version && schema.unknown === 0 ? 'ok' : 'failed';
    } catch {
      return 'failed';
    }
  };

  return {
    async check() {
      const database = await databaseCheck();
      const checks: ReadinessChecks = {
        database,
        migrations: database === 'ok' ? await migrationsCheck() : 'unknown',
        accessFeed: dependencies.isAccessFeedListening() ? 'ok' : 'failed',
        shutdown: isShuttingDown ? 'failed' : 'ok',
      };
      return { isReady: Object.values(checks).every((result) => result === 'ok'), checks };
    },
    markShuttingDown() {
      isShuttingDown = true;
    },
  };
}
