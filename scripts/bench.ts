// npm run bench: how the Composer repository compares with static files served by Debian's nginx and with a bare
// node:http server writing the same bytes from memory (issues 10 and 34).
//
//   (a) authenticated p2 metadata: requests per second from Packgate, nginx and the bare Node.js server, Packgate
//       being the built server in a process of its own, started with `npm start`'s command, as nginx and the bare
//       server run in theirs (bench/door-figures.ts; bench/composer-doors.ts also takes it in the bench's process);
//   (b) packages.json, the same way;
//   (c) a p2 304 (If-Modified-Since) against our own 200;
//   (d) an unlicensed package's 404: its p99 against the 200's p99, and a token nobody holds: its 401's CPU against
//       the warm packages.json's (bench/metadata-doors.ts (e));
//   (e) dist: a 10 MB zip over 100 connections from the built server (on a database of its own), MB/s against nginx,
//       and how much the server's RSS grows meanwhile (bench/dist-figures.ts);
//   (f) `composer install` of 20 packages from Packgate (the built server, on a database of its own) and from the same
//       files exported to nginx, with an empty Composer cache and with a warm one (counting dists downloaded again),
//       then an unchanged `composer update` (the share of metadata requests answered 304) (bench/composer-figures.ts);
//   (g) PostgreSQL only: a revoke committed by this process, and the time until a second process (a child process
//       on the same database) refuses the license: p50, p99, max (bench/revocation.ts);
//   (h) the built server's resident memory in a process of its own: idle on a fresh data folder or database, then
//       with 10,000 tokens and 1,000 packages after start and with every view warm (bench/memory.ts);
//   (i) cost as the work grows: a holder's packages.json with 200 licenses and the holder lists of Management and
//       API v1 at 1,000 then 10,000 holders, or with BENCH_SCALE=large 10,000 then 100,000 (bench/growth.ts).
//
// Load runs use wrk (C, one thread) in a child process: autocannon, in Node.js, topped out near 30,000 requests a
// second on one core and measured itself (issue 34); a figure where wrk went less than 1.5 times faster against
// nginx than against us is flagged. Figures are medians of BENCH_RUNS runs (6) of BENCH_SECONDS each (5) (the
// composer figures: BENCH_INSTALL_RUNS turns, 9), the runs of the figures a ratio compares taken in turns (the order
// reversed every other turn; the lowest and highest per-turn ratio printed beside each goal's ratio of (a) to (d)),
// and the ratio the median of the per-turn ratios; each of our load figures also gives the server process's CPU time
// per request, which moves much less with the machine's load. Loopback only, bounded, cleans up after itself. Runs on
// PGlite, as on a fresh machine, and again on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a
// server whose user may create databases: a temporary database is created and dropped.
import type { ChildProcess } from 'node:child_process';
import { type BenchDatabase, benchDatabases, startBenchApp, withDatabaseOfItsOwn } from './bench/bench-app.js';
import { measureComposerInstall } from './bench/composer-figures.js';
import { measureLargeDist } from './bench/dist-figures.js';
import { measureDoorFigures } from './bench/door-figures.js';
import { GROWTH_SETS, measureGrowth } from './bench/growth.js';
import { MEMORY_GOALS, measureMemory, printMemory } from './bench/memory.js';
import { stopChild, stopChildren } from './bench/processes.js';
import { measureRevocation, startSecondProcess } from './bench/revocation.js';
import { seedPackage, seedSeller } from './bench/seed.js';
import { format } from './bench/turns.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 6);
/**
 * Turns of the composer figures (f). One install takes about a quarter of a second, and single turns moved from 0.95
 * to 1.46 times the static repository's time with the host's load (20 turns, PostgreSQL): three such turns are far
 * less data than three 10 s load runs, and their median moved by up to 0.09 between full runs on one machine.
 */
const INSTALL_RUNS = Number(process.env.BENCH_INSTALL_RUNS ?? 9);
/** Tags of the package whose metadata is measured in (a): a p2 file of a typical size (about 20 KB). */
const METADATA_TAGS = 20;
/** Revokes timed across two processes (PostgreSQL only). */
const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 50);
const SCALE_TOKENS = Number(process.env.BENCH_SCALE_TOKENS ?? 10_000);
const SCALE_PACKAGES = Number(process.env.BENCH_SCALE_PACKAGES ?? 1_000);

