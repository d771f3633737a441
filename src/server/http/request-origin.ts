import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { fastifyTrustProxy } from '../config.js';
import { formatHost, type ParsedHost, parseHostHeader } from './host-header.js';

// The host and protocol of a raw request, by Fastify's own rule (`request.host`, `request.protocol` in
// fastify/lib/request.js): X-Forwarded-Host and X-Forwarded-Proto count only when the immediate peer is a trusted
// proxy, and then their last entry. The Composer fast path (features/composer/composer-fast-path.ts) answers before
// Fastify builds its request, and must see the same host (which seller) as the routes. The host passes the one parser
// (host-header.ts) whichever header carried it: a trusted proxy's X-Forwarded-Host is held to `hostname[:port]` too.
// No URL is built from what this reads (DESIGN "URLs and hosts"): it picks the seller; configuration names the URL.

export type RequestOrigin = {
  /** The parsed host; undefined when the request named none (HTTP/1.0), 'invalid' when it is not hostname[:port]. */
  host: ParsedHost | 'invalid' | undefined;
  /** `http` or `https` as the client used it (a trusted proxy's X-Forwarded-Proto); for same-origin checks only. */
  protocol: string;
};

/** What the origin is read from: node:http's request, or one the connection door read (http/connection-door.ts). */
export type OriginSource = Pick<IncomingMessage, 'headers' | 'socket'>;

/** A request without a socket (none has a peer to trust). */
const NO_PEER = { isFromProxy: false, isEncrypted: false };

function lastEntry(headerValue: string): string {
  const lastComma = headerValue.lastIndexOf(',');
  return lastComma === -1 ? headerValue.trim() : headerValue.slice(lastComma + 1).trim();
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** The origin reader for the app's TRUST_PROXY, as Fastify is given it (`fastifyTrustProxy(config.trustProxy)`). */
export function createRequestOrigin(
  trustProxy: ReturnType<typeof fastifyTrustProxy>,
): (raw: OriginSource) => RequestOrigin {
  const isTrusted =
    trustProxy === false ? () => false : typeof trustProxy === 'function' ? trustProxy : proxyAddr.compile(trustProxy);
  /**
   * What a connection's requests share. Its peer, and so whether that peer is a trusted proxy, and its TLS are fixed
   * for the connection's life: read once, not at every request (issue 34: a read across 50 connections in turn cost
   * 134 ns with the peer's address and the trust rule at each request, 40 ns now). And its last host as written and
   * as parsed: a client names the same host on every request of a connection, comparing the text costs less than
   * parsing it again, and the parse is the same object, which the Composer fast path keeps what it resolves from.
   */
  type Connection = {
    isFromProxy: boolean;
    isEncrypted: boolean;
    hostText: string | undefined;
    host: ParsedHost | 'invalid' | undefined;
  };
  const connections = new WeakMap<object, Connection>();
  const connectionOf = (socket: IncomingMessage['socket'] | null | undefined): Connection | undefined => {
    // A request made in process (Fastify's inject) may have no socket: it is read each time.
    if (!socket) return undefined;
    let connection = connections.get(socket);
    if (connection === undefined) {
      const address = socket.remoteAddress;
      connection = {
        isFromProxy: address !== undefined && isTrusted(address, 0),
        isEncrypted: (socket as TLSSocket).encrypted === true,
        hostText: undefined,
        host: undefined,
      };
      connections.set(socket, connection);
    }
    return connection;
  };
  const hostOn = (connection: Connection | undefined, text: string): ParsedHost | 'invalid' => {
    if (connection?.hostText === text) return connection.host!;
    // Frozen: the same parse now answers every request of the connection, so none may change it for the next.
    const host = Object.freeze(parseHostHeader(text)) ?? 'invalid';
    if (connection) {
      connection.hostText = text;
      connection.host = host;
    }
    return host;
  };
  /**
   * The last request read and its origin. The edge (http-server.ts) and the fast path ask about the same request one
   * after the other, synchronously, so one slot answers the second; anyone asking later (Fastify's hook) reads again,
   * which costs a lookup and a string comparison per connection. Nothing is written on the request itself: a property
   * added to node:http's IncomingMessage gives it a new hidden class, and that cost the warm door more than the read
   * (issue 34: 0.4 µs an answer, bench/door-javascript.ts).
   */
  let lastRaw: OriginSource | undefined;
  let lastOrigin: RequestOrigin | undefined;
  return (raw) => {
    if (raw === lastRaw && lastOrigin !== undefined) return lastOrigin;
    const connection = connectionOf(raw.socket as IncomingMessage['socket'] | null | undefined);
    const { isFromProxy, isEncrypted } = connection ?? NO_PEER;
    const forwardedHost = isFromProxy ? singleHeader(raw.headers['x-forwarded-host']) : undefined;
    const forwardedProto = isFromProxy ? singleHeader(raw.headers['x-forwarded-proto']) : undefined;
    const hostHeader = forwardedHost ? lastEntry(forwardedHost) : raw.headers.host;
    const origin: RequestOrigin = {
      host: hostHeader === undefined ? undefined : hostOn(connection, hostHeader),
      protocol: forwardedProto ? lastEntry(forwardedProto) : isEncrypted ? 'https' : 'http',
    };
    lastRaw = raw;
    lastOrigin = origin;
    return origin;
  };
}

/** The origin as the realtime adapter compares it with a browser's Origin (adapters/realtime/socket-io.ts). */
export function handshakeOrigin(origin: RequestOrigin): { host: string | 'invalid' | undefined; protocol: string } {
  const { host, protocol } = origin;
  return { host: host === undefined || host === 'invalid' ? host : formatHost(host), protocol };
}
