// The embedded database in a thread of its own (pglite-thread.ts starts it): PGlite runs each statement on the
// thread that calls it, so on the server's thread a long statement (an analytics query, 100 ms and more) or a sync's
// chain of them held every request that arrived meanwhile, warm Composer answers included (issue 34). Here the
// statements run beside the event loop, as PostgreSQL's do in their own process, and their answers come back as
// messages. This thread holds the one PGlite, which runs the statements one at a time in the order they came.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import type {
  PgliteThreadAnswer,
  PgliteThreadOptions,
  PgliteThreadRequest,
  SerializedDatabaseError,
} from './pglite-thread-protocol.js';

/**
 * The types drizzle's PGlite driver reads as text: timestamp, timestamptz, interval, date, and the arrays of numeric,
 * timestamp, timestamptz, interval and date (PGlite would otherwise parse those arrays into JavaScript arrays).
 * drizzle hands these parsers to every query (drizzle-orm/pglite/session.js), as functions that cannot cross to this
 * thread: the client's own are set to the same once.
 */
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231,
  1115,
  1185,
  1187,
  1182,
];

const keepText = (value: string) => value;

/** The fields of PostgreSQL's error that travel: an Error loses its own properties on the way between threads. */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'where',
  'routine',
] as const;

function serializeError(error: unknown): SerializedDatabaseError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string> = {};
  for (const field of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string') fields[field] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** Stops listening to each channel, by name. */
const unlisteners = new Map<string, () => Promise<void>>();

async function answer(client: PGlite, request: PgliteThreadRequest, port: MessagePort): Promise<unknown> {
  switch (request.op) {
    case 'query':
      return client.query(request.text, request.params, request.rowMode ? { rowMode: request.rowMode } : undefined);
    case 'exec':
      return client.exec(request.text);
    case 'dump':
      return client.dumpDataDir(request.compression);
    case 'listen': {
      if (unlisteners.has(request.channel)) return undefined;
      const { channel } = request;
      // A listening session receives its own transaction's notifications before its COMMIT returns: posted before
      // the statement's answer, they reach the server's thread in that order (database-types.ts).
      unlisteners.set(
        channel,
        await client.listen(channel, (notification) => port.postMessage({ channel, notification })),
      );
      return undefined;
    }
    case 'unlisten': {
      const unlisten = unlisteners.get(request.channel);
      unlisteners.delete(request.channel);
      await unlisten?.();
      return undefined;
    }
    case 'close':
      if (!client.closed) await client.close();
      return undefined;
  }
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('pglite-thread.worker runs in a worker thread');
  const options = workerData as PgliteThreadOptions;
  let client: PGlite;
  try {
    client = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      startParams: options.startParams,
    });
    await client.waitReady;
    // PGlite sets the parsers of array types while it starts, over any given before.
    for (const type of DRIZZLE_TEXT_TYPES) client.parsers[type] = keepText;
  } catch (error) {
    port.postMessage({ failed: serializeError(error) } satisfies PgliteThreadAnswer);
    return;
  }
  // Several may be here at once (the server's thread sends statements outside a transaction as they are asked): PGlite's
  // own lock runs them one at a time, in the order they came, and a transaction's only once those before it answered.
  port.on('message', (request: PgliteThreadRequest) => {
    const fail = (error: unknown) =>
      port.postMessage({ id: request.id, error: serializeError(error) } satisfies PgliteThreadAnswer);
    answer(client, request, port).then((result) => {
      // A value that cannot be copied to the other thread fails its statement, not the thread.
      try {
        port.postMessage({ id: request.id, result } satisfies PgliteThreadAnswer);
      } catch (error) {
        fail(error);
      }
    }, fail);
  });
  port.postMessage({ ready: true } satisfies PgliteThreadAnswer);
}

await main();
