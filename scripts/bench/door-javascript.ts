import { fstatSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { fastifyTrustProxy } from '../../src/server/config.js';
import type { AppContext } from '../../src/server/context.js';
import { createComposerFastPath } from '../../src/server/features/composer/composer-fast-path.js';
import { readPlainGetHead } from '../../src/server/http/plain-get-head.js';
import { findOutHeadersSymbol } from '../../src/server/http/preformatted-head.js';
import { createRequestOrigin } from '../../src/server/http/request-origin.js';
import { createSecurityHeaders, securityHeaderValues } from '../../src/server/http/security-headers.js';
import { parsedRequest } from '../../test/support/parsed-request.js';
import { median } from './percentile.js';

// The warm door's own JavaScript per answer, without HTTP (issue 34): the fast path as app.ts makes it, called with
// in-memory requests and a response that only keeps what was written, many times over; and the same requests as the
// connection door takes them (http/connection-door.ts: the head's bytes read by plain-get-head.ts and answered with
// answerOnConnection, without the write). Set beside the server's CPU per answer (metadata-doors.ts), it tells the
// door's own cost from what Node.js's HTTP code and the kernel spend on the same answer in the same process; unlike
// req/s, it hardly moves with the machine's load.

export type DoorRequest = { label: string; urlPath: string; headers: Record<string, string>; expectStatus: number };

/** Answers per measured round: enough for a round to last about a second at a few µs each. */
const ANSWERS_PER_ROUND = 200_000;
/** One in-memory connection per so many requests, as wrk's 50 connections share them. */
const REQUESTS_PER_CONNECTION = 4_000;

/** What the door wrote: the status and the bytes, so that the answer is checked, not assumed. */
type Written = { status: number; bodyBytes: number; preformatted: boolean };

/** node:http's symbol for headers set one by one: a fresh response holds it as null (preformatted-head.ts looks). */
const outHeadersSymbol = findOutHeadersSymbol();

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

/** The request's head as it arrives on a connection, up to (not including) the blank line that ends it. */
function headBytes(request: DoorRequest): Buffer {
  const lines = Object.entries(request.headers).map(([name, value]) => `\r\n${name}: ${value}`);
  return Buffer.from(`GET ${request.urlPath} HTTP/1.1${lines.join('')}`, 'latin1');
}

/** The median of rounds after the first (a warm-up). */
const medianAfterWarmUp = (perRound: number[]) => median(perRound.slice(1));

/**
 * A system call that does next to nothing (fstat of standard input): what every answer on the network makes, a read
 * and a write, without their work. On a machine whose kernel isolates its page tables without PCIDs (`pti` without
 * `pcid` in /proc/cpuinfo), every system call empties the TLB, and what the door touches next is fetched anew.
 */
function enterTheKernel(): void {
  fstatSync(0);
}

/** What measureDoorJavaScript found: µs per answer of each request's label. */
export type DoorJavaScriptFigures = {
  /** The door's JavaScript alone, answer after answer. */
  warm: Map<string, number>;
  /**
   * The same with a system call before each answer, that call's own time taken off: what the door costs when the
   * kernel has run in between, as on the network (issue 34: 1.7 against 4.1 µs per p2 on a machine with `pti` and no
   * `pcid`).
   */
  afterSystemCall: Map<string, number>;
  /** At the connection door: the head read and answered (not written), after a system call as above. */
  atConnection: Map<string, number>;
};

/**
 * µs of the door's JavaScript per answer of each request (the median of `rounds` rounds after one to warm up),
 * measured in this process on the app's context, warm and after a system call.
 */
export function measureDoorJavaScript(ctx: AppContext, requests: DoorRequest[], rounds: number): DoorJavaScriptFigures {
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
  /** µs per answer of one round of `request` (after a system call before each answer, or not), its answers checked. */
  const timeRound = (request: DoorRequest, withSystemCall: boolean): number => {
    const written: Written = { status: 0, bodyBytes: 0, preformatted: false };
    const response = recordingResponse(written);
    // Made before the clock starts: one object per request, as node:http makes them.
    const incoming = inMemoryRequests(request);
    const startedAt = process.hrtime.bigint();
    for (const raw of incoming) {
      if (withSystemCall) enterTheKernel();
      if (!fastPath.answerRequest(raw, response, passedOn))
        throw new Error(`the door did not answer ${request.urlPath} itself`);
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
    return elapsed / incoming.length / 1000;
  };
  /** µs per answer of one round of `request` read and answered as the connection door does (after a system call). */
  const timeConnectionRound = (request: DoorRequest): number => {
    const head = headBytes(request);
    let socket = new Socket();
    let status = '';
    const startedAt = process.hrtime.bigint();
    for (let index = 0; index < ANSWERS_PER_ROUND; index++) {
      if (index % REQUESTS_PER_CONNECTION === 0) socket = new Socket();
      enterTheKernel();
      const read = readPlainGetHead(head.toString('latin1'));
      const answer = read && fastPath.answerOnConnection({ method: 'GET', ...read, socket }, 5000);
      if (!answer) throw new Error(`the connection door did not answer ${request.urlPath} itself`);
      status = answer.head.slice(9, 12);
    }
    const elapsed = Number(process.hrtime.bigint() - startedAt);
    if (status !== String(request.expectStatus)) {
      throw new Error(`${request.urlPath}: the connection door answered ${status}, not ${request.expectStatus}`);
    }
    return elapsed / ANSWERS_PER_ROUND / 1000;
  };
  /** µs of the system call alone, timed as a round of the door's is. */
  const systemCallRound = (): number => {
    const startedAt = process.hrtime.bigint();
    for (let index = 0; index < ANSWERS_PER_ROUND; index++) enterTheKernel();
    return Number(process.hrtime.bigint() - startedAt) / ANSWERS_PER_ROUND / 1000;
  };
  const figures: DoorJavaScriptFigures = { warm: new Map(), afterSystemCall: new Map(), atConnection: new Map() };
  for (const request of requests) {
    const warm: number[] = [];
    const afterSystemCall: number[] = [];
    const atConnection: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      warm.push(timeRound(request, false));
      // With the call and the call alone in the same turn, so that their difference holds the door alone.
      const systemCall = systemCallRound();
      afterSystemCall.push(timeRound(request, true) - systemCall);
      atConnection.push(timeConnectionRound(request) - systemCall);
    }
    figures.warm.set(request.label, medianAfterWarmUp(warm));
    figures.afterSystemCall.set(request.label, medianAfterWarmUp(afterSystemCall));
    figures.atConnection.set(request.label, medianAfterWarmUp(atConnection));
  }
  return figures;
}
