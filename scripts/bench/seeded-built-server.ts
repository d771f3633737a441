import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../src/server/context.js';
import { type BenchDatabase, startBenchApp } from './bench-app.js';
import { type BuiltServer, buildServer, startBuiltServer } from './built-server.js';
import { stopChild } from './processes.js';

// The built server on data seeded for it: Packgate is started in this process on a data folder (PGlite) or the
// database `database` names, seeded through its context, closed, and the built server (npm start's command) started
// on the same data in a process of its own, so that what is measured of it is the product as it runs, not tsx.

export type SeededBuiltServer<T> = {
  server: BuiltServer;
  seeded: T;
  /** A folder of the bench's own for this server's figures (nginx's tree, manifests), removed by stop. */
  workDir: string;
  /** Stops the server and removes its data folder and work folder (the caller drops a PostgreSQL database). */
  stop(): Promise<void>;
};

export async function startSeededBuiltServer<T>(
  database: BenchDatabase,
  prefix: string,
  seed: (ctx: AppContext, workDir: string) => Promise<T>,
  env: Record<string, string> = {},
  /** startBuiltServer's preloads and wrapper; `main`: another build's main.js than this checkout's (bench/door-ab.ts). */
  launch: { preloads?: string[]; wrapper?: string[]; main?: string } = {},
): Promise<SeededBuiltServer<T>> {
  const main = launch.main ?? (await buildServer());
  const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}data-`));
  const target =
    database.target.kind === 'pglite' ? { ...database.target, dataDir: path.join(dataDir, 'pglite') } : database.target;
  const { built, config, workDir } = await startBenchApp({ ...database, target }, prefix, { DATA_DIR: dataDir });
  const removeFolders = async () => {
    await rm(workDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  };
  let seeded: T;
  try {
    // nginx's worker reads its tree under this folder.
    await chmod(workDir, 0o755);
    const deadline = Date.now() + 10_000;
    while (!built.ctx.composerAccess.isTrusted && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    seeded = await seed(built.ctx, workDir);
  } catch (error) {
    await built.close();
    await removeFolders();
    throw error;
  }
  await built.close();
  let server: BuiltServer;
  try {
    server = await startBuiltServer(
      main,
      {
        DATA_DIR: config.dataDir,
        SECRET_KEY: config.secretKey,
        ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
        ...env,
      },
      launch.preloads,
      launch.wrapper,
    );
  } catch (error) {
    await removeFolders();
    throw error;
  }
  return {
    server,
    seeded,
    workDir,
    async stop() {
      await stopChild(server.child, 'SIGTERM', 30_000);
      await removeFolders();
    },
  };
}
