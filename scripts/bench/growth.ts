import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../src/server/context.js';
import { databaseKindOf } from '../../src/server/db/client.js';
import { createApiToken } from '../../src/server/features/api-tokens/api-tokens.service.js';
import { median } from './percentile.js';
import { type ScaleSeed, seedHolder, seedScale, seedSellerSession } from './seed.js';

// Cost as the work grows (issue 34 item 4): one seller's holders grow from the first set to the next (default 1,000
// then 10,000; BENCH_SCALE=large: 10,000 then 100,000), seeded incrementally on the same database, and at each set
// the bench times what a seller or holder waits for: the packages.json of a holder with 200 licenses (the first
// request, which reads the view from the database, then held), and the seller's holder lists on Management
// (/api/customers) and in API v1 (/api/v1/customers, /api/v1/licenses), a page of each. Printed with how each grew
// against how the holders grew.

export const GROWTH_SETS =
  process.env.BENCH_SCALE === 'large'
    ? [10_000, 100_000]
    : (process.env.BENCH_GROWTH_SETS ?? '1000,10000').split(',').map(Number);
const LICENSES_OF_ONE_HOLDER = 200;
const REPEAT = Number(process.env.BENCH_GROWTH_REPEAT ?? 9);

type Timed = { ms: number; bytes: number; status: number };

function timedGet(port: number, urlPath: string, headers: Record<string, string>): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path: urlPath, headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ ms: performance.now() - started, bytes, status: response.statusCode ?? 0 }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function medianOf(port: number, urlPath: string, headers: Record<string, string>, times = REPEAT) {
  const runs: Timed[] = [];
  for (let run = 0; run < times; run++) {
    const timed = await timedGet(port, urlPath, headers);
    if (timed.status !== 200) throw new Error(`${urlPath} answered ${timed.status}`);
    runs.push(timed);
  }
  return { ms: median(runs.map((run) => run.ms)), bytes: runs[0]!.bytes };
}

type Figures = Map<string, { ms: number; bytes: number }>;

/**
 * Seeds each set's holders (each with one license, to one of the seller's `packageCount` packages), a holder with 200
 * licenses per set, and times the figures; `repositoryHost` is the seller's Composer host with the port.
 */
export async function measureGrowth(
  ctx: AppContext,
  port: number,
  seller: { id: string; slug: string },
  repositoryHost: string,
): Promise<void> {
  const cookie = await seedSellerSession(ctx, seller.id);
  const session = { cookie: `${cookie.name}=${cookie.value}` };
  const figures: Figures[] = [];
  let seeded = 0;
  let packages: ScaleSeed['packages'] = [];
  for (const holders of GROWTH_SETS) {
    const started = performance.now();
    const scale = await seedScale(ctx, seller.id, seeded === 0 ? LICENSES_OF_ONE_HOLDER : 0, holders - seeded, {
      prefix: `growth-${holders}`,
      packages,
    });
    packages = scale.packages;
    seeded = holders;
    const heavyToken = await seedHolder(
      ctx,
      seller.id,
      packages.map((pkg) => pkg.id),
    );
    // What runs by itself after a bulk of inserts, before a seller would page through them: PostgreSQL's autovacuum
    // (statistics: without them the planner took the 100,000 holders for 387 and sorted every license, 440 ms a
    // page against 2 ms), PGlite's hourly ANALYZE (db/client.ts). The analytics bench does the same.
    await ctx.db.execute(databaseKindOf(ctx.db) === 'postgres' ? sql`vacuum analyze` : sql`analyze`);
    console.log(
      `    ${holders.toLocaleString('en-US')} holders (seeded in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
    // API v1 allows 30 requests a minute per token: one token per set.
    const apiToken = await createApiToken(
      ctx,
      // Its creator, the seller, as the app records it: a token without one has no permissions.
      { kind: 'system', sellerId: seller.id, person: { id: seller.id, label: 'Bench Seller' } },
      { name: `growth ${holders}`, permissions: ['customers:read'] },
    );
    const composer = { host: repositoryHost, authorization: `Bearer ${heavyToken}` };
    const set: Figures = new Map();
    const cold = await timedGet(port, '/packages.json', composer);
    if (cold.status !== 200) throw new Error(`packages.json answered ${cold.status}`);
    set.set('packages.json of a holder with 200 licenses, first request', cold);
    set.set('packages.json of a holder with 200 licenses, held', await medianOf(port, '/packages.json', composer, 51));
    // The lists are paged (100 a page unless asked): a page's cost is what a seller or a shop waits for.
    set.set('Management: GET /api/customers, a page of 100', await medianOf(port, '/api/customers', session));
    const api = { authorization: `Bearer ${apiToken.token}` };
    set.set('API v1: GET /api/v1/customers, a page of 100', await medianOf(port, '/api/v1/customers', api));
    set.set('API v1: GET /api/v1/licenses, a page of 100', await medianOf(port, '/api/v1/licenses', api));
    for (const [label, figure] of set) {
      console.log(
        `      ${figure.ms.toFixed(1).padStart(8)} ms ${`${(figure.bytes / 1024).toFixed(1)} KB`.padStart(10)}  ${label}`,
      );
    }
    figures.push(set);
  }
  const grewBy = Number((GROWTH_SETS.at(-1)! / GROWTH_SETS[0]!).toFixed(2));
  console.log(`    grew while the holders grew ${grewBy}× (time, answer size):`);
  for (const [label, last] of figures.at(-1)!) {
    const first = figures[0]!.get(label)!;
    console.log(
      `      ${(last.ms / first.ms).toFixed(2).padStart(7)}× ${(last.bytes / first.bytes).toFixed(2).padStart(7)}×  ${label}`,
    );
  }
}
