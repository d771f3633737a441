import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.js';

// DESIGN "Security": every answer carries helmet's headers and a restrictive CSP. The middleware is built once:
// @fastify/helmet rebuilds it (parsing every CSP directive) on each request, which was the largest single cost of
// a warm Composer request after the socket write itself (issue 10's profile).

/** Sets the security headers on every answer, from one helmet middleware made at start-up. */
export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'isHttps'>): void {
  const applyHeaders = helmet({
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
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
}
