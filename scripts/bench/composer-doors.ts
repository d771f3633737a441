// The metadata figures of scripts/bench.ts, (a) to (d), alone, for working on the warm Composer door:
//   BENCH_ONLY=p2,packages,304,404,dist BENCH_RUNS=6 BENCH_SECONDS=3 npx tsx scripts/bench/composer-doors.ts
// Taken twice (bench/door-figures.ts): with Packgate in this process, with the door's /metrics counting on and off
// and the bare server's answers in this process beside it; then from the built server on the same data in a process of
// its own, as npm run bench takes them (BENCH_BUILT_SERVER=0 skips it). BENCH_ONLY picks the figures (p2, packages,
// 304 and 404 by default; dist, a small zip's download against nginx, and 401, a token nobody holds, on request);
// BENCH_IN_PROCESS=0 skips the figures taken in this process (the built server's are npm run bench's). Runs on PGlite,
// and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (BENCH_SKIP_PGLITE=1 skips PGlite).
// BENCH_PROFILE_SECONDS=N instead loads only our server, in this process, for N s per figure under V8's sampling
// profiler, writes <database>-<figure>.cpuprofile into BENCH_PROFILE_DIR (the system's temp folder) and prints its
// top entries; with BENCH_IN_PROCESS=0 it profiles the built server and the bare server with Packgate's headers instead,
// each in its own process, and prints both in µs per answer (bench/door-profiles.ts).
import { tmpdir } from 'node:os';
import { benchDatabases } from './bench-app.js';
import { measureDoorFigures } from './door-figures.js';
import { profileBuiltServerBesideBare } from './door-profiles.js';

const profileSeconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 0);
const profileDir = process.env.BENCH_PROFILE_DIR ?? tmpdir();
const inBenchProcess = process.env.BENCH_IN_PROCESS !== '0';
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = new Set((process.env.BENCH_ONLY ?? 'p2,packages,304,404').split(','));

for (const open of benchDatabases('packgate_doors')) {
  const database = await open();
  try {
    if (profileSeconds > 0 && !inBenchProcess) {
      await profileBuiltServerBesideBare(database, { seconds: profileSeconds, dir: profileDir, connections, only });
    } else {
      await measureDoorFigures(database, {
        turns: {
          seconds: Number(process.env.BENCH_SECONDS ?? 3),
          runs: Number(process.env.BENCH_RUNS ?? 6),
          connections,
        },
        only,
        inBenchProcess,
        builtServer: process.env.BENCH_BUILT_SERVER !== '0',
        ...(profileSeconds > 0 ? { profile: { seconds: profileSeconds, dir: profileDir } } : {}),
      });
    }
  } finally {
    await database.drop();
  }
}
process.exit(0);
