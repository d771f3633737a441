import type { IncomingHttpHeaders, Server } from 'node:http';
import { Socket } from 'node:net';
import { readPlainGetHead } from './plain-get-head.js';
import { canWritePreformattedHeads, writeConnectionAnswer } from './preformatted-head.js';

// The warm Composer answers read and written on the connection itself, before node:http (issue 34). node:http builds
// a readable IncomingMessage and a writable ServerResponse for every request and runs them through its stream and
// event code: on a kernel that isolates page tables without PCIDs that machinery alone cost more than the rest of a
// warm answer (a bare node:http server 24.3 µs of CPU per answer, the same bytes written by a net server reading the
// heads itself 14.0 µs). So each new connection starts here: its requests are read with a strict reader
// (plain-get-head.ts) and offered to the answerer (the Composer fast path, composer-fast-path.ts), which answers
// from what it holds, synchronously, with the same decisions as every other door. The first request it does not
// answer (any other request, a token whose view is not held, a refusal that must say why, bytes the reader does not
// take) hands the connection to node:http for good, with every byte not yet answered: node:http then reads that
// request and the ones after it as it reads any connection. Nothing is answered here that node:http would read
// otherwise: the reader only takes bodiless GETs whose end both agree on.

export type ConnectionRequest = { method: 'GET'; url: string; headers: IncomingHttpHeaders; socket: Socket };
export type ConnectionAnswer = { head: string; body: Buffer | string | undefined };

/** A request's whole answer, written by the caller at once, or undefined to hand the connection to node:http. */
export type ConnectionAnswerer = (
  request: ConnectionRequest,
  keepAliveTimeoutMs: number,
) => ConnectionAnswer | undefined;

/** node:http's own limit for a head (`--max-http-header-size`, 16 KB): a longer one is node:http's to refuse. */
const MAX_HEAD_BYTES = 16 * 1024;

const HEAD_END = Buffer.from('\r\n\r\n');

type ConnectionListener = (socket: Socket) => void;

/**
 * Bytes read into one buffer the door gives, handed to it without a Buffer of their own: net.Socket's `onread`, the
 * public option of a socket a program creates, set on a server's socket (which Node.js creates without it) through
 * the same fields. A read otherwise allocates 64 KB, wraps the bytes in a new Buffer and runs them through the
 * readable stream's code (push, `data` event); node:http never does, its parser reads in C++. On the kernel that
 * empties the TLB at each system call that cost a warm answer 2.7 µs of a bare net server's 15.8 (issue 34).
 */
type UserBufferFields = { buffer: symbol; callback: symbol };
type UserBufferSocket = Socket & { _handle?: { useUserBuffer?: (buffer: Buffer) => void } | null } & Record<
    symbol,
    unknown
  >;
/** Called with each read's length; answers false to stop reading (net.Socket's kBufferCb). */
type ReadCallback = (length: number, buffer: Buffer) => boolean | undefined;

let userBufferFields: UserBufferFields | null | undefined;

/** Node.js's fields of a socket's `onread` (kBuffer, kBufferCb), found by description; null on a Node.js without them. */
function findUserBufferFields(): UserBufferFields | null {
  if (userBufferFields === undefined) {
    const symbols = Object.getOwnPropertySymbols(new Socket());
    const buffer = symbols.find((symbol) => symbol.description === 'kBuffer');
    const callback = symbols.find((symbol) => symbol.description === 'kBufferCb');
    userBufferFields = buffer && callback ? { buffer, callback } : null;
  }
  return userBufferFields;
}

/** A read's size, as libuv asks for one (and as node:http's parser reads). */
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * Reads the socket's bytes into `shared` and calls `onBytes` with a view of each read, which is valid only until it
 * returns (the next read of any connection overwrites it: every read is handled before the next is made). Answers how
 * to stop: `handOver` makes each later read a Buffer of its own pushed into the socket's stream, as Node.js's own
 * reader does, for node:http (whose parser reads the socket itself once it has it, but hands it back after an
 * upgrade). Undefined where the socket cannot read so: the caller then listens for `data`.
 */
function readIntoSharedBuffer(
  socket: Socket,
  shared: Buffer,
  onBytes: (bytes: Buffer) => void,
): { handOver: () => void } | undefined {
  const fields = findUserBufferFields();
  const reading = socket as UserBufferSocket;
  const handle = reading._handle;
  if (fields === null || typeof handle?.useUserBuffer !== 'function') return undefined;
  const onRead: ReadCallback = (length, buffer) => {
    onBytes(buffer.subarray(0, length));
    return undefined;
  };
  const pushCopy: ReadCallback = (length, buffer) => socket.push(Buffer.from(buffer.subarray(0, length)));
  reading[fields.buffer] = shared;
  reading[fields.callback] = onRead;
  // biome-ignore lint/correctness/useHookAtTopLevel: Node.js's stream handle method, not a React hook.
  handle.useUserBuffer(shared);
  return { handOver: () => (reading[fields.callback] = pushCopy) };
}

