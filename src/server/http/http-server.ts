import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ConnectionAnswerer, openConnectionDoor } from './connection-door.js';
import { errorBody } from './errors.js';
import { invalidHostError } from './hosts.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';

// The HTTP server Fastify runs on (its `serverFactory`), made here so that a fast path can answer a request before
// Fastify's router and hooks see it (the warm Composer metadata, features/composer/composer-fast-path.ts). The
// timeouts are the ones Fastify sets on a server it makes itself (fastify/lib/server.js). A request whose Host is not
// `hostname[:port]` is refused here, at the edge, before the fast path, the realtime socket, the router or any route
// (issue 28). In front of it all, a new connection's warm Composer requests are read and answered on the connection
// itself until one needs node:http (connection-door.ts).

/**
 * Answers a raw request and returns true, or returns false to leave it to Fastify; `fallback(raw, response)` hands it
 * over later (one function for every request: no closure is made per request). Whatever it answers carries
 * X-Request-Id (request-id.ts): the edge has not set it.
 */
export type RawFastPath = (
  raw: IncomingMessage,
  response: ServerResponse,
  fallback: (raw: IncomingMessage, response: ServerResponse) => void,
) => boolean;

/**
 * The fast path's two doors (features/composer/composer-fast-path.ts): a request node:http read, and one the
 * connection door read from the connection itself (connection-door.ts).
 */
export type FastPaths = { answerRequest: RawFastPath; answerOnConnection: ConnectionAnswerer };

/**
 * A door under a path prefix of its own (the realtime socket's, adapters/realtime): the edge hands it the requests and
 * upgrades under `prefix`, after the Host check and before Fastify. Handed to the edge rather than put in front of
 * it, as socket.io puts itself when given the server: it then sees every request first, each paying its path check,
 * and its own requests skip the edge's Host check.
 */
export type PrefixDoor = {
  prefix: string;
  handleRequest(raw: IncomingMessage, response: ServerResponse): void;
  handleUpgrade(raw: IncomingMessage, socket: Duplex, head: Buffer): void;
};

type ServerTimeouts = {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

/** The 400 for a Host that is not hostname[:port], in the error shape. */
const INVALID_HOST_ERROR = errorBody(invalidHostError());
const INVALID_HOST_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  connection: 'close',
};

export function createHttpServer(
  handler: (raw: IncomingMessage, response: ServerResponse) => void,
  options: ServerTimeouts,
  fastPathOf: () => FastPaths | undefined,
  /** Whether the request's host (Host, or a trusted proxy's X-Forwarded-Host) is hostname[:port]: request-origin.ts. */
  isHostValid: (raw: IncomingMessage) => boolean,
  /** The realtime socket's door, once it is open. */
  prefixDoorOf: () => PrefixDoor | undefined = () => undefined,
): Server {
  // Every answer names its request (request-id.ts), whoever writes it: this edge, the fast path (in the head it writes
  // itself: a header set here first would send it through writeHead, and that writeHead through one setHeader per
  // header; preformatted-head.ts) or Fastify (set here, before its handler runs).
  const toFastify = (raw: IncomingMessage, response: ServerResponse) => {
    response.setHeader(REQUEST_ID_HEADER, requestIdOf(raw));
    handler(raw, response);
  };
  const server = createServer((raw, response) => {
    if (!isHostValid(raw)) {
      const requestId = requestIdOf(raw);
      const body = JSON.stringify({ ...INVALID_HOST_ERROR, requestId });
      response.writeHead(400, {
        ...INVALID_HOST_HEADERS,
        [REQUEST_ID_HEADER]: requestId,
        'content-length': String(Buffer.byteLength(body)),
      });
      response.end(body);
      return;
    }
    if (fastPathOf()?.answerRequest(raw, response, toFastify)) return;
    const prefixDoor = prefixDoorOf();
    if (prefixDoor !== undefined && raw.url?.startsWith(prefixDoor.prefix)) {
      response.setHeader(REQUEST_ID_HEADER, requestIdOf(raw));
      prefixDoor.handleRequest(raw, response);
      return;
    }
    toFastify(raw, response);
  });
  // Nothing but the prefix door upgrades a connection; any other upgrade, or one to a Host that is not
  // hostname[:port], is closed at once, as node:http closes it when nobody listens.
  server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    const prefixDoor = prefixDoorOf();
    if (prefixDoor !== undefined && raw.url?.startsWith(prefixDoor.prefix) && isHostValid(raw)) {
      prefixDoor.handleUpgrade(raw, socket, head);
    } else {
      socket.destroy();
    }
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout ?? 0);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  // Warm Composer answers are read and written on the connection itself until a request needs node:http.
  openConnectionDoor(server, () => fastPathOf()?.answerOnConnection);
  return server;
}
