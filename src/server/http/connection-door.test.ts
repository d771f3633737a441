import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectionAnswerer, openConnectionDoor } from './connection-door.js';
import { connectionAnswerHead } from './preformatted-head.js';

// The connection door (connection-door.ts) in front of a plain node:http server: what the answerer answers is written
// on the connection itself, and the first request it does not answer hands the connection, with every byte not yet
// answered, to node:http for good.

type Served = { server: Server; port: number; nodeSaw: string[]; doorSaw: string[] };

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** 256 KB more in an answer under /door/large/. */
const paddingOf = (url = '') => (url.startsWith('/door/large/') ? ` ${'x'.repeat(256 * 1024)}` : '');

/** node:http answers `node <method> <url> <body>`; the door answers GET /door/* with `door <url>`. */
async function serve(): Promise<Served> {
  const nodeSaw: string[] = [];
  const doorSaw: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      nodeSaw.push(`${request.method} ${request.url}`);
      const body = `node ${request.method} ${request.url} ${Buffer.concat(chunks).toString()}${paddingOf(request.url)}`;
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 5000;
  const answerer: ConnectionAnswerer = (request, keepAliveTimeoutMs) => {
    if (!request.url.startsWith('/door/')) return undefined;
    doorSaw.push(request.url);
    const body = `door ${request.url} ${request.headers.authorization ?? ''}${paddingOf(request.url)}`;
    const head = connectionAnswerHead(
      200,
      `content-type: text/plain\r\ncontent-length: ${body.length}\r\n`,
      keepAliveTimeoutMs,
    );
    return head === undefined ? undefined : { head, body };
  };
  openConnectionDoor(server, () => answerer);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return { server, port: (server.address() as AddressInfo).port, nodeSaw, doorSaw };
}

type Answer = { status: number; headers: Record<string, string>; body: string };

/** Reads `count` answers (each with a Content-Length) from the socket, in order. */
function readAnswers(socket: Socket, count: number): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const answers: Answer[] = [];
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      for (;;) {
        const end = text.indexOf('\r\n\r\n');
        if (end === -1) return;
        const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
        );
        const length = Number(headers['content-length'] ?? 0);
        if (text.length < end + 4 + length) return;
        answers.push({
          status: Number(statusLine!.split(' ')[1]),
          headers,
          body: text.slice(end + 4, end + 4 + length),
        });
        text = text.slice(end + 4 + length);
        if (answers.length === count) {
          socket.removeListener('data', onData);
          resolve(answers);
          return;
        }
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`the connection closed after ${answers.length} answers`)));
  });
}

