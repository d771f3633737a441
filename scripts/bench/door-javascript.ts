import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { fastifyTrustProxy } from '../../src/server/config.js';
import type { AppContext } from '../../src/server/context.js';
import { createComposerFastPath } from '../../src/server/features/composer/composer-fast-path.js';
import { createRequestOrigin } from '../../src/server/http/request-origin.js';
import { createSecurityHeaders, securityHeaderValues } from '../../src/server/http/security-headers.js';
import { parsedRequest } from '../../test/support/parsed-request.js';

// The warm door's own JavaScript per answer, without HTTP (issue 34): the fast path as app.ts makes it, called with
// in-memory requests and a response that only keeps what was written, many times over. Set beside the server's CPU
// per answer (metadata-doors.ts), it tells the door's own cost from what Node.js's HTTP code and the kernel spend on
// the same answer in the same process; unlike req/s, it hardly moves with the machine's load.

export type DoorRequest = { label: string; urlPath: string; headers: Record<string, string>; expectStatus: number };

/** Answers per measured round: enough for a round to last about a second at a few µs each. */
const ANSWERS_PER_ROUND = 200_000;
/** One in-memory connection per so many requests, as wrk's 50 connections share them. */
const REQUESTS_PER_CONNECTION = 4_000;

/** What the door wrote: the status and the bytes, so that the answer is checked, not assumed. */
type Written = { status: number; bodyBytes: number; preformatted: boolean };

/** node:http's symbol for headers set one by one: a fresh response holds it as null (preformatted-head.ts looks). */
const outHeadersSymbol = Object.getOwnPropertySymbols(new ServerResponse(new IncomingMessage(new Socket()))).find(
  (symbol) => symbol.description === 'kOutHeaders',
);

/**
 * A response that only keeps what was written, with the fields node:http's ServerResponse has on a kept-alive
 * connection, so that the door takes the path it takes on the network: its head set as text (preformatted-head.ts),
 * not writeHead's fallback, which a plain recorder had it take (and answerHeaders' list with it).
 */
function recordingResponse(written: Written): ServerResponse {
  const response = {
    shouldKeepAlive: true,
    _defaultKeepAlive: true,
    _removedConnection: false,
    _expect_continue: false,
    _keepAliveTimeout: 5000,
    _maxRequestsPerSocket: 0,
    sendDate: true,
    _header: null as string | null,
    _headerSent: false,
    _hasBody: true,
    statusCode: 200,
    statusMessage: '',
    ...(outHeadersSymbol ? { [outHeadersSymbol]: null } : {}),
    writeHead(status: number) {
      written.status = status;
      written.preformatted = false;
      return response;
    },
    end(body?: Buffer | string) {
      if (response._header !== null) {
        written.status = response.statusCode;
        written.preformatted = true;
      }
      written.bodyBytes = body?.length ?? 0;
      // The next request's response starts without a head, as node:http's next ServerResponse does.
      response._header = null;
      response._hasBody = true;
      return response;
    },
    destroy() {
      return response;
    },
  };
  return response as unknown as ServerResponse;
}

/**
 * In-memory requests made as node:http's parser makes them (test/support/parsed-request.ts), so that the door sees
 * objects of the same shapes as on the network: plain objects would measure V8's caches on another hidden class.
 */
function inMemoryRequests(request: DoorRequest): IncomingMessage[] {
  const headerLines = Object.entries(request.headers).flat();
  const requests: IncomingMessage[] = [];
  let socket = new Socket();
  for (let index = 0; index < ANSWERS_PER_ROUND; index++) {
    if (index % REQUESTS_PER_CONNECTION === 0) socket = new Socket();
    requests.push(parsedRequest(socket, headerLines, request.urlPath));
  }
  return requests;
}

/**
 * µs of the door's JavaScript per answer of each request (the median of `rounds` rounds after one to warm up),
 * measured in this process on the app's context.
 */
export function measureDoorJavaScript(ctx: AppContext, requests: DoorRequest[], rounds: number): Map<string, number> {
  const fastPath = createComposerFastPath(ctx, {
    originOf: createRequestOrigin(fastifyTrustProxy(ctx.config.trustProxy)),
    appHostname: ctx.appHostname,
    securityHeaders: securityHeaderValues(createSecurityHeaders(ctx.config)),
    onAnswered: () => {},
    metrics: ctx.metrics,
  });
  const passedOn = () => {
    throw new Error('the door handed an in-memory request to Fastify');
  };
  const figures = new Map<string, number>();
  for (const request of requests) {
    const written: Written = { status: 0, bodyBytes: 0, preformatted: false };
    const response = recordingResponse(written);
    const perAnswer: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      // Made before the clock starts: one object per request, as node:http makes them.
      const incoming = inMemoryRequests(request);
      const startedAt = process.hrtime.bigint();
      for (const raw of incoming) {
        if (!fastPath(raw, response, passedOn)) throw new Error(`the door did not answer ${request.urlPath} itself`);
      }
      const elapsed = Number(process.hrtime.bigint() - startedAt);
      if (written.status !== request.expectStatus) {
        throw new Error(`${request.urlPath}: the door answered ${written.status}, not ${request.expectStatus}`);
      }
      if (!written.preformatted) {
        throw new Error(`${request.urlPath}: the door wrote its ${written.status} through writeHead, not as text`);
      }
      // A 200 carries the file (or packages.json), a 404 its error body; a 304 nothing.
      if (written.bodyBytes > 0 !== (request.expectStatus !== 304)) {
        throw new Error(`${request.urlPath}: the door's ${written.status} came with ${written.bodyBytes} body bytes`);
      }
      if (round > 0) perAnswer.push(elapsed / incoming.length / 1000);
    }
    perAnswer.sort((a, b) => a - b);
    figures.set(request.label, perAnswer[Math.floor(perAnswer.length / 2)]!);
  }
  return figures;
}
