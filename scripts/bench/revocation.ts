import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../src/server/context.js';
import { grants } from '../../src/server/db/schema/index.js';
import { holderRequestStatus } from './holder-request.js';
import { percentileOf } from './percentile.js';
import { seedHolderWithGrant } from './seed.js';

// (g) of npm run bench: on PostgreSQL, a revoke committed by the bench's process, and the time until a second
// process (scripts/bench/second-process.ts, on the same database) refuses the license.

/** Revokes `rounds` fresh licenses one at a time and prints p50, p99 and max of the time to the first refusal. */
export async function measureRevocation(
  ctx: AppContext,
  secondPort: number,
  target: { sellerId: string; packageId: string; host: string; metadataPath: string },
  rounds: number,
): Promise<void> {
  const { host, metadataPath } = target;
  const latencies: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const holder = await seedHolderWithGrant(ctx, target.sellerId, target.packageId);
    for (let attempt = 0; attempt < 2; attempt++) {
      const warm = await holderRequestStatus(secondPort, host, metadataPath, holder.token);
      if (warm !== 200) throw new Error(`the second process answered ${warm}`);
    }
    await ctx.db.update(grants).set({ status: 'revoked' }).where(eq(grants.id, holder.grantId));
    const revokedAt = performance.now();
    for (;;) {
      const answer = await holderRequestStatus(secondPort, host, metadataPath, holder.token);
      if (answer === 404) break;
      if (performance.now() - revokedAt > 5_000) throw new Error('the second process still serves after 5 s');
    }
    latencies.push(performance.now() - revokedAt);
  }
  latencies.sort((a, b) => a - b);
  const percentile = (share: number) => percentileOf(latencies, share);
  console.log(
    `\n(g) revocation across two processes on PostgreSQL, ${rounds} revokes: from the revoke's commit to the first refused request on the other process`,
  );
  console.log(
    `    p50 ${percentile(0.5).toFixed(1)} ms  p99 ${percentile(0.99).toFixed(1)} ms  max ${latencies.at(-1)!.toFixed(1)} ms  (goal p99 ≤ 100 ms)`,
  );
}

/** scripts/bench/second-process.ts in a Node.js process of its own, on the same database. */
export async function startSecondProcess(url: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/bench/second-process.ts')], {
    env: { ...process.env, BENCH_SECOND_DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the second process did not start within 60 s')), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const newline = output.indexOf('\n');
      if (newline !== -1) {
        clearTimeout(timer);
        resolve((JSON.parse(output.slice(0, newline)) as { port: number }).port);
      }
    });
    child.once('exit', (code) => reject(new Error(`the second process exited with ${code}`)));
  });
  return { child, port };
}
