// The metadata figures of scripts/bench.ts, (a) to (d), alone, for working on the warm Composer door:
//   BENCH_ONLY=p2,packages,304,404,dist BENCH_RUNS=3 BENCH_SECONDS=5 npx tsx scripts/bench/composer-doors.ts
// Same seed, nginx, bare node:http server, turns and ratios as the full bench (bench/metadata-doors.ts), with the
// door's /metrics counting on and off; BENCH_ONLY picks the figures (p2, packages, 304 and 404 by default; dist, a
// small zip's download against nginx, on request). Runs on PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL) is set (BENCH_SKIP_PGLITE=1 skips PGlite). Each of our figures also shows this process's CPU
// time per request (the server runs here, wrk in a child): on a shared machine req/s moves with the load, CPU per
// request much less.
// BENCH_PROFILE_SECONDS=N instead loads only our server for N s per figure under V8's sampling profiler, writes
// <database>-<figure>.cpuprofile into BENCH_PROFILE_DIR (the system's temp folder) and prints its top entries.
import { chmod } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BenchDatabase, benchDatabases, startBenchApp } from './bench-app.js';
import { placeStatic } from './composer-install.js';
import { measureMetadataDoors } from './metadata-doors.js';
import { answerHeadersOf, runLoad, type StaticServer, startBareNode, startNginx, stopChildren } from './processes.js';
import { profileWhile } from './profile.js';
import { seedHolder, seedPackage, seedSeller } from './seed.js';
import { line, measureInTurns, ownCpuMicros, ratio, ratioInTurns, requestRate, type TurnOptions } from './turns.js';

const TURNS: TurnOptions = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  runs: Number(process.env.BENCH_RUNS ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
};
const PROFILE_SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 0);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR ?? tmpdir();
const ONLY = new Set((process.env.BENCH_ONLY ?? 'p2,packages,304,404').split(','));
/** Tags of the measured package: a p2 file of a typical size (about 18 KB), as in npm run bench. */
const METADATA_TAGS = 20;

/** fetch() may not set Host, which names the repository: a plain request instead. */
function get(port: number, urlPath: string, headers: Record<string, string>) {
  return new Promise<{ status: number; lastModified: string; headers: IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path: urlPath, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            lastModified: String(response.headers['last-modified']),
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      outgoing.on('error', reject);
      outgoing.end();
    },
  );
}

async function doors(database: BenchDatabase): Promise<void> {
  const { built, workDir, address, close } = await startBenchApp(database, 'packgate-doors-');
  await chmod(workDir, 0o755);
  let nginx: StaticServer | undefined;
  let bareNode: StaticServer | undefined;
  try {
    const port = Number(new URL(address).port);
    const host = `bench.composer.localhost:${port}`;
    const deadline = Date.now() + 10_000;
    while (!built.ctx.composerAccess.isTrusted && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seller = await seedSeller(built.ctx, 'bench');
    const widget = await seedPackage(built.ctx, workDir, seller.id, 'bench/widget', 0, METADATA_TAGS);
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
    const label = database.target.kind;
    console.log(
      `\n== ${database.label}: p2 ${p2Answer.body.length} bytes, packages.json ${indexAnswer.body.length} bytes`,
    );

    if (PROFILE_SECONDS > 0) {
      const figures: Array<[string, string, Record<string, string>]> = [
        ['p2', metadataPath, auth],
        ['packages', '/packages.json', auth],
        ['304', metadataPath, { ...auth, 'if-modified-since': p2Answer.lastModified }],
        ['404', '/p2/bench/no-such-package.json', auth],
        ['dist', distPath, auth],
      ];
      for (const [figure, urlPath, headers] of figures.filter(([figure]) => ONLY.has(figure))) {
        await runLoad({ url: `${ours}${urlPath}`, headers, connections: TURNS.connections, durationSeconds: 2 });
        const file = path.join(PROFILE_DIR, `${label}-${figure}.cpuprofile`);
        const top = await profileWhile(file, () =>
          runLoad({
            url: `${ours}${urlPath}`,
            headers,
            connections: TURNS.connections,
            durationSeconds: PROFILE_SECONDS,
            expectError: figure === '404',
          }),
        );
        console.log(
          `\n  ${figure}: ${file}, self time of the busy samples:\n${top.map((entry) => `    ${entry}`).join('\n')}`,
        );
      }
      return;
    }

    const staticRoot = path.join(workDir, 'static');
    await placeStatic(staticRoot, metadataPath, p2Answer.body);
    await placeStatic(staticRoot, '/figures/packages.json', indexAnswer.body);
    await placeStatic(staticRoot, distPath, distAnswer.body);
    nginx = await startNginx(workDir, staticRoot);
    bareNode = await startBareNode(
      { [metadataPath]: p2Answer.body, '/figures/packages.json': indexAnswer.body },
      workDir,
      {
        [metadataPath]: answerHeadersOf(p2Answer.headers),
        '/figures/packages.json': answerHeadersOf(indexAnswer.headers),
      },
    );

    await measureMetadataDoors({
      metrics: built.ctx.metrics,
      ours,
      auth,
      metadataPath,
      p2: { bytes: p2Answer.body.length, lastModified: p2Answer.lastModified },
      packagesJsonStaticPath: '/figures/packages.json',
      nginx,
      bareNode,
      asAnswered: true,
      turns: TURNS,
      only: ONLY,
    });
    if (ONLY.has('dist')) {
      console.log(`\n    GET ${distPath} (${distAnswer.body.length} bytes)`);
      const [dist, distStatic] = await measureInTurns(
        [
          { url: `${ours}${distPath}`, headers: auth, expectStatus: 200, serverCpuMicros: ownCpuMicros },
          { url: `${nginx.url}${distPath}`, headers: {}, expectStatus: 200 },
        ],
        TURNS,
      );
      console.log(line('Packgate dist:', dist!));
      console.log(line('nginx dist:', distStatic!));
      console.log(`    dist ratio / nginx: ${ratio(ratioInTurns(dist!, distStatic!, requestRate))}`);
    }
  } finally {
    await nginx?.stop();
    await bareNode?.stop();
    stopChildren();
    await close();
  }
}

for (const open of benchDatabases('packgate_doors')) await doors(await open());
process.exit(0);
