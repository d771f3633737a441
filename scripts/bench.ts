// npm run bench: how the Composer repository compares with static files served by Debian's nginx.
//
//   (a) authenticated p2 metadata requests per second from Packgate, and the same bytes as a static file from
//       nginx, measured one after the other in this run with autocannon;
//   (b) `composer install` of a project needing 20 packages from Packgate, and from the same packages exported as
//       static files (packages.json, p2 files and zips) served by nginx.
//
// Loopback only, bounded (BENCH_SECONDS per load run, BENCH_RUNS composer installs each), cleans up after itself.
// Runs on PGlite, as on a fresh machine, and again on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names
// a server whose user may create databases: a temporary database is created and dropped.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import type { DatabaseTarget } from '../src/server/db/client.js';
import { median, placeStatic, timeComposerInstall } from './bench/composer-install.js';
import { runLoad, type StaticServer, startNginx, stopChildren } from './bench/processes.js';
import { seedHolder, seedPackage, seedSeller } from './bench/seed.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PACKAGE_COUNT = 20;
/** Tags of the package whose metadata is measured in (a): a p2 file of a typical size (about 20 KB). */
const METADATA_TAGS = 20;

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

type DatabaseRun = { target: DatabaseTarget; label: string; drop(): Promise<void> };

async function databaseRuns(): Promise<Array<() => Promise<DatabaseRun>>> {
  const runs: Array<() => Promise<DatabaseRun>> = [
    async () => ({ target: { kind: 'pglite' }, label: 'PGlite (embedded)', drop: async () => {} }),
  ];
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) runs.push(() => temporaryPostgres(adminUrl));
  return runs;
}

async function temporaryPostgres(adminUrl: string): Promise<DatabaseRun> {
  const name = `packgate_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    label: 'PostgreSQL',
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

const format = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });

async function main(): Promise<void> {
  for (const open of await databaseRuns()) await benchmark(await open());
}

async function benchmark(database: DatabaseRun): Promise<void> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'packgate-bench-'));
  await chmod(workDir, 0o755); // nginx's worker reads the static tree
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(workDir, 'data'),
    LOG_LEVEL: 'silent',
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const built = await buildApp({ config, database: database.target, logger: false });
  let nginx: StaticServer | undefined;
  try {
    const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    built.ctx.config.publicUrl = `http://localhost:${port}`;
    built.ctx.config.port = port;
    const host = `bench.composer.localhost:${port}`;
    const staticRoot = path.join(workDir, 'static');

    console.log(
      `\n== ${database.label}: Packgate on 127.0.0.1:${port}, one Node.js process; nginx with one worker process.`,
    );
    const seller = await seedSeller(built.ctx, 'bench');

    // (a) metadata
    const widget = await seedPackage(built.ctx, workDir, seller.id, 'bench/widget', 0, METADATA_TAGS);
    const metadataToken = await seedHolder(built.ctx, seller.id, [widget.id]);
    const metadataPath = `/p2/${widget.name}.json`;
    const served = await get(port, host, metadataPath, metadataToken);
    if (served.status !== 200) throw new Error(`Packgate answered ${served.status} for ${metadataPath}`);
    await placeStatic(staticRoot, metadataPath, served.body);
    nginx = await startNginx(workDir, staticRoot);
    const fromNginx = await fetch(`${nginx.url}${metadataPath}`);
    if (!Buffer.from(await fromNginx.arrayBuffer()).equals(served.body)) throw new Error('nginx serves other bytes');

    console.log(
      `\n(a) GET ${metadataPath} (${format(served.body.length)} bytes, ${METADATA_TAGS} tags), ${CONNECTIONS} connections, ${SECONDS} s each`,
    );
    const warmup = Math.min(3, SECONDS);
    await runLoad({
      url: `http://127.0.0.1:${port}${metadataPath}`,
      headers: { host, authorization: `Bearer ${metadataToken}` },
      connections: CONNECTIONS,
      durationSeconds: warmup,
    });
    const packgate = await runLoad({
      url: `http://127.0.0.1:${port}${metadataPath}`,
      headers: { host, authorization: `Bearer ${metadataToken}` },
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
    });
    await runLoad({
      url: `${nginx.url}${metadataPath}`,
      headers: {},
      connections: CONNECTIONS,
      durationSeconds: warmup,
    });
    const staticFile = await runLoad({
      url: `${nginx.url}${metadataPath}`,
      headers: {},
      connections: CONNECTIONS,
      durationSeconds: SECONDS,
    });
    if (packgate.non2xx > 0 || staticFile.non2xx > 0) {
      throw new Error(`non-2xx answers: Packgate ${packgate.non2xx}, nginx ${staticFile.non2xx}`);
    }
    console.log(
      `    Packgate (token checked, one SQL statement per request): ${format(packgate.requestsPerSecond)} req/s  p50 ${packgate.latencyP50} ms  p99 ${packgate.latencyP99} ms`,
    );
    console.log(
      `    nginx (static file):                                      ${format(staticFile.requestsPerSecond)} req/s  p50 ${staticFile.latencyP50} ms  p99 ${staticFile.latencyP99} ms`,
    );
    console.log(
      `    ratio Packgate / nginx: ${(packgate.requestsPerSecond / staticFile.requestsPerSecond).toFixed(3)}`,
    );

    // (b) composer install of 20 packages
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
    // The static export: Packgate's own answers for this token, dist URLs pointed at nginx, zips beside them.
    const packagesJson = JSON.parse((await get(port, host, '/packages.json', installToken)).body.toString()) as Record<
      string,
      unknown
    >;
    delete packagesJson['notify-batch'];
    await placeStatic(staticRoot, '/packages.json', Buffer.from(JSON.stringify(packagesJson)));
    for (const pkg of seeded) {
      for (const suffix of ['', '~dev']) {
        const p2 = await get(port, host, `/p2/${pkg.name}${suffix}.json`, installToken);
        const text = p2.body.toString().replaceAll(repositoryUrl, nginx.url);
        await placeStatic(staticRoot, `/p2/${pkg.name}${suffix}.json`, Buffer.from(text));
      }
      for (const version of pkg.versions) {
        const urlPath = `/api/composer/download/${pkg.name}/${encodeURIComponent(version)}`;
        const zip = await get(port, host, urlPath, installToken);
        if (zip.status !== 200) throw new Error(`Packgate answered ${zip.status} for ${urlPath}`);
        await placeStatic(staticRoot, urlPath, zip.body);
      }
    }
    const names = seeded.map((pkg) => pkg.name);
    console.log(`\n(b) composer install of ${PACKAGE_COUNT} packages, empty Composer cache, median of ${RUNS} runs`);
    const packgateTimes: number[] = [];
    const staticTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      packgateTimes.push(
        ...(await timeComposerInstall(workDir, 'packgate', { repositoryUrl, token: installToken }, names, 1)),
      );
      staticTimes.push(...(await timeComposerInstall(workDir, 'static', { repositoryUrl: nginx.url }, names, 1)));
    }
    const packgateInstall = median(packgateTimes);
    const staticInstall = median(staticTimes);
    console.log(`    Packgate: ${format(packgateInstall)} ms  (runs: ${packgateTimes.map(format).join(', ')})`);
    console.log(`    static:   ${format(staticInstall)} ms  (runs: ${staticTimes.map(format).join(', ')})`);
    console.log(`    ratio Packgate / static: ${(packgateInstall / staticInstall).toFixed(3)}`);
  } finally {
    await nginx?.stop();
    stopChildren();
    await built.close();
    await database.drop();
    await rm(workDir, { recursive: true, force: true });
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
