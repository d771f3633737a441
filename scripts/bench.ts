// npm run bench: how the Composer repository compares with static files served by Debian's nginx (issue 10).
//
//   (a) authenticated p2 metadata: requests per second from Packgate and the same bytes as a static file from nginx;
//   (b) packages.json, the same way;
//   (c) a p2 304 (If-Modified-Since) against our own 200;
//   (d) an unlicensed package's 404: its p99 against the 200's p99;
//   (e) dist: a 10 MB zip over 100 connections, MB/s against nginx, and how much this process's RSS grows meanwhile;
//   (f) `composer install` of 20 packages from Packgate and from the same files exported to nginx, with an empty
//       Composer cache and with a warm one (counting dists downloaded again), then an unchanged `composer update`
//       (the share of metadata requests answered 304);
//   (g) PostgreSQL only: a revoke committed by this process, and the time until a second process (a child process
//       on the same database) refuses the license: p50, p99, max;
//   (h) RSS with 10,000 tokens and 1,000 packages warm, and the bytes the warm path holds against its bound.
//
// Load runs use autocannon in a child process; figures are medians of BENCH_RUNS runs (3) of BENCH_SECONDS each (10)
// (the composer figures: BENCH_INSTALL_RUNS turns, 9),
// the runs of the figures a ratio compares taken in turns, and the ratio the median of the per-turn ratios; each of
// our load figures also gives this process's CPU time per request, which moves much less with the machine's load. Loopback only, bounded, cleans up after itself. Runs on PGlite, as on a fresh
// machine, and again on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server whose user may
// create databases: a temporary database is created and dropped.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { grants } from '../src/server/db/schema/index.js';
import { type BenchDatabase, benchDatabases, startBenchApp } from './bench/bench-app.js';
import { median, placeStatic, prepareProject, resetProject, timeComposer } from './bench/composer-install.js';
import {
  type DownloadResult,
  type LoadResult,
  runDownloads,
  runLoad,
  type StaticServer,
  startNginx,
  stopChild,
  stopChildren,
} from './bench/processes.js';
import { seedHolder, seedHolderWithGrant, seedLargeDist, seedPackage, seedScale, seedSeller } from './bench/seed.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * Turns of the composer figures (f). One install takes about a quarter of a second, and single turns moved from 0.95
 * to 1.46 times the static repository's time with the host's load (20 turns, PostgreSQL): three such turns are far
 * less data than three 10 s load runs, and their median moved by up to 0.09 between full runs on one machine.
 */
const INSTALL_RUNS = Number(process.env.BENCH_INSTALL_RUNS ?? 9);
const PACKAGE_COUNT = 20;
/** Tags of the package whose metadata is measured in (a): a p2 file of a typical size (about 20 KB). */
const METADATA_TAGS = 20;
const DIST_BYTES = 10 * 1024 * 1024;
/** Revokes timed across two processes (PostgreSQL only). */
const REVOCATIONS = Number(process.env.BENCH_REVOCATIONS ?? 50);
const SCALE_TOKENS = Number(process.env.BENCH_SCALE_TOKENS ?? 10_000);
const SCALE_PACKAGES = Number(process.env.BENCH_SCALE_PACKAGES ?? 1_000);

