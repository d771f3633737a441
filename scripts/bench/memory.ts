import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../src/server/context.js';
import { openDatabase } from '../../src/server/db/client.js';
import { temporaryPostgres } from './bench-app.js';
import { type BuiltServer, buildServer, residentMemory, startBuiltServer } from './built-server.js';
import { holderRequestStatus } from './holder-request.js';
import { stopChild } from './processes.js';
import { type ResidentParts, residentParts } from './resident-parts.js';
import { seedScale, seedSeller } from './seed.js';

// Memory of the server as it is run (issue 34 item 3): the built server (bench/built-server.ts), in a process of its
// own, so that the figure holds nothing of the bench, tsx or the load generator.
// Its resident memory (VmRSS) idle on a fresh data folder or database, then after a restart on the same data with
// `tokens` holders and `packages` packages seeded, then once every holder's packages.json and p2 file were asked
// (the warm path holds every view), with what the warm path says it holds (/metrics).

/** An idle server's memory settles after start-up's work (migrations, the first jobs' polls). */
const SETTLE_MS = Number(process.env.BENCH_MEMORY_SETTLE_MS ?? 10_000);

const METRICS_TOKEN = randomBytes(16).toString('hex');

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/** What the server's /metrics says it holds: the warm path's bytes and Node.js's own accounts of its memory. */
async function heldParts(port: number): Promise<HeldParts> {
  const metrics = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await metrics.text();
  const gauge = (pattern: string) => Number(new RegExp(`^${pattern} ([0-9.e+]+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    warmPath: gauge('packgate_composer_cache_bytes\\{kind="held"\\}'),
    heapUsed: gauge('nodejs_heap_size_used_bytes'),
    heapTotal: gauge('nodejs_heap_size_total_bytes'),
    // PGlite's WebAssembly memory is counted here, with Buffers.
    external: gauge('nodejs_external_memory_bytes'),
  };
}

type HeldParts = { warmPath: number; heapUsed: number; heapTotal: number; external: number };

export type MemoryFigures = {
  idle: number;
  idleParts: HeldParts;
  idleResident: ResidentParts;
  seeded: number;
  warm: number;
  peak: number;
  warmParts: HeldParts;
  warmResident: ResidentParts;
};

/**
 * The built server's memory on PGlite (a fresh data folder) or on PostgreSQL (a fresh database of `adminUrl`'s
 * server), idle, then with `tokens` holders of `packages` packages, after start and after every view is warm.
 */
export async function measureMemory(
  database: { kind: 'pglite' } | { kind: 'postgres'; adminUrl: string },
  scale: { tokens: number; packages: number },
): Promise<MemoryFigures> {
  const main = await buildServer();
  const workDir = await mkdtemp(path.join(tmpdir(), 'packgate-memory-'));
  const postgres = database.kind === 'postgres' ? await temporaryPostgres(database.adminUrl, 'packgate_memory') : null;
  const env: Record<string, string> = {
    DATA_DIR: path.join(workDir, 'data'),
    SECRET_KEY: randomBytes(32).toString('hex'),
    ...(postgres?.target.kind === 'postgres' ? { DATABASE_URL: postgres.target.url } : {}),
  };
  let server: BuiltServer | undefined;
  try {
    server = await startBuiltServer(main, { METRICS_TOKEN, ...env });
    await settle();
    const idle = (await residentMemory(server.child.pid!)).rss;
    const idleResident = await residentParts(server.child.pid!);
    const idleParts = await heldParts(server.port);
    await stopChild(server.child, 'SIGTERM', 30_000);

    // Seeded by this process while the server is stopped (PGlite's folder has one process at a time).
    const handle = await openDatabase(
      postgres?.target ?? { kind: 'pglite', dataDir: path.join(workDir, 'data', 'pglite'), migrated: true },
    );
    const ctx = { db: handle.db } as AppContext;
    const seller = await seedSeller(ctx, 'memory');
    const { holders } = await seedScale(ctx, seller.id, scale.packages, scale.tokens);
    await handle.close();

    server = await startBuiltServer(main, { METRICS_TOKEN, ...env });
    await settle();
    const seeded = (await residentMemory(server.child.pid!)).rss;
    const host = `${seller.slug}.composer.localhost:${server.port}`;
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < holders.length) {
          const holder = holders[next++]!;
          await holderRequestStatus(server!.port, host, '/packages.json', holder.token);
          const status = await holderRequestStatus(server!.port, host, `/p2/${holder.packageName}.json`, holder.token);
          if (status !== 200) throw new Error(`a seeded holder's p2 answered ${status}`);
        }
      }),
    );
    await settle();
    const warm = await residentMemory(server.child.pid!);
    const warmResident = await residentParts(server.child.pid!);
    return {
      idle,
      idleParts,
      idleResident,
      seeded,
      warm: warm.rss,
      peak: warm.peak,
      warmParts: await heldParts(server.port),
      warmResident,
    };
  } finally {
    if (server) await stopChild(server.child, 'SIGTERM', 30_000);
    await postgres?.drop();
    await rm(workDir, { recursive: true, force: true });
  }
}

const parts = (held: HeldParts) =>
  `V8 heap ${megabytes(held.heapUsed)} used of ${megabytes(held.heapTotal)}, external ${megabytes(held.external)} (PGlite's WebAssembly memory at its full size, resident or not, and Buffers)`;

/**
 * The resident parts (bench/resident-parts.ts). V8's heap is within the anonymous rest; what V8 has committed is given
 * beside it, not taken out, since a committed page is not always resident.
 */
const residentLine = (resident: ResidentParts, held: HeldParts) =>
  `      resident by part: files (node, ICU, libraries) ${megabytes(resident.files)}, ` +
  `V8 heap and other anonymous (Buffers, stacks) ${megabytes(resident.otherAnonymous)} (V8 heap committed ${megabytes(held.heapTotal)}), ` +
  `C allocator ${megabytes(resident.cAllocator)}, WebAssembly memory ${megabytes(resident.webAssemblyMemory)}, ` +
  `compiled code ${megabytes(resident.compiledCode)}`;

export function printMemory(figures: MemoryFigures, goals: { idle: number; warm: number }): void {
  console.log(
    `    idle on a fresh data folder or database: ${megabytes(figures.idle)}  (goal ≤ ${goals.idle} MB); ${parts(figures.idleParts)}\n` +
      `${residentLine(figures.idleResident, figures.idleParts)}\n` +
      `    restarted on the seeded data: ${megabytes(figures.seeded)}\n` +
      `    every view warm: ${megabytes(figures.warm)}  (goal ≤ ${goals.warm} MB; peak ${megabytes(figures.peak)}); ${parts(figures.warmParts)}; the warm path holds ${megabytes(figures.warmParts.warmPath)}\n` +
      `${residentLine(figures.warmResident, figures.warmParts)}`,
  );
}

/** The goals of issue 34 item 3, in MB. */
export const MEMORY_GOALS = { pglite: { idle: 300, warm: 400 }, postgres: { idle: 200, warm: 300 } } as const;
