import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../src/server/context.js';
import type { BenchDatabase } from './bench-app.js';
import { residentMemory } from './built-server.js';
import { placeStatic } from './composer-install.js';
import { holderRequest } from './holder-request.js';
import { median } from './percentile.js';
import { type DownloadResult, runDownloads, type StaticServer, startNginx } from './processes.js';
import { seedHolder, seedLargeDist, seedSeller } from './seed.js';
import { startSeededBuiltServer } from './seeded-built-server.js';
import { ratio, spreadOf } from './turns.js';

// (e) of npm run bench: a 10 MB zip downloaded over 100 connections from the built server (npm start's command, in a
// process of its own, on a database of its own: bench/seeded-built-server.ts) against nginx serving the same file,
// in turns, and how much the server's resident memory grows meanwhile, read from /proc: the product's process, not
// the bench's (until this file, (e) measured Packgate in the bench's process, under tsx, with the bench's own
// memory in its RSS).

const DIST_BYTES = 10 * 1024 * 1024;
const CONNECTIONS = 100;
/** How often the server's resident memory is read while the downloads run. */
const SAMPLE_MS = 20;

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

type DistSet = { token: string; distPath: string };

async function seedDistSet(ctx: AppContext): Promise<DistSet> {
  const seller = await seedSeller(ctx, 'bench');
  const big = await seedLargeDist(ctx, seller.id, 'bench/big', DIST_BYTES);
  return { token: await seedHolder(ctx, seller.id, [big.id]), distPath: `/api/composer/download/${big.name}/v1.0.0` };
}

/** The largest growth of `pid`'s resident memory over its size when called, while `work` runs. */
async function residentGrowthDuring(pid: number, work: () => Promise<void>): Promise<number> {
  const before = (await residentMemory(pid)).rss;
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await residentMemory(pid)).rss);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  try {
    await work();
  } finally {
    sampling = false;
    await sampler;
  }
  return peak - before;
}

/** (e) against the built server on `database` (PGlite, or a temporary PostgreSQL database the caller drops). */
export async function measureLargeDist(database: BenchDatabase, turns: { runs: number; seconds: number }) {
  const started = await startSeededBuiltServer(database, 'packgate-dist-', (ctx) => seedDistSet(ctx));
  let nginx: StaticServer | undefined;
  try {
    const { port, child } = started.server;
    const host = `bench.composer.localhost:${port}`;
    const { token, distPath } = started.seeded;
    const zip = await holderRequest(port, host, distPath, token);
    if (zip.status !== 200 || zip.body.length !== DIST_BYTES) throw new Error(`dist answered ${zip.status}`);
    const staticRoot = path.join(started.workDir, 'static');
    await mkdir(staticRoot, { recursive: true });
    await chmod(staticRoot, 0o755);
    await placeStatic(staticRoot, '/figures/big.zip', zip.body);
    nginx = await startNginx(started.workDir, staticRoot);
    console.log(
      `\n(e) GET ${distPath} (${megabytes(DIST_BYTES)} MB zip), ${CONNECTIONS} connections, the built server (npm start's command, a process of its own)`,
    );
    // In turns, ours then nginx's, as the other ratios: the host's speed moves between minutes.
    const distRuns: DownloadResult[] = [];
    const staticRuns: DownloadResult[] = [];
    const growth = await residentGrowthDuring(child.pid!, async () => {
      for (let run = 0; run < turns.runs; run++) {
        distRuns.push(
          await runDownloads({
            url: `http://127.0.0.1:${port}${distPath}`,
            headers: { host, authorization: `Bearer ${token}` },
            connections: CONNECTIONS,
            durationSeconds: turns.seconds,
          }),
        );
        const url = `${nginx!.url}/figures/big.zip`;
        staticRuns.push(
          await runDownloads({ url, headers: {}, connections: CONNECTIONS, durationSeconds: turns.seconds }),
        );
      }
    });
    for (const run of [...distRuns, ...staticRuns]) {
      if (Object.keys(run.statuses).some((status) => status !== 'below 400')) {
        throw new Error(`dist answers other than 200: ${JSON.stringify(run.statuses)}`);
      }
    }
    const ours = median(distRuns.map((run) => run.bytesPerSecond));
    const nginxRate = median(staticRuns.map((run) => run.bytesPerSecond));
    console.log(`    Packgate: ${megabytes(ours)} MB/s, its RSS grew by ${megabytes(growth)} MB  (goal < 64)`);
    console.log(`    nginx:    ${megabytes(nginxRate)} MB/s`);
    const ratios = distRuns.map((run, index) => run.bytesPerSecond / staticRuns[index]!.bytesPerSecond);
    const warning =
      nginxRate < 1.5 * ours
        ? `  (wrk reached ${ratio(nginxRate / ours)}× this against nginx: at these sizes both may be bound by the loopback copy, not the server)`
        : '';
    console.log(`    ratio Packgate / nginx: ${ratio(median(ratios))} (${spreadOf(ratios)})  (goal ≥ 0.7)${warning}`);
  } finally {
    await nginx?.stop();
    await started.stop();
  }
}
