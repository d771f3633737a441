import type { FastifyInstance, FastifyRequest } from 'fastify';

// Signed deliveries (GitHub and its GitHub App, GitLab, Bitbucket, Stripe, GitHub's secret scanning) are verified
// over the exact bytes their sender sent, so their routes read bodies raw: each route lives in an encapsulated plugin
// whose only content-type parser keeps the bytes as they came, within the route's bound, and JSON parsing everywhere
// else stays as it is.

/** Makes the routes of this encapsulated plugin receive every body, of any content type, as its bytes. */
export function acceptRawBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => {
    done(null, body);
  });
}

/** The bytes of a body read by acceptRawBodies; a request without one has none. */
export function rawBodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/** A request header's value; of a header sent twice, the first. */
export function firstHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
