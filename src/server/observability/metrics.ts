import { sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.js';

// The product's metrics in Prometheus' text format (issue 35), served at /metrics (http/operations.ts). One registry
// per app: tests start several apps in one process, and prom-client's global registry would mix (and refuse) their
// families. Node's default metrics (heap, resident memory, event-loop delay, GC) sit beside the product's
// `packgate_...` families. The HTTP answers, counted at every request, are plain numbers in a series bound once per
// route and status (requestSeries below), read into /metrics only when scraped; what is cheap to read when scraped
// (queue depth, pool, cache size) is read then too, in a `collect` callback, and costs nothing in between.

/** Latency buckets in seconds: from the warm Composer door (tens of microseconds) to a slow page (seconds). */
const HTTP_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** Requests that matched no route: one label, so that scanners cannot grow the series without bound. */
const UNMATCHED_ROUTE = '(unmatched)';

/**
 * One route and status's answers, bound once: `observe` adds one answer and its seconds to plain numbers. A
 * prom-client child (`labels(...)` held) hashed and checked its labels at every call, 12 to 15 µs of CPU per warm
 * Composer answer on the bench's machine (issue 34); these numbers are read into the two families when scraped.
 */
export type BoundRequest = { observe(seconds: number): void };

type RequestSeries = BoundRequest & {
  labels: { route: string; status: string };
  count: number;
  sum: number;
  /** Answers per bucket, not cumulative: bucket i holds those above HTTP_BUCKETS[i - 1], up to HTTP_BUCKETS[i]. */
  buckets: Float64Array;
};

function requestSeries(route: string, status: number): RequestSeries {
  const series: RequestSeries = {
    labels: { route, status: String(status) },
    count: 0,
    sum: 0,
    buckets: new Float64Array(HTTP_BUCKETS.length),
    observe(seconds) {
      series.count++;
      series.sum += seconds;
      for (let index = 0; index < HTTP_BUCKETS.length; index++) {
        if (seconds <= HTTP_BUCKETS[index]!) {
          series.buckets[index]!++;
          return;
        }
      }
    },
  };
  return series;
}

type MetricValue = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * A family read from the request series when scraped, in the shape prom-client's registry prints (its Counter's and
 * Histogram's `get`): the registry takes any object with a name, a type and `get`.
 */
function registerRequestFamily(
  registry: Registry,
  family: { name: string; help: string; type: 'counter' | 'histogram' },
  values: () => MetricValue[],
): void {
  const metric = {
    ...family,
    aggregator: 'sum' as const,
    get: async () => ({ ...family, aggregator: 'sum' as const, values: values() }),
    reset() {},
  };
  registry.registerMetric(metric as unknown as Counter);
}

export type JobAttemptOutcome = 'completed' | 'retry' | 'failed';

/** What the app reads when scraped; each is optional where the deployment has no such thing. */
export type MetricsSources = {
  db: Database;
  /** Connections of the database pool (PostgreSQL); PGlite is one in-process session. */
  poolStats: () => { total: number; idle: number; waiting: number; max: number };
  composerCache: () => { hits: number; misses: number; heldBytes: number; maxBytes: number };
  accessFeed: () => { isListening: boolean; reconnects: number; lagSeconds: number };
};

export type Metrics = {
  registry: Registry;
  /** The series of one route label and status, for a door that answers before Fastify (the Composer fast path). */
  bindRequest(route: string, status: number): BoundRequest;
  /** One answer of any route (Fastify's onResponse): the route's pattern, never the raw URL. */
  observeRequest(route: string | undefined, status: number, seconds: number): void;
  jobAttemptEnded(kind: string, outcome: JobAttemptOutcome, seconds: number): void;
  syncEnded(outcome: 'ready' | 'failed'): void;
  webhookAttempted(outcome: 'delivered' | 'failed'): void;
  mailAttempted(outcome: 'sent' | 'failed'): void;
  requestShed(pressure: string): void;
  /** Reads the sources on every scrape from now on (called once the app has them). */
  attach(sources: MetricsSources): void;
};

/** A counter whose total lives elsewhere (a plain number in a hot class): the difference is added when scraped. */
function followingCounter(registry: Registry, name: string, help: string, read: () => number | undefined): Counter {
  let reported = 0;
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const total = read();
      if (total === undefined || total < reported) return;
      this.inc(total - reported);
      reported = total;
    },
  });
}

/**
 * A gauge by one label whose values are read when scraped: `read` answers each label value's number, or undefined
 * while there is nothing to read (the series then keep what they showed last).
 */
function scrapedGauge(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Record<string, number> | undefined,
): Gauge {
  return new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      for (const [value, number] of Object.entries(read() ?? {})) this.labels(value).set(number);
    },
  });
}

