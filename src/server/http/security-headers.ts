import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.js';

// DESIGN "Security": every answer carries helmet's headers and a restrictive CSP. The middleware is built once:
// @fastify/helmet rebuilds it (parsing every CSP directive) on each request, which was the largest single cost of
// a warm Composer request after the socket write itself (issue 10's profile).

/** Sets helmet's headers on a raw response; made once per app. */
export type SecurityHeaders = ReturnType<typeof helmet>;

export function createSecurityHeaders(config: Pick<Config, 'isHttps'>): SecurityHeaders {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: config.isHttps,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * The headers the middleware sets, as one object: the configuration is fixed, so every answer gets the same ones,
 * and a raw answer (the Composer fast path) can pass them to writeHead at once instead of running the middleware.
 */
export function securityHeaderValues(applyHeaders: SecurityHeaders): Record<string, string> {
  const values: Record<string, string> = {};
  const collector = {
    setHeader(name: string, value: unknown) {
      values[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete values[name.toLowerCase()];
    },
  };
  applyHeaders({} as IncomingMessage, collector as unknown as ServerResponse, () => {});
  return values;
}

/** Sets the security headers on every answer Fastify gives. */
export function registerSecurityHeaders(app: FastifyInstance, applyHeaders: SecurityHeaders): void {
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
