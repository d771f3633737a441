import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { endPreformatted, headerLines, setPreformattedHead } from './preformatted-head.js';

const HEADERS = ['x-content-type-options', 'nosniff', 'content-type', 'application/json', 'cache-control', 'no-cache'];
const BODY = Buffer.from('{"packages":{}}');
/** A body with bytes above 127 (UTF-8 of é, —, 🎉) past the size that goes out as text, and one below it. */
const LONG_BODY = Buffer.from(`{"warnings":["${'é — 🎉 '.repeat(200)}"]}`);
const SHORT_BODY = Buffer.from('{"warnings":["é — 🎉 \\u0000 ÿ"]}');
/** An ASCII body given as text, longer than a Buffer sent as text may be (the warm door's quiet 404 is such text). */
const TEXT_BODY = `{"message":"${'not found; '.repeat(60)}","requestId":"req-1"}`;

type Served = { server: Server; port: number; preformatted: boolean[] };

/**
 * A node:http server answering each request with HEADERS and BODY (none on a 304, `?status=304`): through writeHead
 * when the request says `x-writer: node`, else through setPreformattedHead (writeHead when it declines).
 */
async function serve(options: { maxRequestsPerSocket?: number; keepAliveTimeout?: number } = {}): Promise<Served> {
  const preformatted: boolean[] = [];
  const server = createServer((request, response) => {
    const status = request.url?.endsWith('status=304') ? 304 : 200;
    const body =
      status === 304
        ? undefined
        : request.url === '/long'
          ? LONG_BODY
          : request.url === '/short'
            ? SHORT_BODY
            : request.url === '/text'
              ? TEXT_BODY
              : BODY;
    const list = body ? [...HEADERS, 'content-length', String(body.length)] : HEADERS;
    if (request.headers['x-set-before']) response.setHeader('x-set-before', 'yes');
    if (request.headers['x-writer'] !== 'node') {
      const isSet = setPreformattedHead(response, status, headerLines(list)!);
      preformatted.push(isSet);
      if (isSet) return void endPreformatted(response, body);
    }
    response.writeHead(status, list);
    response.end(body);
  });
  if (options.maxRequestsPerSocket !== undefined) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, preformatted };
}

/** The length of the first whole answer in `bytes` (head and Content-Length's body), or undefined if not all here. */
function answerLength(bytes: Buffer): number | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const head = bytes.subarray(0, end).toString('latin1');
  const lengthLine = head.split('\r\n').find((line) => line.toLowerCase().startsWith('content-length:'));
  const total = end + 4 + (lengthLine ? Number(lengthLine.slice('content-length:'.length)) : 0);
  return bytes.length >= total ? total : undefined;
}

/** Sends `requests` (raw HTTP, written at once: pipelined) on one connection; answers the `count` answers' bytes. */
async function exchange(port: number, requests: string, count: number): Promise<string[]> {
  const socket = connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  const answers: string[] = [];
  const done = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (let length = answerLength(received); length !== undefined; length = answerLength(received)) {
        answers.push(received.subarray(0, length).toString('latin1'));
        received = received.subarray(length);
      }
      if (answers.length >= count) resolve();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
  socket.write(requests);
  await done;
  socket.destroy();
  return answers;
}

/** An answer with its Date's value blanked: two answers a second apart differ only there. */
const withoutDate = (answer: string) => answer.replace(/\r\nDate: [^\r]*\r\n/, '\r\nDate: -\r\n');

