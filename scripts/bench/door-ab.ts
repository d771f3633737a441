// Two builds of the server side by side on the warm door: this checkout's and another commit's, for a change whose gain
// is smaller than a run's spread (issue 34: the connection door's read, a few µs per answer):
//   BENCH_AB_BASE=<commit> BENCH_ONLY=p2,304,packages BENCH_RUNS=6 BENCH_SECONDS=3 npx tsx scripts/bench/door-ab.ts
// Each build runs as `npm start` runs it, in a process of its own on data of its own seeded alike (a door holder,
// bench/door-figures.ts), and a second server of the other commit's (its twin) runs beside them: every figure of every
// server is taken in the same turns (bench/turns.ts), and the twin's ratio says how far the machine and the generator
// alone move a ratio in this run. Printed: req/s and CPU per answer of each, this build against the other, the twin
// against the other, and each build's `304` against its `200`. The other commit is checked out and built in a worktree
// of its own (bench/base-build.ts), with this checkout's packages: it must run on the schema this checkout seeds.
// Runs on PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (BENCH_SKIP_PGLITE=1 skips PGlite).
import { type BaseBuild, buildServerAt } from './base-build.js';
import { type BenchDatabase, benchDatabases, temporaryPostgres } from './bench-app.js';
import { processCpuMicros } from './built-server.js';
import { repositoryHost, type Seeded, seedDoorHolder } from './door-figures.js';
import { holderRequest } from './holder-request.js';
import { type SeededBuiltServer, startSeededBuiltServer } from './seeded-built-server.js';
import {
  type LoadTarget,
  line,
  type Measured,
  measureInTurns,
  ratio,
  ratioInTurns,
  ratioSpread,
  requestRate,
  type TurnOptions,
} from './turns.js';

const FIGURES = ['p2', '304', 'packages'] as const;
type Figure = (typeof FIGURES)[number];

/** One server of the comparison on a database of its own, and its requests of each figure. */
type Contender = {
  label: string;
  started: SeededBuiltServer<Seeded>;
  database: BenchDatabase;
  targets: Record<Figure, LoadTarget>;
};

async function startContender(database: BenchDatabase, label: string, main: string | undefined): Promise<Contender> {
  // PostgreSQL: a database of each server's own (the seeding names the same seller); PGlite: a data folder of its own.
  const own =
    database.target.kind === 'postgres' ? await temporaryPostgres(database.adminUrl!, 'packgate_ab') : database;
  let started: SeededBuiltServer<Seeded>;
  try {
    started = await startSeededBuiltServer(own, 'packgate-ab-', seedDoorHolder, {}, main ? { main } : {});
  } catch (error) {
    if (own !== database) await own.drop();
    throw error;
  }
  const contender = { label, started, database: own };
  const { port } = started.server;
  const { token, metadataPath } = started.seeded;
  const host = repositoryHost(port);
  let lastModified: string;
  try {
    const answer = await holderRequest(port, host, metadataPath, token);
    if (answer.status !== 200) throw new Error(`the seeded token is refused: ${answer.status}`);
    lastModified = String(answer.headers['last-modified']);
  } catch (error) {
    await stopContender(contender, database);
    throw new Error(`${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const auth = { host, authorization: `Bearer ${token}` };
  const url = (urlPath: string) => `http://127.0.0.1:${port}${urlPath}`;
  const pid = started.server.child.pid!;
  const serverCpuMicros = () => processCpuMicros(pid);
  return {
    ...contender,
    targets: {
      p2: { url: url(metadataPath), headers: auth, expectStatus: 200, serverCpuMicros },
      '304': {
        url: url(metadataPath),
        headers: { ...auth, 'if-modified-since': lastModified },
        expectStatus: 304,
        serverCpuMicros,
      },
      packages: { url: url('/packages.json'), headers: auth, expectStatus: 200, serverCpuMicros },
    },
  };
}

/** Stops the server and drops the database of its own it was given (PostgreSQL). */
async function stopContender(contender: Omit<Contender, 'targets'>, database: BenchDatabase): Promise<void> {
  await contender.started.stop();
  if (contender.database !== database) await contender.database.drop();
}

/** `a` against `b` in req/s (median of the turns' ratios, and their range) and in CPU per answer (medians). */
function against(a: Measured, b: Measured): string {
  const cpu = ratio(a.cpuMicrosPerRequest / b.cpuMicrosPerRequest);
  return `req/s ${ratio(ratioInTurns(a, b, requestRate))} (${ratioSpread(a, b, requestRate)}), CPU per answer ${cpu}`;
}

async function compareOn(database: BenchDatabase, base: BaseBuild, figures: Figure[], turns: TurnOptions) {
  const short = base.commit.slice(0, 7);
  const contenders: Contender[] = [];
  try {
    contenders.push(await startContender(database, 'this checkout', undefined));
    contenders.push(await startContender(database, short, base.main));
    contenders.push(await startContender(database, `${short}'s twin`, base.main));
    const targets = figures.flatMap((figure) => contenders.map((contender) => contender.targets[figure]));
    const measured = await measureInTurns(targets, turns);
    const of = (figure: Figure, index: number) => measured[figures.indexOf(figure) * contenders.length + index]!;
    for (const figure of figures) {
      const { url, expectStatus } = contenders[0]!.targets[figure];
      console.log(`\n  ${figure}: GET ${new URL(url).pathname}, ${expectStatus}`);
      for (const [index, contender] of contenders.entries())
        console.log(line(`${contender.label}:`, of(figure, index)));
      console.log(`    this checkout / ${short}: ${against(of(figure, 0), of(figure, 1))}`);
      console.log(`    ${short}'s twin / ${short}: ${against(of(figure, 2), of(figure, 1))}  (the same build twice)`);
    }
    if (figures.includes('p2') && figures.includes('304')) {
      console.log('\n  304 / 200 (req/s, median of the turns; CPU per 200 / per 304)');
      for (const [index, contender] of contenders.entries()) {
        const notModified = of('304', index);
        const full = of('p2', index);
        const cpu = ratio(full.cpuMicrosPerRequest / notModified.cpuMicrosPerRequest);
        console.log(
          `    ${contender.label.padEnd(20)} ${ratio(ratioInTurns(notModified, full, requestRate))} (${ratioSpread(notModified, full, requestRate)}), CPU ${cpu}`,
        );
      }
    }
  } finally {
    for (const contender of contenders) await stopContender(contender, database);
  }
}

const baseRevision = process.env.BENCH_AB_BASE;
if (!baseRevision) {
  console.error('BENCH_AB_BASE names the commit to compare this checkout with (e.g. BENCH_AB_BASE=HEAD~1)');
  process.exit(2);
}
const figures = (process.env.BENCH_ONLY ?? FIGURES.join(',')).split(',') as Figure[];
const unknown = figures.filter((figure) => !FIGURES.includes(figure));
if (unknown.length > 0) {
  console.error(`BENCH_ONLY: ${unknown.join(', ')} unknown here; the figures are ${FIGURES.join(', ')}`);
  process.exit(2);
}
const turns: TurnOptions = {
  seconds: Number(process.env.BENCH_SECONDS ?? 3),
  runs: Number(process.env.BENCH_RUNS ?? 6),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
};
const base = await buildServerAt(baseRevision);
try {
  for (const open of benchDatabases('packgate_ab')) {
    const database = await open();
    console.log(`\n== ${database.label}: this checkout against ${base.commit.slice(0, 7)} and its twin`);
    try {
      await compareOn(database, base, figures, turns);
    } finally {
      await database.drop();
    }
  }
} finally {
  await base.remove();
}
process.exit(0);
