// The messages between the server's thread (pglite-thread.ts) and the embedded database's (pglite-thread.worker.ts).

/** What the thread opens: PGlite's folder or dump, and its start parameters. */
export type PgliteThreadOptions = {
  dataDir?: string;
  loadDataDir?: Blob;
  startParams: string[];
};

/** What the server's thread asks of the database's. */
export type PgliteThreadCommand =
  | { op: 'query'; text: string; params?: unknown[]; rowMode?: 'array' | 'object' }
  | { op: 'exec'; text: string }
  | { op: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { op: 'listen' | 'unlisten'; channel: string }
  | { op: 'close' };

/** A command with the number its answer carries back. */
export type PgliteThreadRequest = PgliteThreadCommand & { id: number };

/** PostgreSQL's error as data (SQLSTATE `code`, `constraint` and the rest as PGlite reports them). */
export type SerializedDatabaseError = { name: string; message: string; fields: Record<string, string> };

export type PgliteThreadAnswer =
  | { ready: true }
  | { failed: SerializedDatabaseError }
  | { channel: string; notification: string }
  | { id: number; result: unknown }
  | { id: number; error: SerializedDatabaseError };
