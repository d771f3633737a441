import { benchDatabases, startBenchApp } from './bench-app.js';
import { GROWTH_SETS, measureGrowth } from './growth.js';
import { seedSeller } from './seed.js';

// `npx tsx scripts/bench/growth-alone.ts`: `npm run bench`'s figure (i), cost as the work grows, on its own (each
// database of benchDatabases; BENCH_GROWTH_SETS or BENCH_SCALE=large choose the sets), for a change to the holder
// lists or packages.json without the whole bench's half hour.

for (const open of benchDatabases('packgate_growth')) {
  const database = await open();
  const { built, address, close } = await startBenchApp(database, 'packgate-growth-');
  try {
    const port = Number(new URL(address).port);
    const seller = await seedSeller(built.ctx, 'bench');
    console.log(`\n${database.label}: ${GROWTH_SETS.join(' then ')} holders of one seller`);
    await measureGrowth(built.ctx, port, seller, `bench.composer.localhost:${port}`);
  } finally {
    await close();
  }
}