async function main(): Promise<void> {
  for (const open of benchDatabases('packgate_bench')) await benchmark(await open());
}

async function benchmark(database: BenchDatabase): Promise<void> {
  // (a) p2 metadata, (b) packages.json, each against nginx and bare Node.js; (c) the p2's 304 and (d) an unknown
  // package's 404, each against the p2's 200: the built server in a process of its own, on a database of its own
  // (bench/door-figures.ts), before this process starts its app for the other figures.
  await withDatabaseOfItsOwn(database, 'packgate_bench_doors', (doorsDatabase) =>
    measureDoorFigures(doorsDatabase, {
      turns: { seconds: SECONDS, runs: RUNS, connections: CONNECTIONS },
      only: new Set(['p2', 'packages', '304', '404', '401']),
      inBenchProcess: false,
      builtServer: true,
    }),
  );
  const { built, workDir, address, close } = await startBenchApp(database, 'packgate-bench-');
  let second: ChildProcess | undefined;
  try {
    const port = Number(new URL(address).port);
    built.ctx.config.publicUrl = `http://localhost:${port}`;
    built.ctx.config.port = port;
    const host = `bench.composer.localhost:${port}`;
    await waitUntil(() => built.ctx.composerAccess.isTrusted, 10_000, 'the change feed listens');

    console.log(
      `\n== ${database.label}: (e), (f) and (h) from the built server in processes of their own, (g) and (i) ` +
        `from Packgate in this process on 127.0.0.1:${port}; nginx with one worker process; ${SECONDS} s per load run, median of ${RUNS} runs.`,
    );
    const seller = await seedSeller(built.ctx, 'bench');
    const widget = await seedPackage(built.ctx, workDir, seller.id, 'bench/widget', 0, METADATA_TAGS);
    const metadataPath = `/p2/${widget.name}.json`;

    // (e) a 10 MB zip over 100 connections from the built server, on a database of its own (bench/dist-figures.ts)
    await withDatabaseOfItsOwn(database, 'packgate_bench_dist', (distDatabase) =>
      measureLargeDist(distDatabase, { runs: RUNS, seconds: SECONDS }),
    );

    // (f) composer install of 20 packages from the built server, on a database of its own (bench/composer-figures.ts)
    await withDatabaseOfItsOwn(database, 'packgate_bench_install', (installDatabase) =>
      measureComposerInstall(installDatabase, INSTALL_RUNS),
    );

    // (g) revocation seen by a second process sharing PostgreSQL (bench/revocation.ts)
    if (database.target.kind === 'postgres') {
      const started = await startSecondProcess(database.target.url);
      second = started.child;
      await measureRevocation(
        built.ctx,
        started.port,
        { sellerId: seller.id, packageId: widget.id, host, metadataPath },
        REVOCATIONS,
      );
    }

    // (h) the built server's memory, in a process of its own (bench/memory.ts)
    console.log(
      `\n(h) the built server's resident memory (npm start's command, a process of its own): idle, then with ${format(SCALE_TOKENS)} tokens and ${format(SCALE_PACKAGES)} packages, after start and with every token's view and p2 file warm`,
    );
    const memory = await measureMemory(
      database.target.kind === 'postgres' ? { kind: 'postgres', adminUrl: database.adminUrl! } : { kind: 'pglite' },
      { tokens: SCALE_TOKENS, packages: SCALE_PACKAGES },
    );
    printMemory(memory, MEMORY_GOALS[database.target.kind]);

    // (i) cost as the work grows (bench/growth.ts)
    console.log(
      `\n(i) ${GROWTH_SETS.map((holders) => format(holders)).join(' then ')} holders of one seller (BENCH_SCALE=large: 10,000 then 100,000): median of the answers' times`,
    );
    await measureGrowth(built.ctx, port, seller, host);
  } finally {
    // Before the database is dropped: dropped under it, its pool reported its connections lost.
    if (second) await stopChild(second, 'SIGTERM', 10_000);
    stopChildren();
    await close();
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopChildren();
    process.exit(130);
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    stopChildren();
    console.error(error);
    process.exit(1);
  },
);
