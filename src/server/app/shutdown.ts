import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import type { DatabaseHandle } from '../db/client.js';

// A process's orderly end (SIGTERM, SIGINT, a test's close): what is still running finishes or goes back to the
// queue while the database is open, then each part closes, the database last.

export type ClosingParts = {
  app: FastifyInstance;
  ctx: AppContext;
  jobs: { close(): Promise<void> };
  rateLimitRedis?: Redis;
  composerAccess: { close(): Promise<void> };
  database: Pick<DatabaseHandle, 'close'>;
};

export async function closeInOrder({ app, ctx, jobs, rateLimitRedis, composerAccess, database }: ClosingParts) {
  // Running jobs finish (or go back to the queue for another process) while the database is still open.
  await jobs.close();
  await ctx.realtime.close();
  await app.close();
  // Downloads answered before their count (those without a limit) are counted before the database closes.
  await ctx.downloadCounter.flush();
  rateLimitRedis?.disconnect();
  await ctx.svgSanitizer.close();
  await composerAccess.close();
  await database.close();
}
