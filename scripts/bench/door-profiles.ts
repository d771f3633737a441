import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchDatabase } from './bench-app.js';
import { repositoryHost, seedDoorHolder } from './door-figures.js';
import { holderRequest } from './holder-request.js';
import { answerHeadersOf, type BareNodeServer, type LoadResult, runLoad, startBareNode } from './processes.js';
import { profileProcessWhile, topEntries } from './profile.js';
import { startSeededBuiltServer } from './seeded-built-server.js';

// V8's sampling profile of the built server (npm start's command, the connection door in front) and of the bare
// server answering the same bytes with Packgate's headers, each in its own process under the same wrk load, figure by
// figure, their top entries printed one above the other in µs per answer: where the door's time goes beside the
// ceiling's, and how much of either is the kernel's (the `writev` entry holds the system call that sends the answer).
// bench/composer-doors.ts runs it with BENCH_PROFILE_SECONDS=N and BENCH_IN_PROCESS=0.

export type DoorProfileOptions = { seconds: number; dir: string; connections: number; only: Set<string> };

const PRELOAD = pathToFileURL(path.resolve('scripts/bench/profile-on-signal.mjs')).href;
const ENTRIES = 12;

type Load = { url: string; headers: Record<string, string>; expectError?: boolean };

export async function profileBuiltServerBesideBare(
  database: BenchDatabase,
  options: DoorProfileOptions,
): Promise<void> {
  const signalDir = await mkdtemp(path.join(tmpdir(), 'packgate-profile-signals-'));
  const built = await startSeededBuiltServer(
    database,
    'packgate-profiles-',
    seedDoorHolder,
    { BENCH_PROFILE_SIGNAL_DIR: signalDir },
    { preloads: ['scripts/bench/profile-on-signal.mjs'] },
  );
  let bare: BareNodeServer | undefined;
  try {
    const { token, metadataPath } = built.seeded;
    const { port } = built.server;
    const host = repositoryHost(port);
    const p2 = await holderRequest(port, host, metadataPath, token);
    const index = await holderRequest(port, host, '/packages.json', token);
    if (p2.status !== 200 || index.status !== 200) throw new Error(`the seeded token is refused: ${p2.status}`);
    bare = await startBareNode(
      { [metadataPath]: p2.body, '/packages.json': index.body },
      built.workDir,
      { [metadataPath]: answerHeadersOf(p2.headers), '/packages.json': answerHeadersOf(index.headers) },
      { command: [], env: { NODE_OPTIONS: `--import ${PRELOAD}`, BENCH_PROFILE_SIGNAL_DIR: signalDir } },
    );
    const ours = `http://127.0.0.1:${port}`;
    const auth = { host, authorization: `Bearer ${token}` };
    const sinceThen = { 'if-modified-since': String(p2.headers['last-modified']) };
    const figures: Array<[figure: string, ours: Load, bare: Load]> = [
      ['p2', { url: `${ours}${metadataPath}`, headers: auth }, asAnswered(bare, metadataPath, {})],
      ['packages', { url: `${ours}/packages.json`, headers: auth }, asAnswered(bare, '/packages.json', {})],
      [
        '304',
        { url: `${ours}${metadataPath}`, headers: { ...auth, ...sinceThen } },
        asAnswered(bare, metadataPath, sinceThen),
      ],
      [
        '404',
        { url: `${ours}/p2/bench/no-such-package.json`, headers: auth, expectError: true },
        { url: `${bare.url}/no-such-file.json`, headers: {}, expectError: true },
      ],
    ];
    const servers = [
      { label: 'Packgate, the built server', pid: built.server.child.pid!, file: 'built' },
      { label: "bare node:http, Packgate's headers", pid: bare.pid, file: 'bare' },
    ];
    console.log(`\n== ${database.label}: V8's profile of each server in its own process, ${options.seconds} s of wrk`);
    for (const [figure, ...loads] of figures.filter(([figure]) => options.only.has(figure))) {
      for (const [index, server] of servers.entries()) {
        const load = loads[index]!;
        // Every answer's code compiled and warm before the profile, as in the door's figures.
        await runLoad({ ...load, connections: options.connections, durationSeconds: 2 });
        const { profile, result } = await profileProcessWhile(server.pid, signalDir, () =>
          runLoad({ ...load, connections: options.connections, durationSeconds: options.seconds }),
        );
        const file = path.join(options.dir, `${database.target.kind}-${server.file}-${figure}.cpuprofile`);
        await writeFile(file, JSON.stringify(profile));
        const entries = topEntries(profile, ENTRIES, { seconds: options.seconds, answers: answers(result) });
        console.log(
          `\n  ${figure}, ${server.label}: ${result.requestsPerSecond.toFixed(0)} req/s under the profiler, ${file}`,
        );
        for (const entry of entries) console.log(`    ${entry}`);
      }
    }
  } finally {
    await bare?.stop();
    await built.stop();
    await rm(signalDir, { recursive: true, force: true });
  }
}

function asAnswered(bare: BareNodeServer, urlPath: string, headers: Record<string, string>): Load {
  return { url: `${bare.url}/as-answered${urlPath}`, headers };
}

/** wrk's answers of the stretch (all of them: a 404 figure's are errors by status). */
const answers = (result: LoadResult) => result.total;
