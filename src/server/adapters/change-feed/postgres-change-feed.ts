import type pg from 'pg';

// One dedicated PostgreSQL connection that LISTENs to a channel for as long as the process runs: how a process
// learns of the writes of the other processes sharing the database. It says when it is listening and when it is not
// (the connection ended, failed, or stopped answering its heartbeat), so that its user trusts what it holds only
// while every announcement can reach it; it reconnects by itself.

export type ChangeFeedEvents = {
  onNotification(payload: string): void;
  /** The feed stopped listening: announcements may be missed from now on. */
  onLost(): void;
  /** The feed listens (again). Announcements made while it did not are unknown. */
  onLive(): void;
  /** The listening connection answered its heartbeat after this many milliseconds (its lag, for metrics). */
  onHeartbeat?(roundTripMs: number): void;
};

export type ChangeFeed = { readonly isLive: boolean; close(): Promise<void> };

export type ChangeFeedLog = { warn(object: object, message: string): void; info(message: string): void };

/** Seen in pg_stat_activity, so that an operator (or a test) can tell the feed's connection from the pool's. */
export const CHANGE_FEED_APPLICATION_NAME = 'packgate-change-feed';

export function startPostgresChangeFeed(options: {
  url: string;
  channel: string;
  events: ChangeFeedEvents;
  log: ChangeFeedLog;
  /** How often the connection must prove it is alive (a silent network loss sends no error). */
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
}): ChangeFeed {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 3_000;
  let client: pg.Client | undefined;
  let isLive = false;
  let isClosed = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let hasBeenLive = false;

  const lose = (lost: pg.Client, reason: unknown) => {
    if (lost !== client) return;
    client = undefined;
    if (isLive) {
      isLive = false;
      options.events.onLost();
      if (!isClosed)
        options.log.warn({ err: reason }, 'change feed lost: answering from the database until it is back');
    }
    lost.removeAllListeners('notification');
    lost.end().catch(() => undefined);
    scheduleConnect();
  };

  const scheduleConnect = () => {
    if (isClosed || reconnectTimer) return;
    // 50 ms, 100 ms, ... up to 5 s between attempts.
    const delay = Math.min(5_000, 50 * 2 ** Math.min(failures, 7));
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, delay);
    reconnectTimer.unref();
  };

  const connect = async () => {
    if (isClosed) return;
    // node-postgres is loaded with the first connection: a process on PGlite never starts a feed and never needs it.
    const { Client } = (await import('pg')).default;
    if (isClosed) return;
    const next = new Client({
      connectionString: options.url,
      application_name: CHANGE_FEED_APPLICATION_NAME,
      keepAlive: true,
    });
    client = next;
    next.on('notification', (message) => {
      if (message.channel === options.channel) options.events.onNotification(message.payload ?? '');
    });
    next.on('error', (error) => lose(next, error));
    next.on('end', () => lose(next, new Error('connection ended')));
    try {
      await next.connect();
      await next.query(`LISTEN ${options.channel}`);
    } catch (error) {
      failures++;
      lose(next, error);
      return;
    }
    if (client !== next || isClosed) return;
    failures = 0;
    isLive = true;
    options.events.onLive();
    if (hasBeenLive) options.log.info('change feed listening again');
    hasBeenLive = true;
  };

  const heartbeat = setInterval(() => {
    const current = client;
    if (!current || !isLive) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('heartbeat timed out')), heartbeatTimeoutMs);
    });
    const startedAt = performance.now();
    Promise.race([current.query('select 1'), timeout])
      .then(() => options.events.onHeartbeat?.(performance.now() - startedAt))
      .catch((error: unknown) => lose(current, error))
      .finally(() => clearTimeout(timer));
  }, heartbeatMs);
  heartbeat.unref();

  void connect();

  return {
    get isLive() {
      return isLive;
    },
    async close() {
      isClosed = true;
      clearInterval(heartbeat);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = client;
      client = undefined;
      isLive = false;
      if (current) {
        current.removeAllListeners('notification');
        await current.end().catch(() => undefined);
      }
    },
  };
}
