import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from '@fastify/proxy-addr';
import type { fastifyTrustProxy } from '../config.js';

// The host and protocol of a raw request, by Fastify's own rule (`request.host`, `request.protocol` in
// fastify/lib/request.js): X-Forwarded-Host and X-Forwarded-Proto count only when the immediate peer is a trusted
// proxy, and then their last entry. The Composer fast path (features/composer/composer-fast-path.ts) answers before
// Fastify builds its request, and must see the same host (which seller) and protocol (the dist URLs) as the routes.

export type RequestOrigin = { host: string; protocol: string };

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
): (raw: IncomingMessage) => RequestOrigin {
  const isTrusted =
    trustProxy === false ? () => false : typeof trustProxy === 'function' ? trustProxy : proxyAddr.compile(trustProxy);
  return (raw) => {
    const socket = raw.socket;
    const isFromProxy = socket?.remoteAddress !== undefined && isTrusted(socket.remoteAddress, 0);
    const forwardedHost = isFromProxy ? singleHeader(raw.headers['x-forwarded-host']) : undefined;
    const forwardedProto = isFromProxy ? singleHeader(raw.headers['x-forwarded-proto']) : undefined;
    return {
      host: forwardedHost ? lastEntry(forwardedHost) : (raw.headers.host ?? ''),
      protocol: forwardedProto
        ? lastEntry(forwardedProto)
        : (socket as TLSSocket | undefined)?.encrypted
          ? 'https'
          : 'http',
    };
  };
}
