// A short run of the metadata figures of scripts/bench.ts, (a) to (d), for working on one of them:
//   BENCH_ONLY=p2,packages,304,404,dist BENCH_RUNS=1 BENCH_SECONDS=5 npx tsx scripts/bench/composer-doors.ts
// Same seed, same nginx, same ratios as the full bench; BENCH_ONLY picks the figures (all four by default). Runs on
// PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (BENCH_SKIP_PGLITE=1 skips PGlite).
// BENCH_PROFILE_SECONDS=N instead loads only our server for N s per figure, for `node --cpu-prof --import tsx`.
// Each of our figures also shows this process's CPU time per request (the server runs here, wrk in a child):
// on a machine shared with other work, req/s moves with the load, CPU per request much less.
import { chmod } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { type BenchDatabase, benchDatabases, startBenchApp } from './bench-app.js';
import { median, placeStatic } from './composer-install.js';
import {
  answeredAsExpected,
  type LoadResult,
  runLoad,
  type StaticServer,
  startNginx,
  stopChildren,
} from './processes.js';
import { seedHolder, seedPackage, seedSeller } from './seed.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PROFILE_SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 0);
const ONLY = new Set((process.env.BENCH_ONLY ?? 'p2,packages,304,404,dist').split(','));

type Measured = { requestsPerSecond: number; latencyP99: number; cpuMicrosPerRequest: number };

async function measure(url: string, headers: Record<string, string>, expectStatus: number): Promise<Measured> {
  const expectError = expectStatus >= 400;
  await runLoad({ url, headers, connections: CONNECTIONS, durationSeconds: 2, expectError });
  const runs: LoadResult[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const before = process.cpuUsage();
    const result = await runLoad({ url, headers, connections: CONNECTIONS, durationSeconds: SECONDS, expectError });
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / Math.max(1, result.total));
    if (!answeredAsExpected(result, expectStatus)) {
      throw new Error(`${url}: expected only ${expectStatus}, got ${JSON.stringify(result.statuses)}`);
    }
    runs.push(result);
  }
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    latencyP99: median(runs.map((run) => run.latencyP99)),
    cpuMicrosPerRequest: median(cpu),
  };
}

