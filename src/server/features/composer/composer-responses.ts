import type { ComposerErrorBody } from '../../../contract/composer.js';
import { errorBody } from '../../http/errors.js';
import { headerLines } from '../../http/preformatted-head.js';
import type { ErrorFacts } from '../../lib/app-error.js';
import { createBoundedMemo } from '../../lib/bounded-memo.js';
import type { RenderedBody } from './access-cache.js';

// What the Composer doors send: composerAnswer turns what a door decided into status, headers and body, for the
// routes (composer.routes.ts) and the warm fast path (composer-fast-path.ts) alike, so that both answer with the same
// bytes and headers. Each door then writes the answer its own way (Fastify's reply, or the raw response).

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

/**
 * Header names and values in turn, as node:http's writeHead takes them: the routes' headers and the warm door's when
 * it cannot write its head as text (answerHeaders, answerLines). A list, not an object spread from a template and
 * given more keys: that got a new hidden class per answer, and node:http's for-in over it cost a bare node:http
 * server 37 µs of CPU per p2 answer against 29.7 with the same headers as a literal and 32.0 as a list (issue 34).
 */
export type HeaderList = string[];

/** The list as an object, for Fastify's reply and for reading one header. */
export function headerRecord(list: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < list.length; index += 2) record[list[index]!] = list[index + 1]!;
  return record;
}

function headerList(record: Record<string, string>): HeaderList {
  const list: HeaderList = [];
  for (const [name, value] of Object.entries(record)) list.push(name, value);
  return list;
}

/** packages.json has no Last-Modified: the answer depends on the clock (warnings, expiries), so Composer asks anew. */
const PACKAGES_JSON_HEADERS = {
  'content-type': JSON_TYPE,
  'cache-control': 'private, no-cache',
  vary: 'Authorization',
} as const;

/** A p2 file's validators, on its 200 and its 304; Last-Modified, the answer's own, is pushed on last. */
const METADATA_HEADERS = {
  'cache-control': 'private, no-cache',
  vary: 'Authorization, Accept-Encoding',
} as const;

/**
 * A kind of answer's headers: the list, and the same as header lines checked once (http/preformatted-head.ts: the
 * warm door writes them as they are), undefined when a header would be refused.
 */
export type AnswerHead = { readonly list: readonly string[]; readonly lines: string | undefined };

function answerHead(record: Record<string, string>): AnswerHead {
  const list = headerList(record);
  return Object.freeze({ list: Object.freeze(list), lines: headerLines(list) });
}

/** The headers of each kind of answer with a door's security headers, merged once per door. */
type AnswerHeads = {
  packagesJson: AnswerHead;
  notModified: AnswerHead;
  metadata: AnswerHead;
  gzippedMetadata: AnswerHead;
  quietRefusal: AnswerHead;
};

const headsByBase = new WeakMap<Record<string, string>, AnswerHeads>();

function headsOf(baseHeaders: Record<string, string>): AnswerHeads {
  let heads = headsByBase.get(baseHeaders);
  if (!heads) {
    const metadata = { ...baseHeaders, ...METADATA_HEADERS, 'content-type': JSON_TYPE };
    heads = {
      packagesJson: answerHead({ ...baseHeaders, ...PACKAGES_JSON_HEADERS }),
      notModified: answerHead({ ...baseHeaders, ...METADATA_HEADERS }),
      metadata: answerHead(metadata),
      gzippedMetadata: answerHead({ ...metadata, 'content-encoding': 'gzip' }),
      quietRefusal: answerHead(refusalHeaders(baseHeaders, undefined)),
    };
    headsByBase.set(baseHeaders, heads);
  }
  return heads;
}

/** Seconds whose HTTP date was formatted; a held p2 file's Last-Modified is the same few values, answer after answer. */
const httpDates = createBoundedMemo(1024, (second: number) => new Date(second * 1000).toUTCString());

