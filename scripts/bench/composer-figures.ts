import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../src/server/context.js';
import type { BenchDatabase } from './bench-app.js';
import { placeStatic, prepareProject, resetProject, timeComposer } from './composer-install.js';
import { holderRequest } from './holder-request.js';
import { median } from './percentile.js';
import { type StaticServer, startNginx } from './processes.js';
import { seedHolder, seedPackage, seedSeller } from './seed.js';
import { startSeededBuiltServer } from './seeded-built-server.js';
import { format, ratio } from './turns.js';

// (f) of npm run bench: `composer install` of 20 packages from Packgate (the built server, npm start's command, in a
// process of its own) and from the same files exported to nginx, with an empty Composer cache and with a warm one
// (counting dists downloaded again), then an unchanged `composer update` (the share of metadata requests answered 304).

const PACKAGE_COUNT = 20;

/** Answers of one kind of Composer door by status. */
type AnswerCounts = { metadata: Map<number, number>; dist: Map<number, number> };

const DOOR_ROUTES = { 'composer:metadata': 'metadata', 'composer:dist': 'dist' } as const;

/** `packgate_http_requests_total` of the Composer doors in a /metrics text (observability/metrics.ts). */
function doorAnswerCounts(metricsText: string): AnswerCounts {
  const counts: AnswerCounts = { metadata: new Map(), dist: new Map() };
  const prefix = 'packgate_http_requests_total{route="';
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const route = line.slice(prefix.length, line.indexOf('"', prefix.length));
    const kind = DOOR_ROUTES[route as keyof typeof DOOR_ROUTES];
    const status = Number(/status="(\d{3})"/.exec(line)?.[1]);
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (kind && Number.isInteger(status)) counts[kind].set(status, (counts[kind].get(status) ?? 0) + value);
  }
  return counts;
}

/** The Composer doors' answers by status between start and stop, from the server's /metrics. */
function metricsAnswerCounter(port: number, metricsToken: string) {
  const read = async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    if (!answer.ok) throw new Error(`/metrics answered ${answer.status}`);
    return doorAnswerCounts(await answer.text());
  };
  const since = (before: Map<number, number>, after: Map<number, number>) =>
    new Map([...after].map(([status, count]) => [status, count - (before.get(status) ?? 0)]));
  let before: AnswerCounts | undefined;
  return {
    async start() {
      before = await read();
    },
    async stop(): Promise<AnswerCounts> {
      const after = await read();
      if (!before) throw new Error('the answer counter was not started');
      return { metadata: since(before.metadata, after.metadata), dist: since(before.dist, after.dist) };
    },
  };
}

const sum = (counts: Map<number, number>) => [...counts.values()].reduce((total, count) => total + count, 0);

type InstallSet = { packages: Array<{ name: string; versions: string[] }>; token: string };

/** A seller with PACKAGE_COUNT packages of five tags each and one holder licensed for all of them. */
async function seedInstallSet(ctx: AppContext, workDir: string): Promise<InstallSet> {
  const seller = await seedSeller(ctx, 'bench');
  const seeded = [];
  for (let index = 1; index <= PACKAGE_COUNT; index++) {
    seeded.push(await seedPackage(ctx, workDir, seller.id, `bench/lib-${String(index).padStart(2, '0')}`, index, 5));
  }
  const token = await seedHolder(
    ctx,
    seller.id,
    seeded.map((pkg) => pkg.id),
  );
  return { packages: seeded.map(({ name, versions }) => ({ name, versions })), token };
}

/** (f) against the built server on a database of its own (`database`: PGlite, or a temporary PostgreSQL database). */
export async function measureComposerInstall(database: BenchDatabase, turns: number): Promise<void> {
  const metricsToken = crypto.randomUUID();
  const started = await startSeededBuiltServer(database, 'packgate-install-', seedInstallSet, {
    METRICS_TOKEN: metricsToken,
  });
  let nginx: StaticServer | undefined;
  try {
    const { port } = started.server;
    const staticRoot = path.join(started.workDir, 'static');
    await mkdir(staticRoot, { recursive: true });
    nginx = await startNginx(started.workDir, staticRoot);
    await measureInstalls({
      workDir: started.workDir,
      port,
      host: `bench.composer.localhost:${port}`,
      staticRoot,
      nginx,
      counter: metricsAnswerCounter(port, metricsToken),
      turns,
      set: started.seeded,
    });
  } finally {
    await nginx?.stop();
    await started.stop();
  }
}

