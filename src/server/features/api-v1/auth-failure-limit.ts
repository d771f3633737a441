import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { API_V1_AUTH_FAILURE_LIMIT } from '../../../contract/developer.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { clientLimitSubject } from '../../lib/client-network.js';

// Failed authentications per client address on /api/v1 (issue 28). The per-token limit (rate-limit.ts) counts by
// the token sent, so a guesser sending a new token each time was never slowed. Here every refused token counts
// against the address it came from (request.ip: the socket's address, or X-Forwarded-For only through the proxies
// TRUST_PROXY names; an IPv6 client by its /64). Past the limit the address is refused before its token is even
// looked at, valid tokens included: answering a valid token would tell a guesser which guess was right. A missing
// token is not a guess and does not count (the per-address request limit covers it); a success does not wipe the
// count, or a guesser could interleave a token of its own.
//
// Fixed windows of the app's clock (so tests move time, not wait for it): the count lives in Redis when REDIS_URL
// is set (every process sees every failure), in process otherwise, and in process too while Redis is unreachable.

const { max: MAX_FAILURES, windowMs: WINDOW_MS } = API_V1_AUTH_FAILURE_LIMIT;
const REDIS_KEY_PREFIX = 'packgate-api-v1-auth-failures:';
/** The in-process count holds at most this many addresses per window; beyond, new addresses go uncounted. */
const MAX_LOCAL_SUBJECTS = 50_000;

type FailureCounts = {
  /** Failures of `subject` in window number `window`. */
  get(subject: string, window: number): Promise<number>;
  /** Counts one more failure and answers the new total. */
  increment(subject: string, window: number): Promise<number>;
};

/** The current window's counts, in this process: an older window's are dropped when a new one starts. */
function localCounts(): FailureCounts {
  let current = { window: -1, counts: new Map<string, number>() };
  const countsOf = (window: number) => {
    if (window !== current.window) current = { window, counts: new Map() };
    return current.counts;
  };
  return {
    async get(subject, window) {
      return window === current.window ? (current.counts.get(subject) ?? 0) : 0;
    },
    async increment(subject, window) {
      const counts = countsOf(window);
      const total = (counts.get(subject) ?? 0) + 1;
      if (counts.has(subject) || counts.size < MAX_LOCAL_SUBJECTS) counts.set(subject, total);
      return total;
    },
  };
}

/** Counts shared by every process through Redis; each key outlives its window by one window, then Redis drops it. */
type WarningLog = Pick<AppContext['log'], 'warn'>;

function redisCounts(redis: Redis, fallback: FailureCounts, log: WarningLog): FailureCounts {
  const keyOf = (subject: string, window: number) => `${REDIS_KEY_PREFIX}${window}:${subject}`;
  const unavailable = (error: unknown) =>
    log.warn({ err: error }, 'API v1 failed-authentication count: Redis unavailable');
  return {
    async get(subject, window) {
      try {
        return Number((await redis.get(keyOf(subject, window))) ?? 0);
      } catch (error) {
        unavailable(error);
        return fallback.get(subject, window);
      }
    },
    async increment(subject, window) {
      const key = keyOf(subject, window);
      try {
        const results = await redis
          .multi()
          .incr(key)
          .pexpire(key, 2 * WINDOW_MS)
          .exec();
        const [incrError, total] = results?.[0] ?? [new Error('no answer to INCR')];
        if (incrError) throw incrError;
        return Number(total);
      } catch (error) {
        unavailable(error);
        return fallback.increment(subject, window);
      }
    },
  };
}

export type AuthFailureLimiter = {
  /** Throws 429 (with Retry-After) while the request's address is past its failed authentications. */
  check(request: FastifyRequest): Promise<void>;
  /** Counts a refused token against the request's address. */
  recordFailure(request: FastifyRequest): Promise<void>;
};

export function createAuthFailureLimiter(
  ctx: Pick<AppContext, 'clock'> & { log: WarningLog },
  options: { redis?: Redis; exempt?: (request: FastifyRequest) => boolean } = {},
): AuthFailureLimiter {
  const local = localCounts();
  const counts = options.redis ? redisCounts(options.redis, local, ctx.log) : local;
  const isExempt = (request: FastifyRequest) => options.exempt?.(request) ?? false;
  return {
    async check(request) {
      if (isExempt(request)) return;
      const now = ctx.clock.now().getTime();
      const window = Math.floor(now / WINDOW_MS);
      if ((await counts.get(clientLimitSubject(request.ip), window)) < MAX_FAILURES) return;
      throw tooManyFailures(Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000)));
    },
    async recordFailure(request) {
      if (isExempt(request)) return;
      await counts.increment(clientLimitSubject(request.ip), Math.floor(ctx.clock.now().getTime() / WINDOW_MS));
    },
  };
}

function tooManyFailures(retryAfterSeconds: number): AppError {
  const minutes = WINDOW_MS / 60_000;
  return new AppError(
    'RATE_LIMITED',
    `Too many failed authentications from your address: after ${MAX_FAILURES} refused API tokens in ${minutes} minutes, ` +
      'its requests are refused, whatever token they carry, until the window ends.',
    {
      title: 'Too Many Failed Authentications',
      suggestion: `Check the API token your system sends (create one on /api-tokens), then try again in ${retryAfterSeconds} seconds.`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    },
  );
}
