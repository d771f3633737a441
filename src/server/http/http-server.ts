import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { errorBody } from './errors.js';
import { invalidHostError } from './hosts.js';

// The HTTP server Fastify runs on (its `serverFactory`), made here so that a fast path can answer a request before
// Fastify's router and hooks see it (the warm Composer metadata, features/composer/composer-fast-path.ts). The
// timeouts are the ones Fastify sets on a server it makes itself (fastify/lib/server.js). A request whose Host is not
// `hostname[:port]` is refused here, at the edge, before the fast path, the router or any route (issue 28).

/** Answers a raw request and returns true, or returns false to leave it to Fastify; `fallback` hands it over later. */
export type RawFastPath = (raw: IncomingMessage, response: ServerResponse, fallback: () => void) => boolean;

type ServerTimeouts = {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

/** The 400 for a Host that is not hostname[:port], in the error shape; written once, it never changes. */
const INVALID_HOST_BODY = JSON.stringify(errorBody(invalidHostError()));
const INVALID_HOST_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'content-length': String(Buffer.byteLength(INVALID_HOST_BODY)),
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  connection: 'close',
};

export function createHttpServer(
  handler: (raw: IncomingMessage, response: ServerResponse) => void,
  options: ServerTimeouts,
  fastPathOf: () => RawFastPath | undefined,
  /** Whether the request's host (Host, or a trusted proxy's X-Forwarded-Host) is hostname[:port]: request-origin.ts. */
  isHostValid: (raw: IncomingMessage) => boolean,
): Server {
  const server = createServer((raw, response) => {
    if (!isHostValid(raw)) {
      response.writeHead(400, INVALID_HOST_HEADERS);
      response.end(INVALID_HOST_BODY);
      return;
    }
    const fastPath = fastPathOf();
    if (fastPath?.(raw, response, () => handler(raw, response))) return;
    handler(raw, response);
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout ?? 0);
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  return server;
}
