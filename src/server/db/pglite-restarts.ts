import {
  openPgliteThread,
  type PgliteThreadClient,
  type PgliteThreadSettings,
  type PgliteThreadTransaction,
} from './pglite-thread.js';
import type { PgliteThreadOptions } from './pglite-thread-protocol.js';

// A PGlite on a data folder whose thread opens again when it ends by itself (a WebAssembly abort, a statement whose
// rows outgrew the thread's heap), as PostgreSQL's server restarts after one of its processes crashed: the folder's
// write-ahead log keeps every committed transaction and drops the one in flight, and the server goes on without a
// restart of its own. What waited for the old thread fails; what is asked while the new one opens waits for it.

export type PgliteRestartEvents = {
  /** The thread ended: what waited failed, and notifications are unknown until `onRestarted`. */
  onLost(error: Error): void;
  /** A new thread answers, listening to the same channels. */
  onRestarted(): void;
  /** Opening the new thread failed; until the next attempt (after `retryInMs`) every statement fails at once. */
  onRestartFailed(error: Error, retryInMs: number): void;
};

/** The waits between attempts to open the thread again, the last one repeated. */
export const PGLITE_RESTART_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export async function openRestartingPgliteThread(
  options: PgliteThreadOptions & { dataDir: string },
  events: PgliteRestartEvents,
  settings: Omit<PgliteThreadSettings, 'onEnded'> = {},
): Promise<PgliteThreadClient> {
  /** What listens, by channel: a new thread listens to the same. */
  const listeners = new Map<string, (payload: string) => void>();
  const stops = new Map<string, () => Promise<void>>();
  let closed = false;
  /** While a new thread opens: the attempt in progress. */
  let replacing: Promise<PgliteThreadClient> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  /** The thread that answers (or the one that ended, while its replacement opens). */
  let current: PgliteThreadClient | undefined;

  // A folder that was loaded from a dump at first holds the data from then on: a new thread only opens it.
  const { loadDataDir: _loadedOnce, ...reopenOptions } = options;
  const openThread = async (threadOptions: PgliteThreadOptions): Promise<PgliteThreadClient> => {
    const thread: PgliteThreadClient = await openPgliteThread(threadOptions, {
      ...settings,
      // Only the thread that answers is replaced: one that ends while it is being opened fails its opening instead,
      // so that two threads never open the folder at once.
      onEnded: (error) => {
        if (thread === current) replaceThread(error);
      },
    });
    return thread;
  };

  const openListening = async (): Promise<PgliteThreadClient> => {
    const next = await openThread(reopenOptions);
    try {
      for (const [channel, onNotification] of listeners) stops.set(channel, await next.listen(channel, onNotification));
      // Its end is a message away: if it came meanwhile, this thread never answers (it becomes `current` in the same
      // turn as this check).
      if (next.closed) throw new Error("The embedded database's thread ended as it opened.");
    } catch (error) {
      await next.close().catch(() => undefined);
      throw error;
    }
    return next;
  };

  function replaceThread(error: Error, attempt = 0): void {
    if (closed) return;
    if (attempt === 0) events.onLost(error);
    const opening = openListening();
    replacing = opening;
    opening.then(
      async (next) => {
        replacing = undefined;
        if (closed) {
          await next.close();
          return;
        }
        current = next;
        events.onRestarted();
      },
      (failure: Error) => {
        replacing = undefined;
        if (closed) return;
        const retryInMs = PGLITE_RESTART_DELAYS_MS[Math.min(attempt, PGLITE_RESTART_DELAYS_MS.length - 1)] ?? 0;
        events.onRestartFailed(failure, retryInMs);
        retryTimer = setTimeout(() => replaceThread(failure, attempt + 1), retryInMs);
      },
    );
  }

  const first = await openThread(options);
  current = first;

  /** Runs `use` on the thread that answers now, or on the one opening. */
  const live = <R>(use: (client: PgliteThreadClient) => Promise<R>): Promise<R> =>
    replacing ? replacing.then(use) : use(current ?? first);

  return {
    query: (text, params, queryOptions) => live((client) => client.query(text, params, queryOptions)),
    exec: (text) => live((client) => client.exec(text)),
    transaction: <R>(callback: (tx: PgliteThreadTransaction) => Promise<R>) =>
      live((client) => client.transaction(callback)),
    dumpDataDir: (compression) => live((client) => client.dumpDataDir(compression)),
    async listen(channel, onNotification) {
      if (listeners.has(channel)) throw new Error(`Something listens to ${channel} already.`);
      // Registered once the thread listens: a thread opening meanwhile must not listen to it twice.
      const stop = await live((client) => client.listen(channel, onNotification));
      listeners.set(channel, onNotification);
      stops.set(channel, stop);
      return async () => {
        if (listeners.get(channel) !== onNotification) return;
        listeners.delete(channel);
        const stopThis = stops.get(channel);
        stops.delete(channel);
        await stopThis?.();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      await replacing?.catch(() => undefined);
      await current?.close();
    },
    /** Only once close() was asked: a thread that ended is being replaced. */
    get closed() {
      return closed;
    },
    get ready() {
      return !closed && !replacing && Boolean(current?.ready);
    },
  };
}
