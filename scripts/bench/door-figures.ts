// The warm Composer door's figures, (a) to (d) of npm run bench and of bench/composer-doors.ts: Packgate seeded on
// disk (PGlite too), measured against nginx and a bare node:http server answering the same bytes, in turns
// (bench/metadata-doors.ts). Taken in the bench's process (with the door's /metrics counting on and off, and the bare
// server's answers in the same process beside it), and/or from the built server on the same data in a process of its
// own, started with `npm start`'s command as nginx and the bare server run in theirs: a server that shares its process
// with the bench shares Node.js's own HTTP and stream code with the bench's HTTP clients, child processes and seeding,
// and that code runs slower for the mix of objects it has seen. Each of our figures also shows the server process's
// CPU time per request (wrk runs in a child): on a shared machine req/s moves with the load, CPU per request much less.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../src/server/context.js';
import type { Metrics } from '../../src/server/observability/metrics.js';
import { type BenchDatabase, startBenchApp } from './bench-app.js';
import { type BuiltServer, buildServer, processCpuMicros, startBuiltServer } from './built-server.js';
import { placeStatic } from './composer-install.js';
import { type DoorRequest, measureDoorJavaScript } from './door-javascript.js';
import { holderRequest } from './holder-request.js';
import { measureMetadataDoors } from './metadata-doors.js';
import {
  answerHeadersOf,
  armBareInServer,
  freePort,
  runLoad,
  type StaticServer,
  startBareNode,
  startBareNodeHere,
  startNginx,
  stopChild,
  stopChildren,
} from './processes.js';
import { profileWhile } from './profile.js';
import { seedHolder, seedPackage, seedSeller } from './seed.js';
import { line, measureInTurns, ownCpuMicros, ratio, ratioInTurns, requestRate, type TurnOptions } from './turns.js';

export type DoorFigureOptions = {
  turns: TurnOptions;
  /** The figures to take: p2, packages, 304, 404 and dist (a small zip's download against nginx). */
  only: Set<string>;
  /** Measure Packgate in this process first. */
  inBenchProcess: boolean;
  /** Measure the built server in a process of its own (after this process's app is closed). */
  builtServer: boolean;
  /** Instead of measuring: V8's sampling profile of the door in this process, `seconds` per figure, into `dir`. */
  profile?: { seconds: number; dir: string };
};
/** Rounds of the door's JavaScript alone (door-javascript.ts), about a second each; their median is printed. */
const DOOR_JAVASCRIPT_ROUNDS = 5;

/** Tags of the measured package: a p2 file of a typical size (about 18 KB), as in npm run bench. */
const METADATA_TAGS = 20;

/** The seeded seller's repository host on the server listening on `port`. */
export const repositoryHost = (port: number) => `bench.composer.localhost:${port}`;

/** The seeded holder's requests, on one server. */
export type Seeded = { token: string; metadataPath: string; distPath: string };

/** A seller `bench` with one package of METADATA_TAGS tags, and a holder licensed for it. */
export async function seedDoorHolder(ctx: AppContext, workDir: string): Promise<Seeded> {
  const seller = await seedSeller(ctx, 'bench');
  const widget = await seedPackage(ctx, workDir, seller.id, 'bench/widget', 0, METADATA_TAGS);
  return {
    token: await seedHolder(ctx, seller.id, [widget.id]),
    metadataPath: `/p2/${widget.name}.json`,
    // A small zip (a few KB, as most packages' are): what a dist request costs beside the bytes it streams.
    distPath: `/api/composer/download/${widget.name}/v1.0.0`,
  };
}

/**
 * The figures of BENCH_ONLY against the server on `port` (in this process, or in a process of its own), beside nginx
 * and a bare node:http server answering the bytes that server answered, started for it and stopped after.
 */