async function measureInstalls(options: {
  workDir: string;
  port: number;
  host: string;
  staticRoot: string;
  nginx: StaticServer;
  counter: ReturnType<typeof metricsAnswerCounter>;
  turns: number;
  set: InstallSet;
}): Promise<void> {
  const { workDir, port, host, staticRoot, nginx, counter, turns } = options;
  const { packages, token: installToken } = options.set;
  const repositoryUrl = `http://${host}`;
  // The static repository under a name of its own as well (nginx answers any Host): composer then resolves and
  // connects to both the same way (curl answers `*.localhost` itself), and only the servers differ.
  const staticUrl = `http://static.composer.localhost:${nginx.port}`;
  // The static export: Packgate's own answers for this token, dist URLs pointed at nginx, zips beside them.
  const exported = JSON.parse(
    (await holderRequest(port, host, '/packages.json', installToken)).body.toString(),
  ) as Record<string, unknown>;
  delete exported['notify-batch'];
  await placeStatic(staticRoot, '/packages.json', Buffer.from(JSON.stringify(exported)));
  for (const { name, versions } of packages) {
    for (const suffix of ['', '~dev']) {
      const file = await holderRequest(port, host, `/p2/${name}${suffix}.json`, installToken);
      const text = file.body.toString().replaceAll(repositoryUrl, staticUrl);
      await placeStatic(staticRoot, `/p2/${name}${suffix}.json`, Buffer.from(text));
    }
    for (const version of versions) {
      const urlPath = `/api/composer/download/${name}/${encodeURIComponent(version)}`;
      const file = await holderRequest(port, host, urlPath, installToken);
      if (file.status !== 200) throw new Error(`Packgate answered ${file.status} for ${urlPath}`);
      await placeStatic(staticRoot, urlPath, file.body);
    }
  }
  const names = packages.map((pkg) => pkg.name);
  console.log(`\n(f) composer install of ${PACKAGE_COUNT} packages, median of ${turns} turns`);
  const packgateProject = await prepareProject(workDir, 'packgate', { repositoryUrl, token: installToken }, names);
  const staticProject = await prepareProject(workDir, 'static', { repositoryUrl: staticUrl }, names);
  const times = { packgateCold: [] as number[], packgateWarm: [] as number[], staticCold: [] as number[] };
  const staticWarm: number[] = [];
  const update = { times: [] as number[], notModified: 0, metadata: 0 };
  let warmDists = 0;
  for (let run = 0; run < turns; run++) {
    const packgateCache = path.join(workDir, `composer-cache-packgate-${run}`);
    const staticCache = path.join(workDir, `composer-cache-static-${run}`);
    await resetProject(packgateProject);
    times.packgateCold.push(await timeComposer(workDir, packgateProject, packgateCache, 'install'));
    await resetProject(staticProject);
    times.staticCold.push(await timeComposer(workDir, staticProject, staticCache, 'install'));
    await resetProject(packgateProject);
    await counter.start();
    times.packgateWarm.push(await timeComposer(workDir, packgateProject, packgateCache, 'install'));
    warmDists += sum((await counter.stop()).dist);
    await resetProject(staticProject);
    staticWarm.push(await timeComposer(workDir, staticProject, staticCache, 'install'));
    await counter.start();
    update.times.push(await timeComposer(workDir, packgateProject, packgateCache, 'update'));
    const answered = (await counter.stop()).metadata;
    update.notModified += answered.get(304) ?? 0;
    update.metadata += sum(answered);
    await rm(packgateCache, { recursive: true, force: true });
    await rm(staticCache, { recursive: true, force: true });
  }
  // Every unchanged update asks for metadata: none counted means /metrics was not read right, and "no dist again"
  // would then say nothing.
  if (update.metadata === 0) throw new Error("the server's /metrics counted no metadata answer of the updates");
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
}