/** A listener of any of a socket's events, as `on` takes it. */
// biome-ignore lint/suspicious/noExplicitAny: listeners of several events with their own arguments, in one list.
type SocketListener = (...args: any[]) => void;

/**
 * Puts the door in front of `server`'s connections: node:http's connection listeners run for a connection only once
 * the door hands it over. The server's closeIdleConnections and closeAllConnections (called by close(), Fastify's
 * shutdown) close the connections still here too: between two requests they are idle.
 */
export function openConnectionDoor(server: Server, answererOf: () => ConnectionAnswerer | undefined): void {
  const nodeListeners = server.listeners('connection') as ConnectionListener[];
  server.removeAllListeners('connection');
  const held = new Set<Socket>();
  /** The door's connections' reads, one at a time (readIntoSharedBuffer). */
  let readBuffer: Buffer | undefined;

  const toNode = (socket: Socket) => {
    for (const listener of nodeListeners) listener.call(server, socket);
  };

  const adopt = (socket: Socket) => {
    const answerer = answererOf();
    // A request limit per connection is node:http's to count; heads node:http would write otherwise are its own.
    if (answerer === undefined || (server.maxRequestsPerSocket ?? 0) > 0 || !canWritePreformattedHeads()) {
      toNode(socket);
      return;
    }
    /**
     * `unanswered`: the bytes from the request handed over on, which node:http reads first (copied: they may lie in
     * the shared read buffer).
     */
    const handOver = (unanswered: Buffer) => {
      for (const [event, listener] of listeners) socket.removeListener(event, listener);
      reader?.handOver();
      socket.setTimeout(0);
      held.delete(socket);
      // node:http's connection listener, called synchronously below, reads the stream from its start: these bytes
      // first, then each later read, which the reader now pushes into the stream (or, without the reader, which
      // arrives as `data` as before).
      socket.unshift(reader ? Buffer.from(unanswered) : unanswered);
      toNode(socket);
    };

    const onData = (chunk: Buffer) => {
      let bytes = chunk;
      while (bytes.length > 0) {
        const end = bytes.indexOf(HEAD_END);
        // A head that is not whole in what arrived goes to node:http with what follows, whose own limits and
        // timeouts (size, headers timeout) then decide: nothing waits here for the rest of a head.
        if (end === -1) {
          handOver(bytes);
          return;
        }
        const request = end <= MAX_HEAD_BYTES ? readPlainGetHead(bytes.toString('latin1', 0, end)) : undefined;
        const answer =
          request === undefined
            ? undefined
            : answerer({ method: 'GET', url: request.url, headers: request.headers, socket }, server.keepAliveTimeout);
        if (answer === undefined) {
          handOver(bytes);
          return;
        }
        writeConnectionAnswer(socket, answer.head, answer.body);
        bytes = bytes.subarray(end + HEAD_END.length);
        // A client that does not read its answers: what it asked for meanwhile goes to node:http, whose own
        // backpressure holds it, rather than every answer of a pipelined burst waiting here in memory.
        if (socket.writableNeedDrain && bytes.length > 0) {
          handOver(bytes);
          return;
        }
      }
      // Nothing more is read from such a client until it has read what it was sent.
      if (socket.writableNeedDrain) socket.pause();
    };
    const onDrain = () => socket.resume();
    // Idle past the keep-alive timeout, as node:http closes an idle connection (nothing is ever half read here).
    const onTimeout = () => socket.destroy();
    // The client closed its side: close ours once what is written is sent (the server allows half-open connections).
    const onEnd = () => socket.end();
    const onError = () => socket.destroy();
    const onClose = () => held.delete(socket);
    /** The door's listeners on the connection, all removed when it hands the connection over. */
    const listeners: Array<[string, SocketListener]> = [
      ['drain', onDrain],
      ['timeout', onTimeout],
      ['end', onEnd],
      ['error', onError],
      ['close', onClose],
    ];

    held.add(socket);
    for (const [event, listener] of listeners) socket.on(event, listener);
    readBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
    const reader = readIntoSharedBuffer(socket, readBuffer, onData);
    if (!reader) {
      socket.on('data', onData);
      listeners.push(['data', onData]);
    }
    socket.setTimeout(server.keepAliveTimeout);
  };
  server.on('connection', adopt);

  /** Closes the connections still here: ends them once what was written is sent. */
  const closeHeld = () => {
    for (const socket of held) {
      if (socket.writableLength > 0) socket.end();
      else socket.destroy();
    }
    held.clear();
  };
  const closeIdleConnections = server.closeIdleConnections.bind(server);
  const closeAllConnections = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdleConnections();
    closeHeld();
  };
  server.closeAllConnections = () => {
    closeAllConnections();
    for (const socket of held) socket.destroy();
    held.clear();
  };
}
