import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

// The HTTP server Fastify runs on (its `serverFactory`), made here so that a fast path can answer a request before
// Fastify's router and hooks see it (the warm Composer metadata, features/composer/composer-fast-path.ts). The
// timeouts are the ones Fastify sets on a server it makes itself (fastify/lib/server.js).

/** Answers a raw request and returns true, or returns false to leave it to Fastify; `fallback` hands it over later. */
export type RawFastPath = (raw: IncomingMessage, response: ServerResponse, fallback: () => void) => boolean;

type ServerTimeouts = {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
};

export function createHttpServer(
  handler: (raw: IncomingMessage, response: ServerResponse) => void,
  options: ServerTimeouts,
  fastPathOf: () => RawFastPath | undefined,
): Server {
  const server = createServer((raw, response) => {
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
