import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type {
  PgliteThreadAnswer,
  PgliteThreadCommand,
  PgliteThreadOptions,
  PgliteThreadRequest,
  SerializedDatabaseError,
} from './pglite-thread-protocol.js';

// The server's side of the embedded database's thread (pglite-thread.worker.ts): the part of PGlite's client that
// drizzle, the migrator, the template dump and the server use, each statement a message to the thread and its
// answer one back. While a statement runs there, the event loop here goes on answering requests.

/** What drizzle's PGlite driver and the server call on a client or a transaction. */
export type PgliteThreadTransaction = {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Array<Results>>;
  rollback(): Promise<void>;
  readonly closed: boolean;
};

export type PgliteThreadClient = Omit<PgliteThreadTransaction, 'rollback'> & {
  transaction<R>(callback: (tx: PgliteThreadTransaction) => Promise<R>): Promise<R>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
  /**
   * Calls `onNotification` with each NOTIFY payload on `channel` from now on, those of this session's own transaction
   * before its COMMIT's answer; answers the way to stop. One listener per channel.
   */
  listen(channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  readonly ready: boolean;
};

/** An error of the database's as the server's code reads it: PostgreSQL's fields on an Error (pg-errors.ts). */
function databaseError(serialized: SerializedDatabaseError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  return error;
}

/**
 * Where the thread's code is: the build (scripts/build-server.mjs) compiles it to `pglite-thread.worker.js` beside the
 * server's own files; from the TypeScript sources (tsx, vitest) a small module registers tsx in the thread first.
 */
function workerFilename(): URL {
  const isSource = import.meta.url.endsWith('.ts');
  return new URL(isSource ? './pglite-thread.worker-from-source.mjs' : './pglite-thread.worker.js', import.meta.url);
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/** How the thread runs, apart from what it opens. */
export type PgliteThreadSettings = {
  /**
   * Called once if the thread ends other than by `close()` (a WebAssembly abort, its heap over its limit) after it was
   * ready: what waited has failed, and the client refuses from now on (pglite-restarts.ts opens a new one).
   */
  onEnded?(error: Error): void;
  /** The old generation's limit of the thread's heap (V8's default, a share of the machine's memory, otherwise). */
  maxOldGenerationSizeMb?: number;
};

/** Starts the thread, opens PGlite in it and answers once it is ready (or rejects with PGlite's own error). */
export async function openPgliteThread(
  options: PgliteThreadOptions,
  settings: PgliteThreadSettings = {},
): Promise<PgliteThreadClient> {
  // The thread's objects are a statement's rows and PGlite's own, short-lived: with a young generation of 8 MB its
  // heap was 24 MB committed after start-up, with V8's default 33 MB (v8.getHeapStatistics() read in the thread).
  const worker = new Worker(workerFilename(), {
    workerData: options,
    resourceLimits: {
      maxYoungGenerationSizeMb: 8,
      ...(settings.maxOldGenerationSizeMb ? { maxOldGenerationSizeMb: settings.maxOldGenerationSizeMb } : {}),
    },
    // Not the process's own: a module preloaded with `--import` (the door bench's bare server) would run again here.
    execArgv: [],
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  /** Set once close() is asked: the thread's end is then the one asked for. */
  let closing = false;
  let ready: Pending | undefined;
  const listeners = new Map<string, (payload: string) => void>();
  const opened = new Promise<void>((resolve, reject) => {
    ready = { resolve: () => resolve(), reject };
  });

  const settle = (id: number): Pending | undefined => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiting;
  };
  const failAll = (error: Error) => {
    const endedByItself = !closed && !closing && !ready;
    closed = true;
    ready?.reject(error);
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
    if (endedByItself) settings.onEnded?.(error);
  };

  worker.on('message', (message: PgliteThreadAnswer) => {
    if ('notification' in message) listeners.get(message.channel)?.(message.notification);
    else if ('ready' in message) ready?.resolve(undefined);
    else if ('failed' in message) failAll(databaseError(message.failed));
    else if ('error' in message) settle(message.id)?.reject(databaseError(message.error));
    else settle(message.id)?.resolve(message.result);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`The embedded database's thread ended (exit code ${code}).`)));

  const send = <T>(command: PgliteThreadCommand): Promise<T> => {
    if (closed) return Promise.reject(new Error('The embedded database is closed.'));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...command, id } satisfies PgliteThreadRequest);
    });
  };
  // drizzle's parsers are functions, which cannot cross to the thread; the thread's client has the same set.
  const query = <T>(text: string, params?: unknown[], queryOptions?: QueryOptions) =>
    send<Results<T>>({ op: 'query', text, params, rowMode: queryOptions?.rowMode });
  const exec = (text: string) => send<Array<Results>>({ op: 'exec', text });

  // PGlite is one session: a transaction's statements must not interleave with anyone else's. Statements outside a
  // transaction go to the thread at once while no transaction is open or waiting, several on their way together (the
  // thread's PGlite runs them in the order they came, and keeps busy instead of waiting a message's way for each). A
  // transaction, and the few other commands that need the session alone, wait until everything asked before them has
  // its answer; whatever is asked meanwhile waits for their end.
  const ignore = () => undefined;
  /** Settles once the last command asked for alone has ended. */
  let aloneEnded: Promise<unknown> = Promise.resolve();
  let aloneCount = 0;
  const unanswered = new Set<Promise<unknown>>();
  const together = <R>(work: () => Promise<R>): Promise<R> => {
    const run = aloneCount === 0 ? work() : aloneEnded.then(work, work);
    const settled = run.then(ignore, ignore);
    unanswered.add(settled);
    void settled.then(() => unanswered.delete(settled));
    return run;
  };
  const alone = <R>(work: () => Promise<R>): Promise<R> => {
    aloneCount++;
    // Those asked before it, taken now: what is asked from here on waits for it.
    const askedBefore = [...unanswered];
    const run = aloneEnded
      .then(() => Promise.all(askedBefore))
      .then(work)
      .finally(() => {
        aloneCount--;
      });
    aloneEnded = run.then(ignore, ignore);
    return run;
  };

  const transaction = <R>(callback: (tx: PgliteThreadTransaction) => Promise<R>): Promise<R> =>
    alone(async () => {
      let ended = false;
      const tx: PgliteThreadTransaction = {
        query,
        exec,
        async rollback() {
          await exec('ROLLBACK');
          ended = true;
        },
        get closed() {
          return ended || closed;
        },
      };
      await exec('BEGIN');
      try {
        const result = await callback(tx);
        if (!ended) await exec('COMMIT');
        return result;
      } catch (error) {
        if (!ended) await exec('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        ended = true;
      }
    });

  try {
    await opened;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  ready = undefined;
  // From here the thread keeps the process alive only while a statement waits for it, as PGlite on the server's thread
  // did not at all: a script that forgets to close its database still ends.
  if (pending.size === 0) worker.unref();

  return {
    query: (text, params, queryOptions) => together(() => query(text, params, queryOptions)),
    exec: (text) => together(() => exec(text)),
    transaction,
    dumpDataDir: (compression = 'none') => alone(() => send<Blob>({ op: 'dump', compression })),
    async listen(channel, onNotification) {
      if (listeners.has(channel)) throw new Error(`Something listens to ${channel} already.`);
      listeners.set(channel, onNotification);
      try {
        await together(() => send({ op: 'listen', channel }));
      } catch (error) {
        listeners.delete(channel);
        throw error;
      }
      return async () => {
        if (listeners.get(channel) !== onNotification) return;
        listeners.delete(channel);
        if (!closed) await together(() => send({ op: 'unlisten', channel }));
      };
    },
    async close() {
      if (closed) return;
      closing = true;
      await alone(() => send({ op: 'close' }));
      closed = true;
      await worker.terminate();
    },
    get closed() {
      return closed;
    },
    get ready() {
      return !closed;
    },
  };
}