/** A counter by outcome that shows every outcome from the start (at 0), so that a rate() sees the first one. */
function outcomeCounter(registry: Registry, name: string, help: string, outcomes: readonly string[]) {
  const counter = new Counter({ name, help, labelNames: ['outcome'] as const, registers: [registry] });
  for (const outcome of outcomes) counter.labels(outcome).inc(0);
  return counter;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let sources: MetricsSources | undefined;

  const bound = new Map<string, RequestSeries>();
  const bind = (route: string, status: number): RequestSeries => {
    const key = `${route} ${status}`;
    let series = bound.get(key);
    if (!series) {
      series = requestSeries(route, status);
      bound.set(key, series);
    }
    return series;
  };
  registerRequestFamily(
    registry,
    {
      name: 'packgate_http_requests_total',
      help: 'HTTP answers by route pattern (Composer doors as composer:*) and status.',
      type: 'counter',
    },
    () => [...bound.values()].map((series) => ({ labels: series.labels, value: series.count })),
  );
  const durationName = 'packgate_http_request_duration_seconds';
  registerRequestFamily(
    registry,
    {
      name: durationName,
      help: 'Time to answer an HTTP request, by route pattern and status.',
      type: 'histogram',
    },
    () =>
      [...bound.values()].flatMap((series) => {
        let cumulative = 0;
        const values: MetricValue[] = HTTP_BUCKETS.map((le, index) => {
          cumulative += series.buckets[index]!;
          return { labels: { ...series.labels, le }, value: cumulative, metricName: `${durationName}_bucket` };
        });
        values.push(
          { labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${durationName}_bucket` },
          { labels: series.labels, value: series.sum, metricName: `${durationName}_sum` },
          { labels: series.labels, value: series.count, metricName: `${durationName}_count` },
        );
        return values;
      }),
  );

  const jobAttempts = new Counter({
    name: 'packgate_job_attempts_total',
    help: 'Attempts of background jobs by kind and outcome (completed, retry: back in the queue, failed: for good).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'packgate_job_duration_seconds',
    help: 'Time of one job attempt, by kind.',
    labelNames: ['kind'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'packgate_jobs',
    help: 'Jobs in the queue of every process sharing the database, by kind and status (queued, running).',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      if (!sources) return;
      const result = (await sources.db.execute(
        sql`select kind, status, count(*)::int as count from jobs where status in ('queued', 'running') group by kind, status`,
      )) as unknown as { rows: { kind: string; status: string; count: number }[] };
      for (const row of result.rows) this.labels(row.kind, row.status).set(Number(row.count));
    },
  });
  const syncs = outcomeCounter(
    registry,
    'packgate_package_syncs_total',
    'Package syncs from their code host by outcome (ready, failed).',
    ['ready', 'failed'],
  );
  const webhooks = outcomeCounter(
    registry,
    'packgate_webhook_deliveries_total',
    'Attempts to deliver an outgoing webhook by outcome (delivered: the endpoint answered 2xx; failed).',
    ['delivered', 'failed'],
  );
  const mails = outcomeCounter(
    registry,
    'packgate_emails_total',
    'E-mails handed to the mail transport by outcome (sent, failed: to be retried or given up).',
    ['sent', 'failed'],
  );
  const shed = new Counter({
    name: 'packgate_overload_shed_total',
    help: 'Requests answered 503 because the process was overloaded, by pressure (eventLoopDelay, heapUsedBytes, ...).',
    labelNames: ['pressure'] as const,
    registers: [registry],
  });

  scrapedGauge(
    registry,
    'packgate_db_pool_connections',
    'Database pool connections by state (total open, idle, waiting: requests waiting for one, max).',
    'state',
    () => {
      const stats = sources?.poolStats();
      return stats && { total: stats.total, idle: stats.idle, waiting: stats.waiting, max: stats.max };
    },
  );

  followingCounter(
    registry,
    'packgate_composer_cache_hits_total',
    "Composer requests whose token's view the warm path held.",
    () => sources?.composerCache().hits,
  );
  followingCounter(
    registry,
    'packgate_composer_cache_misses_total',
    "Composer requests whose token's view had to be read from the database.",
    () => sources?.composerCache().misses,
  );
  scrapedGauge(
    registry,
    'packgate_composer_cache_bytes',
    'Bytes the Composer warm path holds (as its bound counts them), and its bound (COMPOSER_CACHE_MAX_BYTES).',
    'kind',
    () => {
      const cache = sources?.composerCache();
      return cache && { held: cache.heldBytes, max: cache.maxBytes };
    },
  );

  new Gauge({
    name: 'packgate_access_feed_listening',
    help: '1 while the access change feed listens (PostgreSQL LISTEN): the warm Composer path answers only then.',
    registers: [registry],
    collect() {
      this.set(sources?.accessFeed().isListening ? 1 : 0);
    },
  });
  new Gauge({
    name: 'packgate_access_feed_lag_seconds',
    help: "Round trip of the access feed's last heartbeat on its listening connection: how late an announcement arrives at least (0 on PGlite, one session).",
    registers: [registry],
    collect() {
      this.set(sources?.accessFeed().lagSeconds ?? 0);
    },
  });
  followingCounter(
    registry,
    'packgate_access_feed_reconnects_total',
    'Times the access change feed listened again after losing its connection.',
    () => sources?.accessFeed().reconnects,
  );

  return {
    registry,
    bindRequest: bind,
    observeRequest(route, status, seconds) {
      bind(route ?? UNMATCHED_ROUTE, status).observe(seconds);
    },
    jobAttemptEnded(kind, outcome, seconds) {
      jobAttempts.labels(kind, outcome).inc();
      jobDuration.labels(kind).observe(seconds);
    },
    syncEnded: (outcome) => syncs.labels(outcome).inc(),
    webhookAttempted: (outcome) => webhooks.labels(outcome).inc(),
    mailAttempted: (outcome) => mails.labels(outcome).inc(),
    requestShed: (pressure) => shed.labels(pressure).inc(),
    attach(next) {
      sources = next;
    },
  };
}
