import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createRandomUuids } from '../lib/random-uuids.js';

// Every answer carries X-Request-Id, error bodies name it and the request's log line has it (Fastify's `reqId`), so a
// seller's support request ("it said request 3f2c…") finds its line in the log. A proxy or client that already names
// the request may pass its own id, if it is short and made of safe characters; anything else gets a fresh one, so no
// header can write into the log or an answer what the server did not check. The id is decided once per request: by
// the warm Composer door for the answers it writes itself (decideRequestId), else at the edge (http-server.ts), kept on
// the request so that the header the edge sets and Fastify's `genReqId` name it the same (requestIdOf).

export const REQUEST_ID_HEADER = 'x-request-id';

/** An accepted incoming id: 1 to 64 of letters, digits and `-_.:` (a UUID, a ULID, a proxy's hex id). */
export const MAX_REQUEST_ID_LENGTH = 64;

/**
 * The id of a request the edge and Fastify answer, kept on the request itself (a WeakMap cost more): the edge's header
 * and Fastify's `genReqId` must name the same. The warm door decides its own without keeping it (decideRequestId).
 */
const REQUEST_ID = Symbol('packgate.requestId');
type RawWithId = IncomingMessage & { [REQUEST_ID]?: string };

const randomUuid = createRandomUuids();

function isSafeRequestId(value: string): boolean {
  if (value.length === 0 || value.length > MAX_REQUEST_ID_LENGTH) return false;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const isSafe =
      (code >= 48 && code <= 57) || // 0-9
      (code >= 65 && code <= 90) || // A-Z
      (code >= 97 && code <= 122) || // a-z
      code === 45 || // -
      code === 95 || // _
      code === 46 || // .
      code === 58; // :
    if (!isSafe) return false;
  }
  return true;
}

/**
 * A request's id, decided anew: the incoming X-Request-Id when it is safe, else a random UUID. For a writer that
 * decides it once and answers the request itself (the warm Composer door): keeping it on the request, as requestIdOf
 * does for the edge and Fastify, adds a property to node:http's IncomingMessage, and that new hidden class cost the
 * warm door 2 µs an answer (issue 34, bench/door-javascript.ts).
 */
export function decideRequestId(raw: Pick<IncomingMessage, 'headers'>): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  // A random UUID rather than a counter (a counter would tell any client how many requests the process answered
  // between two of its own), formatted in batches (random-uuids.ts).
  return typeof incoming === 'string' && isSafeRequestId(incoming) ? incoming : randomUuid();
}

/** The request's id (decideRequestId), kept on the request: the same for every call. */
export function requestIdOf(raw: IncomingMessage): string {
  let id = (raw as RawWithId)[REQUEST_ID];
  if (id === undefined) {
    id = decideRequestId(raw);
    (raw as RawWithId)[REQUEST_ID] = id;
  }
  return id;
}

/**
 * An error body (a JSON object, already serialized) with `requestId` added as its last field; anything else as it is.
 * Added after serialization so that every error answer gets it, whatever its route's response schema.
 */
export function withRequestId<Payload>(payload: Payload, requestId: string): Payload | string | Buffer {
  const field = `,"requestId":${JSON.stringify(requestId)}}`;
  if (typeof payload === 'string') {
    if (payload.length <= 2 || payload[0] !== '{' || payload[payload.length - 1] !== '}') return payload;
    if (payload.includes('"requestId"')) return payload;
    return payload.slice(0, -1) + field;
  }
  if (Buffer.isBuffer(payload)) {
    if (payload.length <= 2 || payload[0] !== 0x7b || payload[payload.length - 1] !== 0x7d) return payload;
    if (payload.includes('"requestId"')) return payload;
    return Buffer.concat([payload.subarray(0, -1), Buffer.from(field)]);
  }
  return payload;
}

/** Every answer names its request in X-Request-Id (set at the edge, http-server.ts); error bodies name it too. */
export function registerRequestIds(app: FastifyInstance): void {
  // Requests injected without the HTTP server (light-my-request) never met the edge.
  app.addHook('onRequest', (request, reply, done) => {
    if (!reply.raw.hasHeader(REQUEST_ID_HEADER)) reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode < 400) return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.includes('json')) return done(null, payload);
    const withId = withRequestId(payload, request.id);
    if (withId !== payload && reply.hasHeader('content-length')) reply.removeHeader('content-length');
    done(null, withId);
  });
}