/** `Fri, 20 Nov 2026 10:00:00 GMT` (whole seconds, as HTTP dates are), formatted once per second value. */
export function httpDate(date: Date): string {
  return httpDates.get(Math.floor(date.getTime() / 1000));
}

/**
 * Whether an Accept-Encoding takes gzip (named and not refused with q=0), for the few texts clients send lately: a
 * client sends the same one at every request, and the two tests would run at each (issue 34).
 */
const gzipAccepted = createBoundedMemo(
  64,
  (acceptEncoding: string) => /\bgzip\b/i.test(acceptEncoding) && !/\bgzip\s*;\s*q=0(?:\.0*)?\b/i.test(acceptEncoding),
);

/** Whether the client takes gzip. */
function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return acceptEncoding !== undefined && gzipAccepted.get(acceptEncoding);
}

const NO_HEADERS: Record<string, string> = {};

/** What a Composer door decided for one request, before anything is written. */
export type ComposerOutcome =
  /** packages.json's bytes (its decision is made at each request: no validator). */
  | { kind: 'packages-json'; bytes: Buffer }
  /** A p2 file's body, sent gzipped when the client takes gzip. */
  | { kind: 'metadata'; body: RenderedBody; lastModified: Date }
  /** A p2 file the client holds already (If-Modified-Since), decided after authorization. */
  | { kind: 'not-modified'; lastModified: Date }
  /**
   * A refusal (401, 403, 404, ...). A quiet one (an unlicensed p2 file: a plain, fast 404) carries neither the
   * Composer warning nor the status line.
   */
  | { kind: 'refused'; error: ErrorFacts; isQuiet: boolean };

/** What is written: status, headers, body, and for a refusal the status line Composer prints. */
export type ComposerAnswer = {
  status: number;
  /** The headers of its kind (shared by every such answer: never changed), */
  head: AnswerHead;
  /** then its own Last-Modified (a p2 file's 200 and 304). */
  lastModified: string | undefined;
  /**
   * The bytes, or ASCII text (one byte per character: its length is its byte length). Text only for a quiet refusal
   * made with a request id, which only the warm door asks for (the routes' ids come from Fastify's hook): its body is
   * made per answer, and as text it goes out joined to the head without becoming a Buffer on the way (issue 34).
   */
  body?: Buffer | string;
  /** Set on a refusal unless quiet: non-interactive Composer prints only the status line of a refused download. */
  statusMessage?: string;
};

/** An answer's headers as one new list: its kind's, then its own; its writer may add to it. */
export function answerHeaders(answer: ComposerAnswer): HeaderList {
  const list = answer.head.list.slice();
  if (answer.lastModified !== undefined) list.push('last-modified', answer.lastModified);
  return list;
}

/**
 * The same headers as header lines (http/preformatted-head.ts), or undefined when its kind has none: its writer adds
 * its own lines after them.
 */
export function answerLines(answer: ComposerAnswer): string | undefined {
  const { lines } = answer.head;
  if (lines === undefined || answer.lastModified === undefined) return lines;
  // A date formatted here (httpDate): nothing in it to check.
  return `${lines}last-modified: ${answer.lastModified}\r\n`;
}

/**
 * The one place a Composer repository answer is made. `baseHeaders` come first (the fast path's security headers;
 * Fastify's door sets them in its hook); `acceptEncoding` picks a p2 file's gzip; `requestId` goes into a refusal's
 * body where no Fastify hook adds it (the fast path).
 */
export function composerAnswer(
  outcome: ComposerOutcome,
  request: { acceptEncoding?: string; requestId?: string },
  baseHeaders: Record<string, string> = NO_HEADERS,
): ComposerAnswer {
  switch (outcome.kind) {
    case 'packages-json':
      return answerWith(200, headsOf(baseHeaders).packagesJson, undefined, outcome.bytes);
    case 'not-modified':
      return answerWith(304, headsOf(baseHeaders).notModified, httpDate(outcome.lastModified));
    case 'metadata': {
      const heads = headsOf(baseHeaders);
      const isGzipped = acceptsGzip(request.acceptEncoding);
      return answerWith(
        200,
        isGzipped ? heads.gzippedMetadata : heads.metadata,
        httpDate(outcome.lastModified),
        isGzipped ? outcome.body.gzipped() : outcome.body.bytes,
      );
    }
    case 'refused':
      return refusalAnswer(outcome.error, outcome.isQuiet, request.requestId, baseHeaders);
  }
}

