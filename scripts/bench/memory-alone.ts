import { loadavg } from 'node:os';
import { MEMORY_GOALS, measureMemory, printMemory } from './memory.js';

// `npx tsx scripts/bench/memory-alone.ts`: `npm run bench`'s figure (h), the built server's resident memory, on its
// own, in a few minutes instead of the whole bench's half hour: on PGlite (BENCH_SKIP_PGLITE=1 skips it), then on
// PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server; BENCH_SCALE_TOKENS and
// BENCH_SCALE_PACKAGES as for the bench.

const tokens = Number(process.env.BENCH_SCALE_TOKENS ?? 10_000);
const packages = Number(process.env.BENCH_SCALE_PACKAGES ?? 1_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const databases = [
  ...(process.env.BENCH_SKIP_PGLITE === '1' ? [] : [{ kind: 'pglite' as const }]),
  ...(adminUrl ? [{ kind: 'postgres' as const, adminUrl }] : []),
];
for (const database of databases) {
  const load = loadavg()
    .map((average) => average.toFixed(1))
    .join(' ');
  console.log(
    `\n${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}: the built server's resident memory, idle, then with ${tokens} tokens and ${packages} packages (load average ${load})`,
  );
  const figures = await measureMemory(database, { tokens, packages });
  printMemory(figures, MEMORY_GOALS[database.kind]);
}