async function measureAgainstBaselines(
  workDir: string,
  port: number,
  seeded: Seeded,
  server: {
    cpuMicros: () => number | Promise<number>;
    metrics?: Metrics;
    /** The built server's bare server in its own process (bench/bare-in-server.mjs), waiting for its answers. */
    bareIn?: { port: number; manifestPath: string };
  },
  options: DoorFigureOptions,
): Promise<void> {
  const { token, metadataPath, distPath } = seeded;
  const host = repositoryHost(port);
  const auth = { host, authorization: `Bearer ${token}` };
  const ours = `http://127.0.0.1:${port}`;
  const p2Answer = await holderRequest(port, host, metadataPath, token);
  const indexAnswer = await holderRequest(port, host, '/packages.json', token);
  const distAnswer = await holderRequest(port, host, distPath, token);
  if (p2Answer.status !== 200 || indexAnswer.status !== 200) {
    throw new Error(`the seeded token is refused: ${p2Answer.status} ${p2Answer.body}, ${indexAnswer.status}`);
  }
  if (distAnswer.status !== 200) throw new Error(`the seeded token's download is refused: ${distAnswer.status}`);
  console.log(`  p2 ${p2Answer.body.length} bytes, packages.json ${indexAnswer.body.length} bytes`);
  const staticRoot = await mkdtemp(path.join(workDir, 'static-'));
  await chmod(staticRoot, 0o755);
  await placeStatic(staticRoot, metadataPath, p2Answer.body);
  await placeStatic(staticRoot, '/figures/packages.json', indexAnswer.body);
  await placeStatic(staticRoot, distPath, distAnswer.body);
  let nginx: StaticServer | undefined;
  let bareNode: StaticServer | undefined;
  let bareHere: StaticServer | undefined;
  let bareTwin: StaticServer | undefined;
  try {
    nginx = await startNginx(workDir, staticRoot);
    const files = { [metadataPath]: p2Answer.body, '/figures/packages.json': indexAnswer.body };
    const answerHeaders = {
      [metadataPath]: answerHeadersOf(p2Answer.headers),
      '/figures/packages.json': answerHeadersOf(indexAnswer.headers),
    };
    bareNode = await startBareNode(files, workDir, answerHeaders);
    bareTwin = await startBareNode(files, workDir, answerHeaders);
    // The same bare answers in Packgate's process: the ceiling of that process (this one, or the built server's).
    if (server.metrics) bareHere = await startBareNodeHere(files, answerHeaders);
    else if (server.bareIn) bareHere = await armBareInServer(server.bareIn, files, workDir, answerHeaders);
    await measureMetadataDoors({
      ...(server.metrics ? { metrics: server.metrics } : {}),
      ours,
      oursCpuMicros: server.cpuMicros,
      auth,
      metadataPath,
      p2: { bytes: p2Answer.body.length, lastModified: String(p2Answer.headers['last-modified']) },
      packagesJsonStaticPath: '/figures/packages.json',
      nginx,
      bareNode,
      bareTwin,
      asAnswered: true,
      ...(bareHere ? { bareInProcess: bareHere } : {}),
      turns: options.turns,
      only: options.only,
    });
    if (options.only.has('dist')) {
      console.log(`\n    GET ${distPath} (${distAnswer.body.length} bytes)`);
      const [dist, distStatic] = await measureInTurns(
        [
          { url: `${ours}${distPath}`, headers: auth, expectStatus: 200, serverCpuMicros: server.cpuMicros },
          { url: `${nginx.url}${distPath}`, headers: {}, expectStatus: 200 },
        ],
        options.turns,
      );
      console.log(line('Packgate dist:', dist!));
      console.log(line('nginx dist:', distStatic!));
      console.log(`    dist ratio / nginx: ${ratio(ratioInTurns(dist!, distStatic!, requestRate))}`);
    }
  } finally {
    await nginx?.stop();
    await bareNode?.stop();
    await bareTwin?.stop();
    await bareHere?.stop();
  }
}

/** V8's sampling profile of the door in this process under load, figure by figure. */
async function profileDoors(
  port: number,
  seeded: Seeded,
  label: string,
  options: DoorFigureOptions & { profile: { seconds: number; dir: string } },
): Promise<void> {
  const { turns, only, profile } = options;
  const host = repositoryHost(port);
  const auth = { host, authorization: `Bearer ${seeded.token}` };
  const ours = `http://127.0.0.1:${port}`;
  const p2Answer = await holderRequest(port, host, seeded.metadataPath, seeded.token);
  const lastModified = String(p2Answer.headers['last-modified']);
  const figures: Array<[string, string, Record<string, string>]> = [
    ['p2', seeded.metadataPath, auth],
    ['packages', '/packages.json', auth],
    ['304', seeded.metadataPath, { ...auth, 'if-modified-since': lastModified }],
    ['404', '/p2/bench/no-such-package.json', auth],
    ['dist', seeded.distPath, auth],
  ];
  for (const [figure, urlPath, headers] of figures.filter(([figure]) => only.has(figure))) {
    await runLoad({ url: `${ours}${urlPath}`, headers, connections: turns.connections, durationSeconds: 2 });
    const file = path.join(profile.dir, `${label}-${figure}.cpuprofile`);
    const top = await profileWhile(file, () =>
      runLoad({
        url: `${ours}${urlPath}`,
        headers,
        connections: turns.connections,
        durationSeconds: profile.seconds,
        expectError: figure === '404',
      }),
    );
    console.log(
      `\n  ${figure}: ${file}, self time of the busy samples:\n${top.map((entry) => `    ${entry}`).join('\n')}`,
    );
  }
}

