import type { ComposerErrorBody } from '../../../contract/composer.js';
import { errorBody } from '../../http/errors.js';
import type { ErrorFacts } from '../../lib/app-error.js';

// What the Composer doors send with a successful answer, shared by the routes (composer.routes.ts) and the warm fast
// path (composer-fast-path.ts) so that both answer with the same bytes and headers.

// Composer prints `warnings` from a JSON error body only when Content-Type is exactly application/json
// (CurlDownloader, HttpDownloader::outputWarnings). Fastify appends a charset to a JSON type whenever the payload
// is a string, so bodies go out as Buffers of serialized JSON.
export const JSON_TYPE = 'application/json';

export function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

/**
 * The security headers of every Composer answer, in place of helmet's (security-headers.ts). These doors answer JSON
 * and zips to a command-line client, never a page a browser renders, so helmet's document headers (a CSP written for
 * the app's pages, framing, referrer, DNS prefetch, cross-origin isolation: eleven lines) protect nothing here, and
 * they were most of the bytes and header validation of a warm answer: with them a bare Node.js server answering
 * packages.json's 173 bytes spent 20 µs of CPU per request and autocannon got 18,000 req/s from it, without them
 * 13.5 µs and 30,000 (issue 10). What matters for such answers stays, stricter than before, as OWASP's REST
 * cheat sheet advises: no sniffing, a CSP that allows nothing (no framing either), and HSTS under https.
 */
export function composerSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const hsts = documentHeaders['strict-transport-security'];
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    ...(hsts === undefined ? {} : { 'strict-transport-security': hsts }),
  };
}

/** packages.json has no Last-Modified: the answer depends on the clock (warnings, expiries), so Composer asks anew. */
export const PACKAGES_JSON_HEADERS = {
  'content-type': JSON_TYPE,
  'cache-control': 'private, no-cache',
  vary: 'Authorization',
} as const;

/** A p2 file's validators, on its 200 and its 304. */
export function metadataHeaders(lastModified: Date): Record<string, string> {
  return {
    'last-modified': lastModified.toUTCString(),
    'cache-control': 'private, no-cache',
    vary: 'Authorization, Accept-Encoding',
  };
}

/** Whether the client takes gzip: named in Accept-Encoding and not refused with q=0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (
    acceptEncoding !== undefined &&
    /\bgzip\b/i.test(acceptEncoding) &&
    !/\bgzip\s*;\s*q=0(?:\.0*)?\b/i.test(acceptEncoding)
  );
}

/** A refusal as Composer is told it: status, headers, body, and the status line Composer prints. */
export type ComposerErrorAnswer = {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Set unless quiet: non-interactive Composer prints only the status line of a refused download. */
  statusMessage?: string;
};

/**
 * The API's error shape, plus the message as a Composer warning so that the license holder's terminal shows it; a
 * quiet answer (an unlicensed p2 file: a plain, fast 404) carries neither the warning nor the status line.
 */
export function composerErrorAnswer(error: ErrorFacts, isQuiet: boolean, requestId?: string): ComposerErrorAnswer {
  const body: ComposerErrorBody = errorBody(error);
  // Routes answered by Fastify get it from its onSend hook (http/request-id.ts); the fast path passes it.
  if (requestId !== undefined) body.requestId = requestId;
  if (!isQuiet) {
    const text = error.suggestion ? `${error.message} ${error.suggestion}` : error.message;
    body.warnings = [{ message: text, versions: '*' }];
  }
  return {
    status: error.status,
    headers: { ...error.headers, 'content-type': JSON_TYPE, 'cache-control': 'no-store' },
    body: jsonBytes(body),
    // A reason phrase is free text in HTTP/1.1; printable ASCII only.
    ...(isQuiet ? {} : { statusMessage: error.message.replace(/[^\x20-\x7e]/g, '?').slice(0, 200) }),
  };
}
