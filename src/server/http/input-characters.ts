import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

// PostgreSQL's text cannot hold NUL, and a lone UTF-16 surrogate has no UTF-8 form: either fails the query that
// carries it, as a 500. No text of this product holds such characters, so they are refused here, once for every
// route, with a 400 before any handler runs. Checked after the guards and the schema validation (preHandler), so
// the order stays: who the caller is, whether they may, whether the input is valid.

// NUL and the C0 controls other than tab, line feed and carriage return, which multi-line text (descriptions,
// notes) may hold, and lone surrogates (\p{Cs} under the u flag). A single character class: linear.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\p{Cs}]/u;
// Path segments and query values are names, ids and filters: no control character at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN_IN_NAMES = /[\u0000-\u001F\u007F\p{Cs}]/u;

/** Whether any string in the value (keys included) holds a forbidden character; iterative, for deep nesting. */
export function hasForbiddenCharacters(value: unknown, forbidden: RegExp = FORBIDDEN_IN_TEXT): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (forbidden.test(item)) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object' && isRecord(item)) {
      for (const [key, element] of Object.entries(item)) {
        if (forbidden.test(key)) return true;
        pending.push(element);
      }
    }
  }
  return false;
}

// Buffers (webhooks' raw bodies, uploads) and streams are not text. Parsed JSON and query strings are records
// (the query parser's have a prototype of their own, so no prototype test).
function isRecord(value: object): boolean {
  return !ArrayBuffer.isView(value) && typeof (value as { pipe?: unknown }).pipe !== 'function';
}

function refusalFor(request: FastifyRequest): AppError | undefined {
  const where = hasForbiddenCharacters(request.params, FORBIDDEN_IN_NAMES)
    ? 'path'
    : hasForbiddenCharacters(request.query, FORBIDDEN_IN_NAMES)
      ? 'query string'
      : hasForbiddenCharacters(request.body)
        ? 'body'
        : undefined;
  if (!where) return undefined;
  return new AppError('BAD_REQUEST', `The request's ${where} holds a NUL byte or another control character.`, {
    suggestion: 'Remove control characters from the text and send it again.',
  });
}

export function registerInputCharacterCheck(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const refusal = refusalFor(request);
    if (refusal) throw refusal;
  });
}
