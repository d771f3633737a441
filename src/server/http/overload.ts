import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256Hex } from '../lib/crypto.js';
import { AppError } from './errors.js';

// Under overload the server answers 503 with Retry-After at once rather than queueing work it cannot finish
// (@fastify/under-pressure measures the event loop and the heap). Composer clients that this process has already
// served keep priority: a license holder's `composer install` in flight is worth more than a new page view, and
// Composer gives up on a repository that fails mid-install.

const RETRY_AFTER_SECONDS = 10;
// Past this share of V8's heap limit the collector runs without end and the process is about to die.
const MAX_HEAP_USED_SHARE = 0.9;
// Credentials remembered as authorized: bounded, and forgotten after a while so that a revoked token loses its
// priority too (revocation itself is checked by every request, priority or not).
const MAX_REMEMBERED_CREDENTIALS = 10_000;
const CREDENTIAL_PRIORITY_MS = 10 * 60_000;

/** An extra verdict under-pressure polls; tests force pressure with it, deterministically. */
export type PressureCheck = { isHealthy: () => Promise<boolean>; intervalMs: number };

/**
 * Authorization headers that recently got a Composer answer (2xx or 304) on a repository host, hashed. A request
 * carrying one of them is still authorized in full by its route; this only decides who is not shed.
 */
export class AuthorizedComposerCredentials {
  private readonly seenAt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(authorization: string): void {
    const key = sha256Hex(authorization);
    this.seenAt.delete(key);
    this.seenAt.set(key, this.now());
    if (this.seenAt.size > MAX_REMEMBERED_CREDENTIALS) {
      const oldest = this.seenAt.keys().next().value;
      if (oldest !== undefined) this.seenAt.delete(oldest);
    }
  }

  has(authorization: string): boolean {
    const key = sha256Hex(authorization);
    const seenAt = this.seenAt.get(key);
    if (seenAt === undefined) return false;
    if (this.now() - seenAt > CREDENTIAL_PRIORITY_MS) {
      this.seenAt.delete(key);
      return false;
    }
    return true;
  }
}

function isComposerRequest(request: FastifyRequest): boolean {
  return request.requestHost?.kind === 'repository' && typeof request.headers.authorization === 'string';
}

/** Registers the shedding; must come after the hosts hook (it reads requestHost) and before sessions load. */
export async function registerOverloadShedding(
  app: FastifyInstance,
  options: {
    /** The event loop's mean delay over a sample (a second) past which the process is stalled, not busy; 0: off. */
    maxEventLoopDelayMs: number;
    pressureCheck?: PressureCheck;
    /** Shared with the Composer fast path, which answers warm requests before these hooks run. */
    authorized: AuthorizedComposerCredentials;
    /** Told of every shed request and the pressure that shed it (the metrics at /metrics). */
    onShed?: (pressure: string) => void;
  },
): Promise<void> {
  const { authorized } = options;

  app.addHook('onResponse', async (request, reply) => {
    if (isComposerRequest(request) && reply.statusCode < 400) authorized.remember(request.headers.authorization!);
  });

  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs,
    maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * MAX_HEAP_USED_SHARE),
    ...(options.pressureCheck
      ? { healthCheck: options.pressureCheck.isHealthy, healthCheckInterval: options.pressureCheck.intervalMs }
      : {}),
    pressureHandler: async (request, _reply, type) => {
      if (isComposerRequest(request) && authorized.has(request.headers.authorization!)) return;
      request.log.debug({ pressure: type }, 'overloaded: request shed');
      options.onShed?.(type);
      throw new AppError('UNAVAILABLE', 'The server is busy right now. Please try again in a few seconds.', {
        suggestion: `Try again in ${RETRY_AFTER_SECONDS} seconds.`,
        headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
      });
    },
  });
}