type Fetched = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function get(port: number, host: string, urlPath: string, token: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path: urlPath, headers: { host, authorization: `Bearer ${token}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const format = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });
const ratio = (value: number) => value.toFixed(3);
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function main(): Promise<void> {
  for (const open of benchDatabases('packgate_bench')) await benchmark(await open());
}

type Measured = {
  requestsPerSecond: number;
  latencyP99: number;
  bytesPerSecond: number;
  /** This process's CPU time per request (the server runs here, autocannon in a child); 0 for nginx. */
  cpuMicrosPerRequest: number;
  runs: LoadResult[];
};

type LoadTarget = { url: string; headers: Record<string, string>; expectStatus: number; isOurs: boolean };

/**
 * One warm-up each, then RUNS load runs of every target taken in turns (a, b, a, b, ...): on a machine shared with
 * other work the load moves between runs, and figures taken side by side move together, so their ratio moves less
 * than one of figures taken minutes apart. Medians of each figure, and `ratios` gives the median of per-turn ratios.
 */
async function measureInTurns(targets: LoadTarget[], connections = CONNECTIONS): Promise<Measured[]> {
  for (const target of targets) {
    await runLoad({ url: target.url, headers: target.headers, connections, durationSeconds: Math.min(3, SECONDS) });
  }
  const runs: LoadResult[][] = targets.map(() => []);
  const cpu: number[][] = targets.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    for (const [index, target] of targets.entries()) {
      const before = process.cpuUsage();
      const result = await runLoad({ url: target.url, headers: target.headers, connections, durationSeconds: SECONDS });
      const used = process.cpuUsage(before);
      const expected = result.statuses[String(target.expectStatus)] ?? 0;
      if (expected !== result.total) {
        throw new Error(`${target.url}: expected only ${target.expectStatus}, got ${JSON.stringify(result.statuses)}`);
      }
      runs[index]!.push(result);
      cpu[index]!.push(target.isOurs ? (used.user + used.system) / Math.max(1, result.total) : 0);
    }
  }
  return targets.map((_, index) => ({
    requestsPerSecond: median(runs[index]!.map((run) => run.requestsPerSecond)),
    latencyP99: median(runs[index]!.map((run) => run.latencyP99)),
    bytesPerSecond: median(runs[index]!.map((run) => run.bytesPerSecond)),
    cpuMicrosPerRequest: median(cpu[index]!),
    runs: runs[index]!,
  }));
}

/** The median over turns of `figure(a) / figure(b)`, for two targets measured in the same turns. */
function ratioInTurns(a: Measured, b: Measured, figure: (run: LoadResult) => number): number {
  return median(a.runs.map((run, index) => figure(run) / figure(b.runs[index]!)));
}

const requestRate = (run: LoadResult) => run.requestsPerSecond;
const latencyP99 = (run: LoadResult) => run.latencyP99;

function line(label: string, measured: Measured): string {
  const cpu = measured.cpuMicrosPerRequest > 0 ? `  CPU ${measured.cpuMicrosPerRequest.toFixed(1)} µs/request` : '';
  return `    ${label.padEnd(44)} ${format(measured.requestsPerSecond).padStart(8)} req/s  p99 ${measured.latencyP99} ms${cpu}`;
}

/** Peak RSS growth of this process (which serves Packgate) while `work` runs. */
async function rssGrowthDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const result = await work();
    return { result, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

/** Counts the answers of the running server by kind of path, while `isCounting` is set. */
function answerCounter(server: Server) {
  const counts = { metadata: new Map<number, number>(), dist: new Map<number, number>() };
  let isCounting = false;
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!isCounting) return;
    response.once('finish', () => {
      const url = request.url ?? '';
      const bucket = url.startsWith('/p2/')
        ? counts.metadata
        : url.startsWith('/api/composer/download/')
          ? counts.dist
          : undefined;
      bucket?.set(response.statusCode, (bucket.get(response.statusCode) ?? 0) + 1);
    });
  });
  return {
    start() {
      counts.metadata.clear();
      counts.dist.clear();
      isCounting = true;
    },
    stop() {
      isCounting = false;
      return {
        metadata: new Map(counts.metadata),
        dist: new Map(counts.dist),
      };
    },
  };
}

const sum = (counts: Map<number, number>) => [...counts.values()].reduce((total, count) => total + count, 0);

async function benchmark(database: BenchDatabase): Promise<void> {
  const { built, config, workDir, address, close } = await startBenchApp(database, 'packgate-bench-');
  await chmod(workDir, 0o755); // nginx's worker reads the static tree
  let nginx: StaticServer | undefined;
  let second: ChildProcess | undefined;
  try {
    const port = Number(new URL(address).port);
    built.ctx.config.publicUrl = `http://localhost:${port}`;
    built.ctx.config.port = port;
    const host = `bench.composer.localhost:${port}`;
    const staticRoot = path.join(workDir, 'static');
    const counter = answerCounter(built.app.server);
    await waitUntil(() => built.ctx.composerAccess.isTrusted, 10_000, 'the change feed listens');

    console.log(
      `\n== ${database.label}: Packgate on 127.0.0.1:${port}, one Node.js process; nginx with one worker process. ` +
        `${SECONDS} s per load run, ${CONNECTIONS} connections, median of ${RUNS} runs.`,
    );
    const seller = await seedSeller(built.ctx, 'bench');
    const widget = await seedPackage(built.ctx, workDir, seller.id, 'bench/widget', 0, METADATA_TAGS);
    const metadataToken = await seedHolder(built.ctx, seller.id, [widget.id]);
    const auth = { host, authorization: `Bearer ${metadataToken}` };
    const metadataPath = `/p2/${widget.name}.json`;
    const served = await get(port, host, metadataPath, metadataToken);
    if (served.status !== 200) throw new Error(`Packgate answered ${served.status} for ${metadataPath}`);
    await placeStatic(staticRoot, metadataPath, served.body);
    const index = await get(port, host, '/packages.json', metadataToken);
    await placeStatic(staticRoot, '/figures/packages.json', index.body);
    nginx = await startNginx(workDir, staticRoot);
    const fromNginx = await fetch(`${nginx.url}${metadataPath}`);
    if (!Buffer.from(await fromNginx.arrayBuffer()).equals(served.body)) throw new Error('nginx serves other bytes');

    // (a) p2 metadata, (b) packages.json, each against nginx; (c) the p2's 304 and (d) an unknown package's 404,
    // each against the p2's 200. The figures compared are measured in turns (measureInTurns).
    const ours = (urlPath: string, headers: Record<string, string>, expectStatus: number): LoadTarget => ({
      url: `http://127.0.0.1:${port}${urlPath}`,
      headers,
      expectStatus,
      isOurs: true,
    });
    const fromStatic = (urlPath: string): LoadTarget => ({
      url: `${nginx!.url}${urlPath}`,
      headers: {},
      expectStatus: 200,
      isOurs: false,
    });
    console.log(`\n(a) GET ${metadataPath} (${format(served.body.length)} bytes, ${METADATA_TAGS} tags)`);
    const [p2, p2Static] = await measureInTurns([ours(metadataPath, auth, 200), fromStatic(metadataPath)]);
    console.log(line('Packgate, token checked:', p2!));
    console.log(line('nginx, static file:', p2Static!));
    console.log(`    ratio Packgate / nginx: ${ratio(ratioInTurns(p2!, p2Static!, requestRate))}  (goal ≥ 0.5)`);

    console.log('\n(b) GET /packages.json');
    const [packagesJson, packagesJsonStatic] = await measureInTurns([
      ours('/packages.json', auth, 200),
      fromStatic('/figures/packages.json'),
    ]);
    console.log(line('Packgate, token checked:', packagesJson!));
    console.log(line('nginx, static file:', packagesJsonStatic!));
    console.log(
      `    ratio Packgate / nginx: ${ratio(ratioInTurns(packagesJson!, packagesJsonStatic!, requestRate))}  (goal ≥ 0.5)`,
    );

    console.log(
      `\n(c) GET ${metadataPath} with If-Modified-Since: 304, and (d) GET /p2/bench/no-such-package.json (an unlicensed name): 404, each against our own 200`,
    );
    const lastModified = String(served.headers['last-modified']);
    const [p2Again, notModified, unknown] = await measureInTurns([
      ours(metadataPath, auth, 200),
      ours(metadataPath, { ...auth, 'if-modified-since': lastModified }, 304),
      ours('/p2/bench/no-such-package.json', auth, 404),
    ]);
    console.log(line('Packgate 200:', p2Again!));
    console.log(line('Packgate 304:', notModified!));
    console.log(line('Packgate 404:', unknown!));
    console.log(`    (c) ratio 304 / 200: ${ratio(ratioInTurns(notModified!, p2Again!, requestRate))}  (goal ≥ 1.2)`);
    console.log(
      `    (d) ratio 404 p99 / 200 p99: ${ratio(ratioInTurns(unknown!, p2Again!, latencyP99))}  (goal ≤ 1.1)`,
    );

    // (e) dist of a 10 MB zip, 100 concurrent downloads
    const big = await seedLargeDist(built.ctx, seller.id, 'bench/big', DIST_BYTES);
    const bigToken = await seedHolder(built.ctx, seller.id, [big.id]);
    const distPath = `/api/composer/download/${big.name}/v1.0.0`;
    const zip = await get(port, host, distPath, bigToken);
    if (zip.status !== 200 || zip.body.length !== DIST_BYTES) throw new Error(`dist answered ${zip.status}`);
    await placeStatic(staticRoot, '/figures/big.zip', zip.body);
    console.log(`\n(e) GET ${distPath} (${megabytes(DIST_BYTES)} MB zip), 100 connections`);
    // In turns, ours then nginx's, as the other ratios: the host's speed moves between minutes.
    const distRuns: DownloadResult[] = [];
    const staticRuns: DownloadResult[] = [];
    const { growth } = await rssGrowthDuring(async () => {
      for (let run = 0; run < RUNS; run++) {
        distRuns.push(
          await runDownloads({
            url: `http://127.0.0.1:${port}${distPath}`,
            headers: { host, authorization: `Bearer ${bigToken}` },
            connections: 100,
            durationSeconds: SECONDS,
          }),
        );
        const url = `${nginx!.url}/figures/big.zip`;
        staticRuns.push(await runDownloads({ url, headers: {}, connections: 100, durationSeconds: SECONDS }));
      }
    });
    for (const run of [...distRuns, ...staticRuns]) {
      if (Object.keys(run.statuses).some((status) => status !== '200')) {
        throw new Error(`dist answers other than 200: ${JSON.stringify(run.statuses)}`);
      }
    }
    const dist = { bytesPerSecond: median(distRuns.map((run) => run.bytesPerSecond)) };
    const distStatic = { bytesPerSecond: median(staticRuns.map((run) => run.bytesPerSecond)) };
    console.log(
      `    Packgate: ${megabytes(dist.bytesPerSecond)} MB/s, RSS grew by ${megabytes(growth)} MB  (goal < 64)`,
    );
    console.log(`    nginx:    ${megabytes(distStatic.bytesPerSecond)} MB/s`);
    const distRatio = median(distRuns.map((run, index) => run.bytesPerSecond / staticRuns[index]!.bytesPerSecond));
    console.log(`    ratio Packgate / nginx: ${ratio(distRatio)}  (goal ≥ 0.7)`);

    // (f) composer install of 20 packages
    const seeded = [];
    for (let index = 1; index <= PACKAGE_COUNT; index++) {
      seeded.push(
        await seedPackage(built.ctx, workDir, seller.id, `bench/lib-${String(index).padStart(2, '0')}`, index, 5),
      );
    }
    const installToken = await seedHolder(
      built.ctx,
      seller.id,
      seeded.map((pkg) => pkg.id),
    );
    const repositoryUrl = `http://${host}`;
    // The static repository under a name of its own as well (nginx answers any Host): composer then resolves and
    // connects to both the same way (curl answers `*.localhost` itself), and only the servers differ.
    const staticUrl = `http://static.composer.localhost:${nginx.port}`;
    // The static export: Packgate's own answers for this token, dist URLs pointed at nginx, zips beside them.
    const exported = JSON.parse((await get(port, host, '/packages.json', installToken)).body.toString()) as Record<
      string,
      unknown
    >;
    delete exported['notify-batch'];
    await placeStatic(staticRoot, '/packages.json', Buffer.from(JSON.stringify(exported)));
    for (const pkg of seeded) {
      for (const suffix of ['', '~dev']) {
        const file = await get(port, host, `/p2/${pkg.name}${suffix}.json`, installToken);
        const text = file.body.toString().replaceAll(repositoryUrl, staticUrl);
        await placeStatic(staticRoot, `/p2/${pkg.name}${suffix}.json`, Buffer.from(text));
      }
      for (const version of pkg.versions) {
        const urlPath = `/api/composer/download/${pkg.name}/${encodeURIComponent(version)}`;
        const file = await get(port, host, urlPath, installToken);
        if (file.status !== 200) throw new Error(`Packgate answered ${file.status} for ${urlPath}`);
        await placeStatic(staticRoot, urlPath, file.body);
      }
    }
    const names = seeded.map((pkg) => pkg.name);
    console.log(`\n(f) composer install of ${PACKAGE_COUNT} packages, median of ${INSTALL_RUNS} turns`);
    const packgateProject = await prepareProject(workDir, 'packgate', { repositoryUrl, token: installToken }, names);
    const staticProject = await prepareProject(workDir, 'static', { repositoryUrl: staticUrl }, names);
    const times = { packgateCold: [] as number[], packgateWarm: [] as number[], staticCold: [] as number[] };
    const staticWarm: number[] = [];
    const update = { times: [] as number[], notModified: 0, metadata: 0 };
    let warmDists = 0;
    for (let run = 0; run < INSTALL_RUNS; run++) {
      const packgateCache = path.join(workDir, `composer-cache-packgate-${run}`);
      const staticCache = path.join(workDir, `composer-cache-static-${run}`);
      await resetProject(packgateProject);
      times.packgateCold.push(await timeComposer(workDir, packgateProject, packgateCache, 'install'));
      await resetProject(staticProject);
      times.staticCold.push(await timeComposer(workDir, staticProject, staticCache, 'install'));
      await resetProject(packgateProject);
      counter.start();
      times.packgateWarm.push(await timeComposer(workDir, packgateProject, packgateCache, 'install'));
      warmDists += sum(counter.stop().dist);
      await resetProject(staticProject);
      staticWarm.push(await timeComposer(workDir, staticProject, staticCache, 'install'));
      counter.start();
      update.times.push(await timeComposer(workDir, packgateProject, packgateCache, 'update'));
      const answered = counter.stop().metadata;
      update.notModified += answered.get(304) ?? 0;
      update.metadata += sum(answered);
      await rm(packgateCache, { recursive: true, force: true });
      await rm(staticCache, { recursive: true, force: true });
    }
    const coldRatio = median(times.packgateCold.map((time, run) => time / times.staticCold[run]!));
    const warmRatio = median(times.packgateWarm.map((time, run) => time / staticWarm[run]!));
    console.log(
      `    empty Composer cache: Packgate ${format(median(times.packgateCold))} ms, static ${format(median(times.staticCold))} ms, ratio ${ratio(coldRatio)}  (goal ≤ 1.1)`,
    );
    console.log(
      `    warm Composer cache:  Packgate ${format(median(times.packgateWarm))} ms, static ${format(median(staticWarm))} ms, ratio ${ratio(warmRatio)}  (goal ≤ 1.05); dists downloaded again: ${warmDists}`,
    );
    console.log(
      `    unchanged composer update: ${format(median(update.times))} ms, ${update.notModified} of ${update.metadata} metadata requests answered 304 (${((100 * update.notModified) / Math.max(1, update.metadata)).toFixed(1)}%, goal ≥ 95%)`,
    );

    // (g) revocation seen by a second process sharing PostgreSQL
    if (database.target.kind === 'postgres') {
      const started = await startSecondProcess(database.target.url);
      second = started.child;
      const latencies: number[] = [];
      for (let round = 0; round < REVOCATIONS; round++) {
        const holder = await seedHolderWithGrant(built.ctx, seller.id, widget.id);
        for (let attempt = 0; attempt < 2; attempt++) {
          const warm = await get(started.port, host, metadataPath, holder.token);
          if (warm.status !== 200) throw new Error(`the second process answered ${warm.status}`);
        }
        await built.ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, holder.grantId));
        const revokedAt = performance.now();
        for (;;) {
          const answer = await get(started.port, host, metadataPath, holder.token);
          if (answer.status === 404) break;
          if (performance.now() - revokedAt > 5_000) throw new Error('the second process still serves after 5 s');
        }
        latencies.push(performance.now() - revokedAt);
      }
      latencies.sort((a, b) => a - b);
      const percentile = (share: number) =>
        latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]!;
      console.log(
        `\n(g) revocation across two processes on PostgreSQL, ${REVOCATIONS} revokes: from the revoke's commit to the first refused request on the other process`,
      );
      console.log(
        `    p50 ${percentile(0.5).toFixed(1)} ms  p99 ${percentile(0.99).toFixed(1)} ms  max ${latencies.at(-1)!.toFixed(1)} ms  (goal p99 ≤ 100 ms)`,
      );
    }

    // (h) memory with many tokens and packages warm
    console.log(
      `\n(h) ${format(SCALE_TOKENS)} tokens and ${format(SCALE_PACKAGES)} packages, every token's view and p2 file warm`,
    );
    const holders = await seedScale(built.ctx, seller.id, SCALE_PACKAGES, SCALE_TOKENS);
    global.gc?.();
    const rssBefore = process.memoryUsage.rss();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < holders.length) {
          const holder = holders[next++]!;
          await get(port, host, '/packages.json', holder.token);
          const answer = await get(port, host, `/p2/${holder.packageName}.json`, holder.token);
          if (answer.status !== 200) throw new Error(`scale p2 answered ${answer.status}`);
        }
      }),
    );
    global.gc?.();
    const rssAfter = process.memoryUsage.rss();
    console.log(
      `    RSS ${megabytes(rssAfter)} MB (grew by ${megabytes(rssAfter - rssBefore)} MB while warming); the warm path holds ${megabytes(built.ctx.composerAccess.heldBytes)} MB of its ${megabytes(config.composerCacheMaxBytes)} MB bound (COMPOSER_CACHE_MAX_BYTES)`,
    );
  } finally {
    // Before the database is dropped: dropped under it, its pool reported its connections lost.
    if (second) await stopChild(second, 'SIGTERM', 10_000);
    await nginx?.stop();
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

/** scripts/bench/second-process.ts in a Node.js process of its own, on the same database. */
async function startSecondProcess(url: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/bench/second-process.ts')], {
    env: { ...process.env, BENCH_SECOND_DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the second process did not start within 60 s')), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const newline = output.indexOf('\n');
      if (newline !== -1) {
        clearTimeout(timer);
        resolve((JSON.parse(output.slice(0, newline)) as { port: number }).port);
      }
    });
    child.once('exit', (code) => reject(new Error(`the second process exited with ${code}`)));
  });
  return { child, port };
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
