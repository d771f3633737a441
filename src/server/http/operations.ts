import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import type { Readiness, ReadinessChecks } from '../observability/readiness.js';
import { AppError, errorBody } from './errors.js';

// The doors of the people who run Packgate (issue 35): /metrics for Prometheus, /api/ready for a load balancer.
// /metrics tells how the business runs (request rates, jobs, e-mails): it answers only a scraper holding
// METRICS_TOKEN, or, without one, a request from this machine that no proxy forwarded (a proxy on the same machine
// would make every visitor look local). Never rate-limited: a scraper asks on its own schedule, and nothing here is
// a guess to slow down (the token is compared in constant time).

const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

const BEARER_PREFIX = 'bearer ';

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.');
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** Throws the refusal for a request that may not read the metrics. */
function authorizeScrape(request: FastifyRequest, metricsToken: string | undefined): void {
  if (metricsToken) {
    const authorization = request.headers.authorization;
    if (typeof authorization !== 'string' || !authorization.toLowerCase().startsWith(BEARER_PREFIX)) {
      throw new AppError('UNAUTHENTICATED', 'The metrics need the metrics token.', {
        suggestion: 'Send Authorization: Bearer <METRICS_TOKEN>.',
      });
    }
    // Hashed first, so that the comparison takes the same time whatever the length of the guess.
    const given = sha256(authorization.slice(BEARER_PREFIX.length).trim());
    if (!timingSafeEqual(given, sha256(metricsToken))) {
      throw new AppError('FORBIDDEN', 'This token does not open the metrics.', {
        suggestion: 'Send the METRICS_TOKEN the server was started with.',
      });
    }
    return;
  }
  const isForwarded = PROXY_HEADERS.some((name) => request.headers[name] !== undefined);
  // The socket's own peer, never an address a proxy header claims (TRUST_PROXY makes request.ip one of those).
  if (isForwarded || !isLoopbackAddress(request.raw.socket.remoteAddress)) {
    throw new AppError('FORBIDDEN', 'The metrics answer only this machine unless METRICS_TOKEN is set.', {
      suggestion: 'Scrape from the server itself, or set METRICS_TOKEN and send it as a bearer token.',
    });
  }
}

const failedCheckTexts: Record<keyof ReadinessChecks, string> = {
  database: 'the database does not answer',
  migrations: "the database's schema is not this code's (migrations not applied)",
  accessFeed: 'the access change feed does not listen',
  shutdown: 'the process is shutting down',
};

export async function operationsRoutes(
  app: FastifyInstance,
  options: { metrics: Metrics; readiness: Readiness; config: { metricsToken?: string } },
): Promise<void> {
  const { metrics, readiness, config } = options;

  app.get('/metrics', async (request, reply) => {
    authorizeScrape(request, config.metricsToken);
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });

  app.get('/api/ready', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const { isReady, checks } = await readiness.check();
    if (isReady) return { status: 'ready', checks };
    const failed = (Object.keys(checks) as (keyof ReadinessChecks)[]).filter((name) => checks[name] === 'failed');
    const error = new AppError(
      'UNAVAILABLE',
      `Not ready: ${failed.map((name) => failedCheckTexts[name]).join('; ')}.`,
      {
        suggestion: 'Send traffic to another process until this one answers 200.',
      },
    );
    return reply.status(503).send({ ...errorBody(error), checks });
  });
}
