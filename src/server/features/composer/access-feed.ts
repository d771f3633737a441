import {
  type ChangeFeed,
  type ChangeFeedLog,
  startPostgresChangeFeed,
} from '../../adapters/change-feed/postgres-change-feed.js';
import type { DatabaseTarget, NotificationSubscription } from '../../db/client.js';
import { ACCESS_CHANNEL, ComposerAccessCache } from './access-cache.js';

// Wires the warm path's cache to the database's announcements (see access-cache.ts): every connection of the process
// delivers them (openDatabase's subscription), and on PostgreSQL a dedicated connection tells whether the feed from
// the other processes is alive.

export type ComposerAccess = {
  cache: ComposerAccessCache;
  /** Give to openDatabase: the process's own connections deliver the channel. */
  notifications: NotificationSubscription;
  /** Once the database is open: on PGlite the process is the only writer, on PostgreSQL the feed must listen first. */
  start(target: DatabaseTarget): void;
  /** For readiness and metrics: whether the feed listens, how often it listened again, its heartbeat's round trip. */
  status(): { isListening: boolean; reconnects: number; lagSeconds: number };
  close(): Promise<void>;
};

export function createComposerAccess(maxBytes: number, log: ChangeFeedLog): ComposerAccess {
  const cache = new ComposerAccessCache(maxBytes);
  let feed: ChangeFeed | undefined;
  let isListening = false;
  let lives = 0;
  let lagSeconds = 0;
  const onNotification = (payload: string) => cache.handleChange(payload);
  const onLost = () => {
    isListening = false;
    cache.handleFeedLost();
  };
  const onLive = () => {
    lives++;
    isListening = true;
    cache.handleFeedLive();
  };
  return {
    cache,
    // On PGlite also when its thread ended and a new one opens (db/pglite-restarts.ts): as when PostgreSQL's feed drops.
    notifications: { channel: ACCESS_CHANNEL, onNotification, onLost, onLive },
    start(target) {
      if (target.kind === 'pglite') {
        // One process, one session, listening since the database opened: nothing can be missed while its thread
        // lives, and a new thread's start is announced (onLive).
        onLive();
        return;
      }
      feed = startPostgresChangeFeed({
        url: target.url,
        channel: ACCESS_CHANNEL,
        log,
        events: {
          onNotification,
          onLost,
          onLive,
          onHeartbeat: (roundTripMs) => {
            lagSeconds = roundTripMs / 1000;
          },
        },
      });
    },
    status: () => ({ isListening, reconnects: Math.max(0, lives - 1), lagSeconds }),
    async close() {
      isListening = false;
      cache.handleFeedLost();
      await feed?.close();
    },
  };
}
