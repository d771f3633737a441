import { IncomingMessage, ServerResponse, STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';
import { Socket } from 'node:net';

// A warm answer's head written as text made once, instead of node:http's writeHead (issue 34). writeHead checks every
// header name and value with two regular expressions, lower-cases each name to look for the few it must act on, and
// builds the head line by line at every answer: for the warm Composer door's eight headers that was 16,000 of the
// 74,000 instructions of a bare node:http server's answer (callgrind), more than the whole door's own work. Headers
// that are the same at every answer of a kind are checked here once, with node:http's own public validators, and
// joined once; an answer adds only values made by the server itself (a date, a request id of safe characters, a
// length), which need no check.
//
// What writeHead decides besides the lines (the Date header, keep-alive, Connection and Keep-Alive) is decided here
// only in the common case, a keep-alive HTTP/1.1 request under no limit, with node:http's own rules (its
// OutgoingMessage._storeHeader); every other request gets writeHead. The head is handed over on the response's
// `_header`, where writeHead leaves it and end() sends it with the body in one write: an internal of node:http, not
// an API. So the first use checks, on this Node.js, that writeHead makes exactly these bytes from the same headers
// (headWritesAsNodeDoes); if it does not, every answer gets writeHead, and the answers stay right, only slower.

/** A response as node:http's internals hold it (lib/_http_outgoing.js, lib/_http_server.js; Node.js 20). */
type ResponseInternals = ServerResponse & {
  _header: string | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket: number;
  _defaultKeepAlive: boolean;
  _removedConnection: boolean;
  _expect_continue: boolean;
  shouldKeepAlive: boolean;
  maxRequestsOnConnectionReached?: boolean;
};

/**
 * Header names and values in turn as `name: value` lines, each checked as writeHead checks it; undefined when one
 * would be refused (an answer with such a header goes through writeHead, which refuses it as it always did).
 */
export function headerLines(list: readonly string[]): string | undefined {
  let lines = '';
  try {
    for (let index = 0; index < list.length; index += 2) {
      const name = list[index]!;
      const value = list[index + 1]!;
      validateHeaderName(name);
      validateHeaderValue(name, value);
      lines += `${name}: ${value}\r\n`;
    }
  } catch {
    return undefined;
  }
  return lines;
}

/** The Date header's value, formatted once a second (node:http's utcDate does the same). */
let dateSecond = -1;
let dateText = '';
function currentHttpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/** The Connection and Keep-Alive lines of the last keep-alive timeout and request limit seen: a server's, all along. */
let connection = { timeout: Number.NaN, max: Number.NaN, lines: '' };
function connectionLines(timeout: number, max: number): string {
  if (timeout !== connection.timeout || max !== connection.max) {
    let lines = 'Connection: keep-alive\r\n';
    // As _storeHeader: the timeout in whole seconds, the limit when there is one.
    if (timeout) lines += `Keep-Alive: timeout=${Math.floor(timeout / 1000)}${~~max > 0 ? `, max=${max}` : ''}\r\n`;
    connection = { timeout, max, lines };
  }
  return connection.lines;
}

/** Whether writeHead would decide this response's head as headFor does: keep-alive, a Date, nothing set before. */
function isCommonCase(response: ResponseInternals): boolean {
  return (
    response.shouldKeepAlive === true &&
    response.maxRequestsOnConnectionReached !== true &&
    response._defaultKeepAlive === true &&
    response._removedConnection === false &&
    response._expect_continue === false &&
    response.sendDate === true &&
    response._header === null &&
    (response as unknown as Record<symbol, unknown>)[outHeaders!] === null
  );
}

/**
 * The whole head writeHead would make for `status` and these lines (which must hold Content-Length when the answer
 * has a body) on a response in the common case.
 */
function headFor(response: ResponseInternals, status: number, lines: string): string {
  return keepAliveHead(status, lines, response._keepAliveTimeout, response._maxRequestsPerSocket);
}

function keepAliveHead(status: number, lines: string, keepAliveTimeout: number, maxRequests: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines}Date: ${currentHttpDate()}\r\n${connectionLines(keepAliveTimeout, maxRequests)}\r\n`;
}

/** Whether node:http's writeHead, on this Node.js, makes headFor's bytes (Date aside) from the same headers. */
function headWritesAsNodeDoes(): boolean {
  try {
    outHeaders = findOutHeadersSymbol();
    if (outHeaders === undefined) return false;
    const cases: Array<{ status: number; list: string[]; timeout: number; max: number }> = [
      { status: 200, list: ['content-type', 'application/json', 'content-length', '2'], timeout: 5000, max: 0 },
      { status: 304, list: ['last-modified', 'Tue, 01 Dec 2026 00:00:00 GMT'], timeout: 61_500, max: 100 },
      { status: 404, list: ['content-length', '0'], timeout: 0, max: 0 },
    ];
    for (const { status, list, timeout, max } of cases) {
      const request = new IncomingMessage(new Socket());
      request.method = 'GET';
      request.httpVersionMajor = 1;
      request.httpVersionMinor = 1;
      const made = (write: (response: ResponseInternals) => void) => {
        const response = new ServerResponse(request) as ResponseInternals;
        response.shouldKeepAlive = true;
        response._keepAliveTimeout = timeout;
        response._maxRequestsPerSocket = max;
        if (!isCommonCase(response)) return undefined;
        write(response);
        return { head: response._header?.replace(/^Date: .*\r\n/m, ''), hasBody: response._hasBody };
      };
      const byNode = made((response) => response.writeHead(status, list));
      const byHead = made((response) => setHead(response, status, headerLines(list)!));
      if (!byNode || !byHead || byNode.head !== byHead.head || byNode.hasBody !== byHead.hasBody) return false;
    }
    return true;
  } catch {
    return false;
  }
}

let canSetHeads: boolean | undefined;

/** Whether node:http on this Node.js writes the heads headFor makes (checked once): if not, writeHead writes them. */
export function canWritePreformattedHeads(): boolean {
  canSetHeads ??= headWritesAsNodeDoes();
  return canSetHeads;
}

/**
 * The head writeHead would make for a keep-alive HTTP/1.1 response with `status` and these lines (Content-Length
 * among them when it has a body), on a server with this keep-alive timeout and no request limit: for an answer
 * written to the connection itself (http/connection-door.ts). Only where canWritePreformattedHeads().
 */
export function connectionAnswerHead(status: number, lines: string, keepAliveTimeoutMs: number): string | undefined {
  if (STATUS_CODES[status] === undefined) return undefined;
  return keepAliveHead(status, lines, keepAliveTimeoutMs, 0);
}

/** node:http's symbol for the headers set one by one (setHeader), which writeHead merges: none may be set here. */
let outHeaders: symbol | undefined;

/** node:http's kOutHeaders symbol, found by its description on a fresh response (bench/door-javascript.ts too). */
export function findOutHeadersSymbol(): symbol | undefined {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  return Object.getOwnPropertySymbols(response).find((symbol) => symbol.description === 'kOutHeaders');
}

function setHead(response: ResponseInternals, status: number, lines: string): void {
  response.statusCode = status;
  response.statusMessage = STATUS_CODES[status]!;
  // As writeHead: a 304 (or 204) has no body, and end() must not try to send one.
  if (status === 304 || status === 204) response._hasBody = false;
  response._header = headFor(response, status, lines);
  response._headerSent = false;
}

/**
 * Sets the head of `response` from `lines` (checked with headerLines, then the answer's own safe values, Content-Length
 * included when there is a body) and answers true, or answers false, having written nothing, where writeHead must
 * decide the head: a request that closes its connection, HTTP/1.0, a connection at its request limit, a response
 * with headers set before, or a Node.js whose writeHead writes otherwise. The caller then ends it with
 * endPreformatted.
 */
export function setPreformattedHead(response: ServerResponse, status: number, lines: string): boolean {
  const internals = response as ResponseInternals;
  if (!canWritePreformattedHeads() || !isCommonCase(internals) || STATUS_CODES[status] === undefined) return false;
  setHead(internals, status, lines);
  return true;
}

/**
 * Bodies this short go out as text joined to the head, in one write; a Buffer after a text head takes a writev of
 * both. Measured on a bare node:http server with a preformatted head (callgrind): 1,300 of 58,000 instructions saved
 * at 400 bytes, none at 1.6 KB, a loss from there on, where copying the body costs more than the writev.
 */
const TEXT_BODY_MAX_BYTES = 512;

/**
 * Ends a response whose head setPreformattedHead set, with `body` (none for a 304): the same bytes on the wire
 * whichever way (latin1 maps each byte to one character and back). Text must be ASCII, one byte per character, as
 * the length its head announced counted it; it goes out joined to the head whatever its length.
 */
export function endPreformatted(response: ServerResponse, body: Buffer | string | undefined): void {
  if (typeof body === 'string') response.end(body, 'latin1');
  else if (body !== undefined && body.length <= TEXT_BODY_MAX_BYTES) response.end(body.toString('latin1'), 'latin1');
  else response.end(body);
}

/**
 * Writes an answer whose head connectionAnswerHead made to the connection itself: short bodies joined to the head
 * (one write), longer ones after it in one writev (cork), as endPreformatted sends them through node:http.
 */
export function writeConnectionAnswer(socket: Socket, head: string, body: Buffer | string | undefined): void {
  if (body === undefined) {
    socket.write(head, 'latin1');
  } else if (typeof body === 'string') {
    socket.write(head + body, 'latin1');
  } else if (body.length <= TEXT_BODY_MAX_BYTES) {
    socket.write(head + body.toString('latin1'), 'latin1');
  } else {
    socket.cork();
    socket.write(head, 'latin1');
    socket.write(body);
    socket.uncork();
  }
}