/**
 * A quiet refusal's body up to its request id, per facts (the warm door's are shared: repository-request.ts), and
 * whether it is ASCII (a package name is; a message need not be).
 */
const quietBodyOpenings = new WeakMap<ErrorFacts, { text: string; isAscii: boolean }>();

/** Every character below 128: such text's length is its byte length, in latin1 and UTF-8 alike. */
function isAsciiText(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 127) return false;
  return true;
}

/**
 * The body of a quiet refusal with the request's id, as refusalAnswer writes it (errorBody's fields, then requestId):
 * serialized once per facts, the id appended (issue 34: the unlicensed p2 file's 404 as fast as its 200). ASCII text
 * when both parts are (a Buffer made and read back as text cost the warm door 0.36 µs per 404); else the bytes.
 */
function quietBody(error: ErrorFacts, requestId: string): Buffer | string {
  let opening = quietBodyOpenings.get(error);
  if (opening === undefined) {
    const text = JSON.stringify(errorBody(error)).slice(0, -1);
    opening = { text, isAscii: isAsciiText(text) };
    quietBodyOpenings.set(error, opening);
  }
  const body = `${opening.text},"requestId":${JSON.stringify(requestId)}}`;
  return opening.isAscii && isAsciiText(requestId) ? body : Buffer.from(body);
}

/**
 * Every answer of one shape, whatever its status: the fast path writes 200s, 304s and 404s in turn, and its code then
 * meets one kind of object instead of four (issue 34: mixed answers cost a fifth more in the door than one kind).
 */
function answerWith(
  status: number,
  head: AnswerHead,
  lastModified: string | undefined,
  body?: Buffer | string,
  statusMessage?: string,
): ComposerAnswer {
  return { status, head, lastModified, body, statusMessage };
}

/**
 * The API's error shape, plus the message as a Composer warning so that the license holder's terminal shows it; a
 * quiet answer carries neither the warning nor the status line.
 */
function refusalAnswer(
  error: ErrorFacts,
  isQuiet: boolean,
  requestId: string | undefined,
  baseHeaders: Record<string, string>,
): ComposerAnswer {
  // A quiet refusal (an unlicensed p2 file) is as warm as a 200: its list is made once, its body serialized once.
  const isPlainQuiet = isQuiet && error.headers === undefined;
  const head = isPlainQuiet
    ? headsOf(baseHeaders).quietRefusal
    : Object.freeze({ list: headerList(refusalHeaders(baseHeaders, error.headers)), lines: undefined });
  if (isPlainQuiet && requestId !== undefined) {
    return answerWith(error.status, head, undefined, quietBody(error, requestId));
  }
  const body: ComposerErrorBody = errorBody(error);
  // Routes answered by Fastify get it from its onSend hook (http/request-id.ts); the fast path passes it.
  if (requestId !== undefined) body.requestId = requestId;
  if (!isQuiet) {
    const text = error.suggestion ? `${error.message} ${error.suggestion}` : error.message;
    body.warnings = [{ message: text, versions: '*' }];
  }
  // A reason phrase is free text in HTTP/1.1; printable ASCII only.
  const statusMessage = isQuiet ? undefined : error.message.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
  return answerWith(error.status, head, undefined, jsonBytes(body), statusMessage);
}

function refusalHeaders(
  baseHeaders: Record<string, string>,
  errorHeaders: Record<string, string> | undefined,
): Record<string, string> {
  return { ...baseHeaders, ...errorHeaders, 'content-type': JSON_TYPE, 'cache-control': 'no-store' };
}