async function connected(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

const get = (url: string, headers = 'Host: repo.test\r\nAuthorization: Bearer t1\r\n') =>
  `GET ${url} HTTP/1.1\r\n${headers}\r\n`;

describe('the connection door', () => {
  it('answers requests written together on one kept-alive connection, in order, without node:http', async () => {
    const { port, nodeSaw } = await serve();
    const socket = await connected(port);
    const answers = readAnswers(socket, 3);
    socket.write(get('/door/a') + get('/door/b') + get('/door/c'));
    const read = await answers;
    expect(read.map((answer) => answer.body)).toEqual([
      'door /door/a Bearer t1',
      'door /door/b Bearer t1',
      'door /door/c Bearer t1',
    ]);
    expect(read[0]!.headers.connection).toBe('keep-alive');
    expect(read[0]!.headers['keep-alive']).toBe('timeout=5');
    expect(read[0]!.headers.date).toMatch(/ GMT$/);
    expect(nodeSaw).toEqual([]);
    socket.destroy();
  });

  it('hands the connection to node:http at the first request it does not answer, with every byte after it', async () => {
    const { port, nodeSaw, doorSaw } = await serve();
    const socket = await connected(port);
    const answers = readAnswers(socket, 4);
    const post = 'POST /api/things HTTP/1.1\r\nHost: repo.test\r\nContent-Length: 11\r\n\r\nhello world';
    socket.write(get('/door/first') + post + get('/door/after') + get('/elsewhere'));
    expect((await answers).map((answer) => answer.body)).toEqual([
      'door /door/first Bearer t1',
      'node POST /api/things hello world',
      'node GET /door/after ',
      'node GET /elsewhere ',
    ]);
    expect(doorSaw).toEqual(['/door/first']);
    expect(nodeSaw).toEqual(['POST /api/things', 'GET /door/after', 'GET /elsewhere']);
    socket.destroy();
  });

  it('hands a head that arrives in pieces to node:http, with the whole requests before it answered', async () => {
    const { port, doorSaw, nodeSaw } = await serve();
    const socket = await connected(port);
    const answers = readAnswers(socket, 3);
    const split = get('/door/split');
    socket.write(get('/door/whole') + split.slice(0, 12));
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write(split.slice(12) + get('/door/next'));
    expect((await answers).map((answer) => answer.body)).toEqual([
      'door /door/whole Bearer t1',
      'node GET /door/split ',
      'node GET /door/next ',
    ]);
    expect(doorSaw).toEqual(['/door/whole']);
    expect(nodeSaw).toEqual(['GET /door/split', 'GET /door/next']);
    socket.destroy();
  });

  it('leaves a head it does not take to node:http, which decides', async () => {
    const { port, doorSaw } = await serve();
    const socket = await connected(port);
    const answers = readAnswers(socket, 1);
    // Written twice: the door does not choose between two credentials; node:http reads the request as it would.
    socket.write(get('/door/twice', 'Host: repo.test\r\nAuthorization: Bearer t1\r\nAuthorization: Bearer t2\r\n'));
    expect((await answers)[0]!.body).toBe('node GET /door/twice ');
    expect(doorSaw).toEqual([]);
    socket.destroy();
  });

  it('hands a head longer than node:http allows to node:http, which refuses it', async () => {
    const { port } = await serve();
    const socket = await connected(port);
    const closed = once(socket, 'close');
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.write(`GET /door/long HTTP/1.1\r\nX-Long: ${'a'.repeat(20 * 1024)}`);
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('hands requests asked while a client does not read its answers to node:http, every answer in order', async () => {
    const { port, doorSaw, nodeSaw } = await serve();
    const socket = await connected(port);
    // 100 answers of 256 KB asked at once and not read until all are asked: more than the kernel's buffers hold.
    socket.pause();
    const urls = Array.from({ length: 100 }, (_, index) => `/door/large/${index}`);
    socket.write(urls.map((url) => get(url)).join(''));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answers = readAnswers(socket, urls.length);
    socket.resume();
    const read = await answers;
    const whoAnswered = (body: string) => {
      const words = body.split(' ', 3);
      return words[0] === 'door' ? `door ${words[1]}` : `node ${words[2]}`;
    };
    expect(read.map((answer) => whoAnswered(answer.body))).toEqual(
      urls.map((url, index) => `${index < doorSaw.length ? 'door' : 'node'} ${url}`),
    );
    expect(doorSaw.length).toBeGreaterThan(0);
    expect(nodeSaw.length).toBeGreaterThan(0);
    expect(doorSaw.length + nodeSaw.length).toBe(urls.length);
    socket.destroy();
  });

  it('answers each of many connections its own requests, their reads interleaved', async () => {
    const { port, nodeSaw } = await serve();
    const sockets = await Promise.all(Array.from({ length: 20 }, () => connected(port)));
    const urlsOf = (connection: number) => Array.from({ length: 6 }, (_, index) => `/door/${connection}/${index}`);
    const answers = sockets.map((socket) => readAnswers(socket, 6));
    // Each connection's requests in two writes, every connection's first before any second: reads of different
    // connections follow one another, each through the door's one read buffer.
    for (const [connection, socket] of sockets.entries())
      socket.write(
        urlsOf(connection)
          .slice(0, 3)
          .map((url) => get(url))
          .join(''),
      );
    for (const [connection, socket] of sockets.entries())
      socket.write(
        urlsOf(connection)
          .slice(3)
          .map((url) => get(url))
          .join(''),
      );
    const read = await Promise.all(answers);
    for (const [connection, answered] of read.entries()) {
      expect(answered.map((answer) => answer.body)).toEqual(urlsOf(connection).map((url) => `door ${url} Bearer t1`));
    }
    expect(nodeSaw).toEqual([]);
    for (const socket of sockets) socket.destroy();
  });

  it("gives an upgraded connection's later bytes to the upgrade's handler, after handing it to node:http", async () => {
    const { server, port } = await serve();
    server.on('upgrade', (_request, upgraded: Socket, head: Buffer) => {
      upgraded.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n');
      if (head.length > 0) upgraded.write(`echo ${head.toString()};`);
      upgraded.on('data', (chunk: Buffer) => upgraded.write(`echo ${chunk.toString()};`));
      // node:http keeps an upgraded connection half open, and no longer closes it with the server.
      upgraded.on('end', () => upgraded.end());
    });
    const socket = await connected(port);
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    const until = async (part: string) => {
      while (!text.includes(part)) await once(socket, 'data');
    };
    const answers = readAnswers(socket, 1);
    socket.write(get('/door/before'));
    expect((await answers)[0]!.body).toBe('door /door/before Bearer t1');
    socket.write('GET /echo HTTP/1.1\r\nHost: repo.test\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nfirst');
    await until('echo first;');
    for (const word of ['second', 'third']) {
      socket.write(word);
      await until(`echo ${word};`);
    }
    // Nothing but the handler's echoes after its 101: no other reader took the bytes, nothing else answered them.
    const switched = text.indexOf('HTTP/1.1 101 Switching Protocols\r\n');
    expect(switched).toBeGreaterThan(0);
    expect(text.slice(text.indexOf('\r\n\r\n', switched) + 4)).toBe('echo first;echo second;echo third;');
    socket.destroy();
  });

  it('answers a client that closes its side after asking, then closes the connection', async () => {
    const { port } = await serve();
    const socket = await connected(port);
    const answers = readAnswers(socket, 2);
    const ended = once(socket, 'end');
    socket.end(get('/door/last') + get('/door/really-last'));
    expect((await answers).map((answer) => answer.body)).toEqual([
      'door /door/last Bearer t1',
      'door /door/really-last Bearer t1',
    ]);
    await ended;
  });

  it("reads every held connection into the door's one buffer on this Node.js, not a Buffer per read", async () => {
    // What the door relies on (net.Socket's onread fields): if a Node.js drops or renames them, the door still
    // answers, through `data` events, but each read allocates again (issue 34). This says so before a bench has to.
    const { server, port } = await serve();
    const adopted: Socket[] = [];
    server.on('connection', (socket: Socket) => adopted.push(socket));
    const sockets = await Promise.all([connected(port), connected(port)]);
    for (const socket of sockets) {
      const answers = readAnswers(socket, 1);
      socket.write(get('/door/a'));
      await answers;
    }
    const field = (socket: Socket, name: string) => {
      const symbol = Object.getOwnPropertySymbols(socket).find((each) => each.description === name);
      return symbol === undefined ? undefined : (socket as unknown as Record<symbol, unknown>)[symbol];
    };
    expect(adopted).toHaveLength(2);
    const [first, second] = adopted.map((socket) => field(socket, 'kBuffer'));
    expect(first).toBeInstanceOf(Buffer);
    expect(second).toBe(first);
    for (const socket of adopted) expect(field(socket, 'kBufferCb')).toBeTypeOf('function');
    for (const socket of sockets) socket.destroy();
  });

  it('closes the connections it holds when the server closes', async () => {
    const { server, port } = await serve();
    const socket = await connected(port);
    const answers = readAnswers(socket, 1);
    socket.write(get('/door/a'));
    await answers;
    const closed = once(socket, 'close');
    servers.splice(servers.indexOf(server), 1);
    await new Promise((resolve) => server.close(resolve));
    await closed;
  });
});