/** fetch() may not set Host, which names the repository: a plain request instead. */
function get(port: number, urlPath: string, headers: Record<string, string>) {
  return new Promise<{ status: number; lastModified: string; body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path: urlPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          lastModified: String(response.headers['last-modified']),
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** nginx runs in a process of its own: the CPU column is ours only. */
const show = (label: string, measured: Measured, isOurs = true) =>
  console.log(
    `    ${label.padEnd(24)} ${Math.round(measured.requestsPerSecond)} req/s  p99 ${measured.latencyP99} ms` +
      (isOurs ? `  CPU ${measured.cpuMicrosPerRequest.toFixed(1)} µs/request` : ''),
  );

async function doors(database: BenchDatabase): Promise<void> {
  const { built, workDir, address, close } = await startBenchApp(database, 'packgate-doors-');
  await chmod(workDir, 0o755);
  let nginx: StaticServer | undefined;
  try {
    const port = Number(new URL(address).port);
    const host = `bench.composer.localhost:${port}`;
    const deadline = Date.now() + 10_000;
    while (!built.ctx.composerAccess.isTrusted && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seller = await seedSeller(built.ctx, 'bench');
    const widget = await seedPackage(built.ctx, workDir, seller.id, 'bench/widget', 0, 20);
    const token = await seedHolder(built.ctx, seller.id, [widget.id]);
    const auth = { host, authorization: `Bearer ${token}` };
    const ours = `http://127.0.0.1:${port}`;
    const metadataPath = `/p2/${widget.name}.json`;
    const p2Answer = await get(port, metadataPath, auth);
    const indexAnswer = await get(port, '/packages.json', auth);
    if (p2Answer.status !== 200 || indexAnswer.status !== 200) throw new Error('the seeded token is refused');
    // A small zip (a few KB, as most packages' are): what a dist request costs beside the bytes it streams.
    const distPath = `/api/composer/download/${widget.name}/v1.0.0`;
    const distAnswer = await get(port, distPath, auth);
    if (distAnswer.status !== 200) throw new Error(`the seeded token's download is refused: ${distAnswer.status}`);
    const p2Body = p2Answer.body;
    const lastModified = p2Answer.lastModified;
    const indexBody = indexAnswer.body;
    console.log(`\n== ${database.label}: p2 ${p2Body.length} bytes, packages.json ${indexBody.length} bytes`);

    if (PROFILE_SECONDS > 0) {
      const load = (url: string, headers: Record<string, string>) =>
        runLoad({ url, headers, connections: CONNECTIONS, durationSeconds: PROFILE_SECONDS });
      if (ONLY.has('p2')) await load(`${ours}${metadataPath}`, auth);
      if (ONLY.has('packages')) await load(`${ours}/packages.json`, auth);
      if (ONLY.has('304')) await load(`${ours}${metadataPath}`, { ...auth, 'if-modified-since': lastModified });
      if (ONLY.has('404')) await load(`${ours}/p2/bench/no-such-package.json`, auth);
      if (ONLY.has('dist')) await load(`${ours}${distPath}`, auth);
      return;
    }

    const staticRoot = path.join(workDir, 'static');
    await placeStatic(staticRoot, metadataPath, p2Body);
    await placeStatic(staticRoot, '/figures/packages.json', indexBody);
    await placeStatic(staticRoot, distPath, distAnswer.body);
    nginx = await startNginx(workDir, staticRoot);

    let p2: Measured | undefined;
    if (ONLY.has('p2') || ONLY.has('304') || ONLY.has('404')) {
      p2 = await measure(`${ours}${metadataPath}`, auth, 200);
      show('p2 200:', p2);
    }
    if (ONLY.has('p2')) {
      const p2Static = await measure(`${nginx.url}${metadataPath}`, {}, 200);
      show('p2 nginx:', p2Static, false);
      console.log(`    p2 ratio / nginx: ${(p2!.requestsPerSecond / p2Static.requestsPerSecond).toFixed(3)}`);
    }
    if (ONLY.has('packages')) {
      const packagesJson = await measure(`${ours}/packages.json`, auth, 200);
      const packagesStatic = await measure(`${nginx.url}/figures/packages.json`, {}, 200);
      show('packages.json:', packagesJson);
      show('packages.json nginx:', packagesStatic, false);
      const packagesRatio = packagesJson.requestsPerSecond / packagesStatic.requestsPerSecond;
      console.log(`    packages.json ratio / nginx: ${packagesRatio.toFixed(3)}  (goal ≥ 0.5)`);
    }
    if (ONLY.has('304')) {
      const notModified = await measure(`${ours}${metadataPath}`, { ...auth, 'if-modified-since': lastModified }, 304);
      show('p2 304:', notModified);
      console.log(`    304 / 200: ${(notModified.requestsPerSecond / p2!.requestsPerSecond).toFixed(3)}  (goal ≥ 1.2)`);
    }
    if (ONLY.has('404')) {
      const unknown = await measure(`${ours}/p2/bench/no-such-package.json`, auth, 404);
      show('p2 404 (unlicensed):', unknown);
      console.log(`    404 p99 / 200 p99: ${(unknown.latencyP99 / p2!.latencyP99).toFixed(3)}  (goal ≤ 1.1)`);
    }
    if (ONLY.has('dist')) {
      const dist = await measure(`${ours}${distPath}`, auth, 200);
      const distStatic = await measure(`${nginx.url}${distPath}`, {}, 200);
      show(`dist (${distAnswer.body.length} bytes):`, dist);
      show('dist nginx:', distStatic, false);
      console.log(`    dist ratio / nginx: ${(dist.requestsPerSecond / distStatic.requestsPerSecond).toFixed(3)}`);
    }
  } finally {
    await nginx?.stop();
    stopChildren();
    await close();
  }
}

for (const open of benchDatabases('packgate_doors')) await doors(await open());
process.exit(0);
