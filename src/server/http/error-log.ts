import { DrizzleQueryError } from 'drizzle-orm';

// Errors reach the log through pino's `err` (and `error`) keys. A failed Drizzle query carries the SQL's parameters
// in its message, its stack and a `params` field: e-mail addresses, token hashes, whatever a caller sent. The log
// keeps the SQL text and the database's own code and message, never the values.

const MAX_CAUSE_DEPTH = 3;
// Fields of a PostgreSQL error that name the problem without quoting data (`detail` quotes the offending values).
const SAFE_DATABASE_FIELDS = ['severity', 'constraint', 'table', 'column', 'routine'] as const;

export type LoggedError = {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  statusCode?: unknown;
  cause?: LoggedError | unknown;
  [field: string]: unknown;
};

function withoutParameters(error: Error): string {
  return error instanceof DrizzleQueryError ? `Failed query: ${error.query}` : error.message;
}

/** The stack's frames under a header with the (redacted) message: V8 puts the full message in the stack too. */
function redactedStack(error: Error, message: string): string | undefined {
  if (!error.stack) return undefined;
  const frames = error.stack.split('\n').filter((line) => line.trimStart().startsWith('at '));
  return [`${error.name}: ${message}`, ...frames].join('\n');
}

/** pino serializer for errors: everything a reader needs to find the bug, no query parameters. */
export function serializeErrorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const message = withoutParameters(error);
  const record = error as Error & Record<string, unknown>;
  const logged: LoggedError = { type: error.constructor?.name ?? error.name, message };
  const stack = redactedStack(error, message);
  if (stack) logged.stack = stack;
  if (record.code !== undefined) logged.code = record.code;
  if (record.statusCode !== undefined) logged.statusCode = record.statusCode;
  for (const field of SAFE_DATABASE_FIELDS) {
    if (typeof record[field] === 'string') logged[field] = record[field];
  }
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) logged.cause = serializeErrorForLog(error.cause, depth + 1);
  return logged;
}
