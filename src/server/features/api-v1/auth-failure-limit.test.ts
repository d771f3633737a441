import { createServer } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { API_V1_AUTH_FAILURE_LIMIT } from '../../../contract/developer.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { createAuthFailureLimiter } from './auth-failure-limit.js';

const { max: MAX_FAILURES, windowMs: WINDOW_MS } = API_V1_AUTH_FAILURE_LIMIT;
const request = (ip: string) => ({ ip }) as FastifyRequest;

function clockAt(ms: number): Clock & { ms: number } {
  const clock = { ms, now: () => new Date(clock.ms) };
  return clock;
}

async function refusal(promise: Promise<void>): Promise<AppError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('createAuthFailureLimiter', () => {
  const warnings: string[] = [];
  const log = { warn: (_details: unknown, message?: string) => warnings.push(message ?? '') };

  it('refuses an address from its limit of failures to the end of the window, with the seconds left', async () => {
    const clock = clockAt(3 * WINDOW_MS + 1_500);
    const limiter = createAuthFailureLimiter({ clock, log });
    for (let index = 0; index < MAX_FAILURES; index++) {
      expect(await refusal(limiter.check(request('198.51.100.1')))).toBeUndefined();
      await limiter.recordFailure(request('198.51.100.1'));
    }
    const refused = await refusal(limiter.check(request('198.51.100.1')));
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    // 1.5 s into the window: 598.5 s left, rounded up.
    expect(refused?.headers).toEqual({ 'retry-after': String(WINDOW_MS / 1000 - 1) });
    expect(await refusal(limiter.check(request('198.51.100.2')))).toBeUndefined();
    clock.ms = 4 * WINDOW_MS;
    expect(await refusal(limiter.check(request('198.51.100.1')))).toBeUndefined();
  });

  it('lets exempt requests through uncounted', async () => {
    const limiter = createAuthFailureLimiter({ clock: clockAt(0), log }, { exempt: () => true });
    for (let index = 0; index <= MAX_FAILURES; index++) await limiter.recordFailure(request('198.51.100.3'));
    expect(await refusal(limiter.check(request('198.51.100.3')))).toBeUndefined();
  });

  describe('while Redis is unreachable', () => {
    // A port nothing answers on: bound, then closed.
    const closedPort = new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    let redis: Redis | undefined;

    afterAll(() => {
      redis?.disconnect();
    });

    it('counts in process instead of failing the request', async () => {
      redis = new Redis(await closedPort, '127.0.0.1', {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      redis.on('error', () => {});
      const limiter = createAuthFailureLimiter({ clock: clockAt(0), log }, { redis });
      for (let index = 0; index < MAX_FAILURES; index++) await limiter.recordFailure(request('198.51.100.4'));
      expect(await refusal(limiter.check(request('198.51.100.4')))).toMatchObject({ code: 'RATE_LIMITED' });
      expect(warnings).toContain('API v1 failed-authentication count: Redis unavailable');
    });
  });
});