/** The door's own JavaScript per answer of each figure, in this process, without HTTP (bench/door-javascript.ts). */
async function printDoorJavaScript(
  ctx: AppContext,
  port: number,
  seeded: Seeded,
  databaseLabel: string,
  options: DoorFigureOptions,
): Promise<void> {
  const host = repositoryHost(port);
  const auth = { Host: host, Authorization: `Bearer ${seeded.token}` };
  // The view and the versions are held once a holder has asked through HTTP; the door then answers in memory.
  const p2Answer = await holderRequest(port, host, seeded.metadataPath, seeded.token);
  await holderRequest(port, host, '/packages.json', seeded.token);
  const lastModified = String(p2Answer.headers['last-modified']);
  const requests: Array<DoorRequest & { figure: string }> = [
    { figure: 'p2', label: 'p2', urlPath: seeded.metadataPath, headers: auth, expectStatus: 200 },
    { figure: 'packages', label: 'packages.json', urlPath: '/packages.json', headers: auth, expectStatus: 200 },
    {
      figure: '304',
      label: 'p2 304',
      urlPath: seeded.metadataPath,
      headers: { ...auth, 'If-Modified-Since': lastModified },
      expectStatus: 304,
    },
    { figure: '404', label: 'p2 404', urlPath: '/p2/bench/no-such-package.json', headers: auth, expectStatus: 404 },
  ];
  const figures = measureDoorJavaScript(
    ctx,
    requests.filter((request) => options.only.has(request.figure)),
    DOOR_JAVASCRIPT_ROUNDS,
  );
  if (figures.warm.size === 0) return;
  const listed = (micros: Map<string, number>) =>
    [...micros].map(([figure, each]) => `${figure} ${each.toFixed(2)} µs`).join(', ');
  console.log(`\n== ${databaseLabel}: the door's own JavaScript per answer, without HTTP (in this process)`);
  console.log(`  ${listed(figures.warm)}`);
  // On the network a read and a write enter the kernel between two answers; on a machine whose kernel empties the
  // TLB at each entry (page-table isolation without PCIDs), what the door touches is fetched anew at every answer.
  console.log(
    `  after a system call before each answer, the call's own time taken off: ${listed(figures.afterSystemCall)}`,
  );
  console.log(
    `  at the connection door (the head read and answered, not written), after a system call: ${listed(figures.atConnection)}`,
  );
}

/**
 * Seeds Packgate on `database` (which the caller drops) in this process and takes the door's figures as `options`
 * asks: in this process, then from the built server on the same data in a process of its own.
 */
export async function measureDoorFigures(database: BenchDatabase, options: DoorFigureOptions): Promise<void> {
  const main = options.builtServer ? await buildServer() : undefined;
  // On disk, PGlite too (the bench's own is in memory), so that the built server opens the same data afterwards.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'packgate-doors-data-'));
  const target =
    database.target.kind === 'pglite' ? { ...database.target, dataDir: path.join(dataDir, 'pglite') } : database.target;
  const { built, config, workDir, address } = await startBenchApp({ ...database, target }, 'packgate-doors-', {
    DATA_DIR: dataDir,
  });
  await chmod(workDir, 0o755);
  let builtServer: BuiltServer | undefined;
  let appClosed = false;
  try {
    const deadline = Date.now() + 10_000;
    while (!built.ctx.composerAccess.isTrusted && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seeded = await seedDoorHolder(built.ctx, workDir);
    const label = database.target.kind;
    const port = Number(new URL(address).port);
    await printDoorJavaScript(built.ctx, port, seeded, database.label, options);
    if (options.profile) {
      console.log(`\n== ${database.label}: Packgate in this process`);
      await profileDoors(port, seeded, label, { ...options, profile: options.profile });
      return;
    }
    if (options.inBenchProcess) {
      console.log(`\n== ${database.label}: Packgate in the bench's process`);
      const server = { cpuMicros: ownCpuMicros, metrics: built.ctx.metrics };
      await measureAgainstBaselines(workDir, port, seeded, server, options);
    }
    if (!main) return;
    await built.close();
    appClosed = true;
    const bareIn = { port: await freePort(), manifestPath: path.join(workDir, 'bare-in-server.json') };
    builtServer = await startBuiltServer(
      main,
      {
        DATA_DIR: config.dataDir,
        SECRET_KEY: config.secretKey,
        ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
        BENCH_BARE_IN_PORT: String(bareIn.port),
        BENCH_BARE_IN_MANIFEST: bareIn.manifestPath,
      },
      ['scripts/bench/bare-in-server.mjs'],
    );
    const pid = builtServer.child.pid!;
    console.log(`\n== ${database.label}: the built server in a process of its own (npm start's command), same data`);
    const server = { cpuMicros: () => processCpuMicros(pid), bareIn };
    await measureAgainstBaselines(workDir, builtServer.port, seeded, server, options);
  } finally {
    if (builtServer) await stopChild(builtServer.child, 'SIGTERM', 30_000);
    stopChildren();
    if (!appClosed) await built.close();
    await rm(workDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
