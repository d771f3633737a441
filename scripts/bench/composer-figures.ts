import { rm } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import type { AppContext } from '../../src/server/context.js';
import { median, placeStatic, prepareProject, resetProject, timeComposer } from './composer-install.js';
import { holderRequest } from './holder-request.js';
import type { StaticServer } from './processes.js';
import { seedHolder, seedPackage } from './seed.js';

// (f) of npm run bench: `composer install` of 20 packages from Packgate and from the same files exported to nginx,
// with an empty Composer cache and with a warm one (counting dists downloaded again), then an unchanged
// `composer update` (the share of metadata requests answered 304).

const PACKAGE_COUNT = 20;
const format = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });
const ratio = (value: number) => value.toFixed(3);

/** Counts the answers of the running server by kind of path, while `isCounting` is set. */
export function answerCounter(server: Server) {
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

export type AnswerCounter = ReturnType<typeof answerCounter>;

export async function measureComposerInstall(options: {
  ctx: AppContext;
  workDir: string;
  port: number;
  host: string;
  sellerId: string;
  nginx: StaticServer;
  counter: AnswerCounter;
  turns: number;
}): Promise<void> {
  const { ctx, workDir, port, host, sellerId, nginx, counter, turns } = options;
  const staticRoot = path.join(workDir, 'static');
  const seeded = [];
  for (let index = 1; index <= PACKAGE_COUNT; index++) {
    seeded.push(await seedPackage(ctx, workDir, sellerId, `bench/lib-${String(index).padStart(2, '0')}`, index, 5));
  }
  const installToken = await seedHolder(
    ctx,
    sellerId,
    seeded.map((pkg) => pkg.id),
  );
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
  for (const pkg of seeded) {
    for (const suffix of ['', '~dev']) {
      const file = await holderRequest(port, host, `/p2/${pkg.name}${suffix}.json`, installToken);
      const text = file.body.toString().replaceAll(repositoryUrl, staticUrl);
      await placeStatic(staticRoot, `/p2/${pkg.name}${suffix}.json`, Buffer.from(text));
    }
    for (const version of pkg.versions) {
      const urlPath = `/api/composer/download/${pkg.name}/${encodeURIComponent(version)}`;
      const file = await holderRequest(port, host, urlPath, installToken);
      if (file.status !== 200) throw new Error(`Packgate answered ${file.status} for ${urlPath}`);
      await placeStatic(staticRoot, urlPath, file.body);
    }
  }
  const names = seeded.map((pkg) => pkg.name);
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
}
