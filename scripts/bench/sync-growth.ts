import { fork } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../src/server/context.js';
import { platformSubscriptions } from '../../src/server/db/schema/index.js';
import { createPackageRepository, createTempDir, removeTempDir } from '../../test/support/git-fixtures.js';
import { TestClient } from '../../test/support/http-client.js';
import { type BenchDatabase, benchDatabases, startBenchApp } from './bench-app.js';
import { percentileOf } from './percentile.js';
import { seedHolder, seedSeller, seedSellerSession } from './seed.js';

// `npx tsx scripts/bench/sync-growth.ts`: cost as a seller's code grows (issue 34 item 4). For each set, on a fresh
// database: a git server on loopback (git http-backend behind basic auth) holds `packages` repositories of `tags`
// releases each; the seller adds every one through POST /api/repositories/from-url, as the Add Package dialog does,
// and the bench times
//   - adding them all (the requests; each enqueues its sync),
//   - the first version installable: a holder of the first package gets its p2 metadata with versions and the zip
//     of one, built on demand if the pre-cache has not reached it yet,
//   - every version synced (package_versions holds packages × tags rows, plus the branch),
//   - every zip built (the pre-cache tasks done),
// and, meanwhile, the server's event loop delay and a holder's p2 requests for the first package, asked from a
// process of its own from the first version installable to the last zip (what a `composer update` waits for then).
// Sets are `packages x tags`, in turn: BENCH_SYNC_SETS (default 10x10,100x10), BENCH_SCALE=large 100x100,1000x100.
// Printed with how each time grew against how the versions grew, so that a reader sees what is linear.

const SETS = (
  process.env.BENCH_SYNC_SETS ?? (process.env.BENCH_SCALE === 'large' ? '100x100,1000x100' : '10x10,100x10')
)
  .split(',')
  .map((set) => {
    const [packages, tags] = set.split('x').map(Number);
    if (!packages || !tags) throw new Error(`BENCH_SYNC_SETS: "${set}" is not packages x tags (e.g. 100x10)`);
    return { packages, tags };
  });
/** How long the bench waits for a set's syncs and zips before it gives up. */
const TIMEOUT_MS = Number(process.env.BENCH_SYNC_TIMEOUT_S ?? 7_200) * 1000;
const credentials = { username: 'bench-reader', password: 'bench-password' };

type Answer = { status: number; body: Buffer };

function get(port: number, urlPath: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path: urlPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, started: number, check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`${what}: not reached in ${TIMEOUT_MS / 1000} s`);
    await delay(100);
  }
}

async function countOf(ctx: AppContext, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await ctx.db.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]?.n ?? 0);
}

/** The repositories of a set, made once with git fast-import: `vendor/package-N`, tags v1.0.0 to v1.0.{tags-1}. */
async function makeRepositories(root: string, packages: number, tags: number): Promise<void> {
  const tagNames = Array.from({ length: tags }, (_, index) => `v1.${Math.floor(index / 10)}.${index % 10}`);
  for (let index = 0; index < packages; index++) {
    await createPackageRepository(path.join(root, 'bench', `package-${index}.git`), {
      name: `bench/package-${index}`,
      tags: tagNames,
      bare: true,
    });
  }
}

type SetFigures = {
  versions: number;
  add: number;
  firstInstallable: number;
  /** Versions still without a zip when the first one was installable. */
  zipsMissingThen: number;
  synced: number;
  zips: number;
  /** The server's event loop delay while the set synced (p99 and max, ms): how long a Composer request could wait. */
  loopDelay: { p99: number; max: number };
  /** A holder's p2 requests from a process of its own, from the first version installable to the last zip (ms). */
  probe: ProbeFigures;
};

type ProbeFigures = { answered: number; p50: number; p99: number; max: number; failures: Record<string, number> };

