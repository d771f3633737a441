import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { loopbackAppConfig } from './loopback-config.js';
import type { TestApp } from './test-app.js';

// A second app on a first test app's PostgreSQL database, as a second process behind the same load balancer would
// be: its own port, data folder and change feed, the same database, object store and clock.

export async function startSecondProcess(first: TestApp): Promise<TestApp> {
  const url = (first.ctx.db as unknown as { $client: { options: { connectionString: string } } }).$client.options
    .connectionString;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'packgate-test-'));
  const config = loopbackAppConfig(dataDir);
  // One object store for both, as processes behind one load balancer share one bucket.
  config.storage = first.ctx.config.storage;
  const built = await buildApp({
    config,
    clock: first.clock,
    database: { kind: 'postgres', url, migrated: true },
    logger: false,
  });
  const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  built.ctx.config.publicUrl = `http://localhost:${port}`;
  return {
    ...built,
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    clock: first.clock,
    async close() {
      await built.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second process (see startSecondProcess) once both its change feed and the first's listen, so that each answers
 * from what it holds and learns the other's writes through its feed.
 */
export async function startListeningSecondProcess(first: TestApp): Promise<TestApp> {
  const second = await startSecondProcess(first);
  await eventually('both change feeds listen', () => first.ctx.composerAccess.isTrusted);
  await eventually('both change feeds listen', () => second.ctx.composerAccess.isTrusted);
  return second;
}

/** Polls until `check` holds, failing loudly after `timeoutMs`: for what another process learns asynchronously. */
export async function eventually(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
