import path from 'node:path';
import type { BenchDatabase } from './bench-app.js';
import { repositoryHost, type Seeded, seedDoorHolder } from './door-figures.js';
import { holderRequest } from './holder-request.js';
import { answerHeadersOf, armBareInServer, type BareNodeServer, freePort, startBareNode } from './processes.js';
import { type SeededBuiltServer, startSeededBuiltServer } from './seeded-built-server.js';

// The four answers the door's splits compare (bench/door-instructions.ts, bench/door-pages.ts): the built server on a
// door holder's data with the bare handler inside it (bench/bare-in-server.mjs), and the bare server in a process of
// its own answering the bytes the built server answered, plainly and with Packgate's headers (`/as-answered`).

export type DoorServers = {
  built: SeededBuiltServer<Seeded>;
  bare: BareNodeServer;
  /** The bare handler inside the built server. */
  bareInPort: number;
  /** The repository host the holder's requests name. */
  host: string;
  /** The p2 path with Packgate's headers, on the bare server and the bare handler inside the built server. */
  asAnswered: string;
  stop(): Promise<void>;
};

/** Both processes run under `wrapper` (valgrind's, bench/instructions.ts) with its environment when given. */
export async function startDoorServers(
  database: BenchDatabase,
  folder: string,
  prefix: string,
  wrappers: { built?: string[]; bare?: string[]; env?: Record<string, string> } = {},
): Promise<DoorServers> {
  const bareIn = { port: await freePort(), manifestPath: path.join(folder, 'bare-in-server.json') };
  const built = await startSeededBuiltServer(
    database,
    prefix,
    seedDoorHolder,
    { ...wrappers.env, BENCH_BARE_IN_PORT: String(bareIn.port), BENCH_BARE_IN_MANIFEST: bareIn.manifestPath },
    { preloads: ['scripts/bench/bare-in-server.mjs'], ...(wrappers.built ? { wrapper: wrappers.built } : {}) },
  );
  try {
    const { token, metadataPath } = built.seeded;
    const host = repositoryHost(built.server.port);
    const answer = await holderRequest(built.server.port, host, metadataPath, token);
    if (answer.status !== 200) throw new Error(`the seeded token is refused: ${answer.status}`);
    const files = { [metadataPath]: answer.body };
    const answerHeaders = { [metadataPath]: answerHeadersOf(answer.headers) };
    const bare = await startBareNode(files, folder, answerHeaders, {
      command: wrappers.bare ?? [],
      env: wrappers.env ?? {},
    });
    await armBareInServer(bareIn, files, folder, answerHeaders);
    return {
      built,
      bare,
      bareInPort: bareIn.port,
      host,
      asAnswered: `/as-answered${metadataPath}`,
      async stop() {
        await bare.stop();
        await built.stop();
      },
    };
  } catch (error) {
    await built.stop();
    throw error;
  }
}