/** A holder asking for a p2 file from a process of its own (composer-probe-process.ts); stop() reports. */
async function startComposerProbe(port: number, token: string): Promise<{ stop(): Promise<ProbeFigures> }> {
  const child = fork(new URL('./composer-probe-process.ts', import.meta.url), [
    String(port),
    `bench.composer.localhost:${port}`,
    token,
    '/p2/bench/package-0.json',
  ]);
  // A probe that dies says so instead of leaving the bench waiting for its message.
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the Composer probe exited with ${code} before it reported`);
  });
  exited.catch(() => undefined);
  await Promise.race([once(child, 'message'), exited]);
  return {
    stop: async () => {
      const reported = once(child, 'message');
      child.send('stop');
      const [{ latencies, failures }] = (await Promise.race([reported, exited])) as [
        { latencies: number[]; failures: Record<string, number> },
      ];
      child.disconnect();
      const sorted = latencies.sort((a, b) => a - b);
      return {
        answered: sorted.length,
        p50: percentileOf(sorted, 0.5),
        p99: percentileOf(sorted, 0.99),
        max: sorted.at(-1) ?? Number.NaN,
        failures,
      };
    },
  };
}

/** When a holder of bench/package-0 first gets its metadata with a version and that version's zip. */
function waitUntilInstallable(ctx: AppContext, port: number, token: string, started: number) {
  const composer = { host: `bench.composer.localhost:${port}`, authorization: `Bearer ${token}` };
  return until('the first version installable', started, async () => {
    const metadata = await get(port, '/p2/bench/package-0.json', composer);
    if (metadata.status !== 200) return undefined;
    const versions = (
      JSON.parse(metadata.body.toString()) as { packages: Record<string, { dist?: { url: string } }[]> }
    ).packages['bench/package-0'];
    const distUrl = versions?.find((version) => version.dist)?.dist?.url;
    if (!distUrl) return undefined;
    const zip = await get(port, new URL(distUrl).pathname, composer);
    if (zip.status !== 200) throw new Error(`the first zip answered ${zip.status}`);
    const ms = performance.now() - started;
    const zipsMissing = await countOf(ctx, sql`select count(*)::int as n from package_versions where dist_key is null`);
    return { ms, zipsMissing };
  });
}

/** The git server in a process of its own (git-server-process.ts says why); `close` ends it. */
async function startGitServerProcess(repos: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = fork(new URL('./git-server-process.ts', import.meta.url), [
    repos,
    credentials.username,
    credentials.password,
  ]);
  const [message] = (await once(child, 'message')) as [{ url: string }];
  return {
    url: message.url,
    close: async () => {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

async function measureSet(database: BenchDatabase, packages: number, tags: number): Promise<SetFigures> {
  const workspace = await createTempDir('packgate-sync-growth-');
  const repos = path.join(workspace, 'repos');
  const madeStarted = performance.now();
  await makeRepositories(repos, packages, tags);
  console.log(
    `    ${packages} repositories of ${tags} tags made in ${((performance.now() - madeStarted) / 1000).toFixed(0)} s`,
  );
  const gitServer = await startGitServerProcess(repos);
  // The git server is on loopback, which Packgate refuses by default (a seller must not reach the host's network).
  const { built, address, close } = await startBenchApp(database, 'packgate-sync-', {
    CODE_HOST_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const ctx = built.ctx;
  const port = Number(new URL(address).port);
  try {
    const seller = await seedSeller(ctx, 'bench');
    const now = new Date();
    // The Enterprise plan: no limit on packages.
    await ctx.db.insert(platformSubscriptions).values({
      userId: seller.id,
      status: 'trial',
      tierId: 'enterprise',
      trialStartedAt: now,
      trialEndsAt: new Date(now.getTime() + 14 * 86_400_000),
    });
    const cookie = await seedSellerSession(ctx, seller.id);
    // A browser-like client: the session cookie and the CSRF token the dashboard sends.
    const client = new TestClient(address);
    client.setCookie(cookie.name, cookie.value);

    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const started = performance.now();
    const packageIds: string[] = [];
    let firstInstallable: Promise<{ ms: number; zipsMissing: number }> | undefined;
    let probe: Promise<{ stop(): Promise<ProbeFigures> }> | undefined;
    for (let index = 0; index < packages; index++) {
      const answer = await client.post('/api/repositories/from-url', {
        repositoryUrl: `${gitServer.url}/bench/package-${index}.git`,
        credentials,
        isActive: true,
      });
      if (answer.status !== 201) {
        throw new Error(`adding package ${index} answered ${answer.status}: ${await answer.text()}`);
      }
      packageIds.push(((await answer.json()) as { id: string }).id);
      // From the first package on, its holder tries to install while the others are still being added.
      // Once it is, a holder's client keeps asking for that p2 file until every zip is built.
      if (index === 0) {
        const token = await seedHolder(ctx, seller.id, packageIds);
        firstInstallable = waitUntilInstallable(ctx, port, token, started);
        probe = firstInstallable.then(() => startComposerProbe(port, token));
        // Its failure is the first install's, reported where that is awaited.
        probe.catch(() => undefined);
      }
    }
    const add = performance.now() - started;
    const first = await firstInstallable!;

    const versions = packages * (tags + 1);
    const synced = await until('every version synced', started, async () =>
      (await countOf(ctx, sql`select count(*)::int as n from package_versions`)) >= versions
        ? performance.now() - started
        : undefined,
    );
    const zips = await until('every zip built', started, async () =>
      (await countOf(ctx, sql`select count(*)::int as n from package_versions where dist_key is null`)) === 0
        ? performance.now() - started
        : undefined,
    );
    loopDelay.disable();
    const probed = await (await probe!).stop();
    return {
      versions,
      add,
      firstInstallable: first.ms,
      zipsMissingThen: first.zipsMissing,
      synced,
      zips,
      loopDelay: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      probe: probed,
    };
  } finally {
    await close();
    await gitServer.close();
    await removeTempDir(workspace);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9);

for (const open of benchDatabases('packgate_sync_growth')) {
  const figures: SetFigures[] = [];
  let label = '';
  for (const { packages, tags } of SETS) {
    const database = await open();
    label = database.label;
    console.log(`\n${database.label}: ${packages} packages of ${tags} tags, from a fresh database`);
    const set = await measureSet(database, packages, tags);
    figures.push(set);
    console.log(`    ${seconds(set.add)}  every package added (${(set.add / packages).toFixed(0)} ms each)`);
    console.log(
      `    ${seconds(set.firstInstallable)}  the first version installable (metadata and its zip; ${set.zipsMissingThen} versions then without a zip)`,
    );
    console.log(
      `    ${seconds(set.synced)}  every version synced (${set.versions.toLocaleString('en-US')}; ${(set.synced / set.versions).toFixed(1)} ms each)`,
    );
    console.log(`    ${seconds(set.zips)}  every zip built (${(set.zips / set.versions).toFixed(1)} ms a version)`);
    console.log(
      `    ${`${set.loopDelay.p99.toFixed(1)} ms`.padStart(9)}  the event loop's delay meanwhile, p99 (max ${set.loopDelay.max.toFixed(1)} ms)`,
    );
    const { probe } = set;
    const failed = Object.entries(probe.failures).map(([status, count]) => `${count} answered ${status}`);
    console.log(
      `    ${`${probe.p99.toFixed(1)} ms`.padStart(9)}  a holder's p2 request meanwhile, p99 (p50 ${probe.p50.toFixed(1)}, max ${probe.max.toFixed(1)} ms; ${probe.answered} answered from a process of its own${failed.length > 0 ? `, ${failed.join(', ')}` : ''})`,
    );
  }
  if (figures.length < 2) continue;
  const first = figures[0]!;
  const last = figures.at(-1)!;
  console.log(`\n${label}: grew while the versions grew ${(last.versions / first.versions).toFixed(1)}×`);
  for (const [name, key] of [
    ['every package added', 'add'],
    ['the first version installable', 'firstInstallable'],
    ['every version synced', 'synced'],
    ['every zip built', 'zips'],
  ] as const) {
    console.log(`    ${(last[key] / first[key]).toFixed(2).padStart(7)}×  ${name}`);
  }
}
