// The warm door's distance to a bare node:http server in instructions, not req/s (bench/instructions.ts): a warm
// `p2` answer counted in the bare server with its three headers, the same bare server with Packgate's headers, that
// bare handler inside the built server (bench/bare-in-server.mjs), and Packgate's door, each in a server run under
// valgrind's callgrind; so that each run splits the distance into Packgate's headers, sharing the process and the
// door, with a spread of a few percent where wall-clock turns spread by tens:
//   npx tsx scripts/bench/door-instructions.ts
// BENCH_INSTRUCTION_REQUESTS (2000) answers per round after as many unmeasured, BENCH_INSTRUCTION_ROUNDS (3) rounds,
// the median printed. Runs on PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set
// (BENCH_SKIP_PGLITE=1 skips PGlite). Needs valgrind (Debian's package); about two minutes a database.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BenchDatabase, measureOnEachBenchDatabase } from './bench-app.js';
import { type DoorServers, startDoorServers } from './door-servers.js';
import { callgrindCommand, countWhile, hasValgrind, keepAliveRequests, VALGRIND_ENV } from './instructions.js';
import { median } from './percentile.js';
import { format, ratio } from './turns.js';

const REQUESTS = Number(process.env.BENCH_INSTRUCTION_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_INSTRUCTION_ROUNDS ?? 3);
/** How long a server's own timers are counted with no request, to take them off each round's count. */
const IDLE_SECONDS = 5;

type Target = {
  label: string;
  pid: number;
  port: number;
  path: string;
  headers: Record<string, string>;
};

/** The instructions of each counted round of `target`, per answer, before its server's idle work is taken off. */
async function countRound(target: Target, outPrefix: string): Promise<{ instructions: number; seconds: number }> {
  const requests = { port: target.port, path: target.path, headers: target.headers, count: REQUESTS };
  const warm = await keepAliveRequests(requests);
  if (warm.get(200) !== REQUESTS) throw new Error(`${target.label}: not every answer was a 200: ${[...warm]}`);
  return countWhile(target.pid, outPrefix, async () => {
    await keepAliveRequests(requests);
  });
}

async function idleInstructionsPerSecond(pid: number, outPrefix: string): Promise<number> {
  const idle = await countWhile(
    pid,
    outPrefix,
    () => new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000)),
  );
  return idle.instructions / idle.seconds;
}

async function measure(database: BenchDatabase): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-callgrind-'));
  const ours = path.join(folder, 'packgate');
  const bare = path.join(folder, 'bare');
  console.log(`\n== ${database.label}: a warm p2 answer in instructions (callgrind, main thread)`);
  let servers: DoorServers | undefined;
  try {
    servers = await startDoorServers(database, folder, 'packgate-instructions-', {
      built: callgrindCommand(ours),
      bare: callgrindCommand(bare),
      env: VALGRIND_ENV,
    });
    const { built, host, asAnswered } = servers;
    const bareServer = servers.bare;
    const { token, metadataPath } = built.seeded;
    const pid = built.server.child.pid!;
    const prefixOf = (target: Target) => (target.pid === pid ? ours : bare);
    const plain: Target = {
      label: 'bare',
      pid: bareServer.pid,
      port: bareServer.port,
      path: metadataPath,
      headers: {},
    };
    const targets = {
      bare: plain,
      bareWithHeaders: { ...plain, label: "bare, Packgate's headers", path: asAnswered },
      bareInProcess: {
        label: "bare in Packgate's process",
        pid,
        port: servers.bareInPort,
        path: asAnswered,
        headers: {},
      },
      packgate: {
        label: 'Packgate',
        pid,
        port: built.server.port,
        path: metadataPath,
        headers: { host, authorization: `Bearer ${token}` },
      },
    };
    // Every answer's code warmed first; then each server's idle work (its timers: a second's, not an answer's) counted
    // before and after the rounds, and each round's count less that work over the round's length.
    for (const target of Object.values(targets)) await countRound(target, prefixOf(target));
    const idleBefore = {
      ours: await idleInstructionsPerSecond(pid, ours),
      bare: await idleInstructionsPerSecond(bareServer.pid, bare),
    };
    const rounds = new Map<Target, Array<{ instructions: number; seconds: number }>>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of Object.values(targets)) {
        rounds.set(target, [...(rounds.get(target) ?? []), await countRound(target, prefixOf(target))]);
      }
    }
    const idleAfter = {
      ours: await idleInstructionsPerSecond(pid, ours),
      bare: await idleInstructionsPerSecond(bareServer.pid, bare),
    };
    const idle = { ours: (idleBefore.ours + idleAfter.ours) / 2, bare: (idleBefore.bare + idleAfter.bare) / 2 };
    console.log(
      `  with no request: Packgate ${format(idleBefore.ours)} and ${format(idleAfter.ours)} instructions a second (its timers), ` +
        `bare ${format(idleBefore.bare)} and ${format(idleAfter.bare)}`,
    );
    const perAnswer = (target: Target) =>
      rounds
        .get(target)!
        .map(
          ({ instructions, seconds }) =>
            (instructions - (target.pid === pid ? idle.ours : idle.bare) * seconds) / REQUESTS,
        );
    const counts = {
      bare: median(perAnswer(targets.bare)),
      bareWithHeaders: median(perAnswer(targets.bareWithHeaders)),
      bareInProcess: median(perAnswer(targets.bareInProcess)),
      packgate: median(perAnswer(targets.packgate)),
    };
    for (const [key, target] of Object.entries(targets)) {
      const values = perAnswer(target);
      console.log(
        `  ${`${target.label}:`.padEnd(30)} ${format(counts[key as keyof typeof counts]).padStart(8)} per answer ` +
          `(rounds ${format(Math.min(...values))} to ${format(Math.max(...values))})`,
      );
    }
    console.log(
      `  bare / Packgate: ${ratio(counts.bare / counts.packgate)}; the distance split: Packgate's headers ` +
        `+${format(counts.bareWithHeaders - counts.bare)}, sharing the process ` +
        `+${format(counts.bareInProcess - counts.bareWithHeaders)}, the door +${format(counts.packgate - counts.bareInProcess)}` +
        ` (median of ${ROUNDS} rounds of ${REQUESTS} answers)`,
    );
  } finally {
    await servers?.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

if (!(await hasValgrind())) {
  console.error('valgrind is not installed (Debian: apt-get install valgrind)');
  process.exit(1);
}
await measureOnEachBenchDatabase('packgate_instructions', measure);
process.exit(0);