const get = (path: string, headers: Record<string, string> = {}, version = '1.1') =>
  `GET ${path} HTTP/${version}\r\nHost: example.test\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

let served: Served | undefined;
afterEach(async () => {
  served?.server.closeAllConnections();
  served?.server.close();
  served = undefined;
});

describe('a preformatted head', () => {
  it('puts on the wire the bytes writeHead puts there, for a keep-alive 200 and 304, answered in order', async () => {
    served = await serve();
    const [ours, ours304] = await exchange(served.port, get('/a') + get('/a?status=304'), 2);
    const [node, node304] = await exchange(
      served.port,
      get('/a', { 'x-writer': 'node' }) + get('/a?status=304', { 'x-writer': 'node' }),
      2,
    );
    expect(served.preformatted).toEqual([true, true]);
    expect(withoutDate(ours!)).toBe(withoutDate(node!));
    expect(withoutDate(ours304!)).toBe(withoutDate(node304!));
    expect(ours).toMatch(/^HTTP\/1\.1 200 OK\r\nx-content-type-options: nosniff\r\n/);
    expect(ours).toContain('\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n{"packages":{}}');
    expect(ours304).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
    expect(ours304?.endsWith('\r\n\r\n')).toBe(true);
  });

  it('sends a body byte for byte, short or long, whatever its bytes', async () => {
    served = await serve();
    const answers = await exchange(served.port, get('/short') + get('/long'), 2);
    const bodyOf = (answer: string) => Buffer.from(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1');
    expect(served.preformatted).toEqual([true, true]);
    expect(SHORT_BODY.length).toBeLessThan(512);
    expect(LONG_BODY.length).toBeGreaterThan(512);
    expect(bodyOf(answers[0]!).equals(SHORT_BODY)).toBe(true);
    expect(bodyOf(answers[1]!).equals(LONG_BODY)).toBe(true);
  });

  it('sends an ASCII text body as it is, whatever its length, with the length it announced', async () => {
    served = await serve();
    const [answer] = await exchange(served.port, get('/text'), 1);
    expect(served.preformatted).toEqual([true]);
    expect(TEXT_BODY.length).toBeGreaterThan(512);
    expect(answer).toContain(`\r\ncontent-length: ${TEXT_BODY.length}\r\n`);
    expect(answer!.slice(answer!.indexOf('\r\n\r\n') + 4)).toBe(TEXT_BODY);
  });

  it('says when the connection ends at the request limit, as writeHead does, by leaving it to writeHead', async () => {
    served = await serve({ maxRequestsPerSocket: 2, keepAliveTimeout: 61_000 });
    const answers = await exchange(served.port, get('/a') + get('/a'), 2);
    expect(served.preformatted).toEqual([true, false]);
    expect(answers[0]).toContain('\r\nConnection: keep-alive\r\nKeep-Alive: timeout=61, max=2\r\n');
    expect(answers[1]).toContain('\r\nConnection: close\r\n');
    expect(answers[1]).toContain('{"packages":{}}');
  });

  it('leaves to writeHead a request that closes its connection, HTTP/1.0 and a response with a header set', async () => {
    served = await serve();
    const [closing] = await exchange(served.port, get('/a', { connection: 'close' }), 1);
    const [old] = await exchange(served.port, get('/a', {}, '1.0'), 1);
    const [setBefore] = await exchange(served.port, get('/a', { 'x-set-before': '1' }), 1);
    expect(served.preformatted).toEqual([false, false, false]);
    expect(closing).toContain('\r\nConnection: close\r\n');
    expect(old).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(old).toContain('\r\nConnection: close\r\n');
    expect(setBefore).toContain('\r\nx-set-before: yes\r\n');
  });

  it('writes no Keep-Alive line when the server keeps no keep-alive timeout', async () => {
    served = await serve({ keepAliveTimeout: 0 });
    const [ours] = await exchange(served.port, get('/a'), 1);
    const [node] = await exchange(served.port, get('/a', { 'x-writer': 'node' }), 1);
    expect(served.preformatted).toEqual([true]);
    expect(withoutDate(ours!)).toBe(withoutDate(node!));
    expect(ours).not.toContain('Keep-Alive');
  });

  it('refuses header lines writeHead would refuse', () => {
    expect(headerLines(['x-a', 'b', 'x-c', 'd'])).toBe('x-a: b\r\nx-c: d\r\n');
    expect(headerLines(['x-a', 'b\r\nx-injected: 1'])).toBeUndefined();
    expect(headerLines(['bad name', 'b'])).toBeUndefined();
  });
});
