import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parsedRequest } from '../../../test/support/parsed-request.js';
import { decideRequestId, requestIdOf } from './request-id.js';
import { createRequestOrigin } from './request-origin.js';

const ownKeys = (request: IncomingMessage) => Reflect.ownKeys(request).length;

describe('a request read at the edge and again by the warm door', () => {
  it('gives the same origin twice in a row, and again later after other requests, without writing on the request', () => {
    const originOf = createRequestOrigin(false);
    const socket = new Socket();
    const first = parsedRequest(socket, ['Host', 'acme.composer.localhost:5000'], '/packages.json');
    const keys = ownKeys(first);
    const atTheEdge = originOf(first);
    expect(originOf(first)).toBe(atTheEdge);
    expect(atTheEdge).toEqual({ host: { hostname: 'acme.composer.localhost', port: 5000 }, protocol: 'http' });
    const other = parsedRequest(new Socket(), ['Host', 'other.composer.localhost'], '/packages.json');
    expect(originOf(other).host).toEqual({ hostname: 'other.composer.localhost', port: undefined });
    // Fastify's hook asks later, after other requests: the same reading, the same parse of the connection's host.
    expect(originOf(first)).toEqual(atTheEdge);
    expect(originOf(first).host).toBe(atTheEdge.host);
    expect(ownKeys(first)).toBe(keys);
  });

  it("takes a trusted proxy's forwarded host at each request of its connection, and never another peer's", () => {
    const originOf = createRequestOrigin(['10.0.0.0/8']);
    const peerAt = (address: string) => Object.defineProperty(new Socket(), 'remoteAddress', { value: address });
    const proxy = peerAt('10.0.0.5');
    const forwarded = (host: string, proto: string) =>
      parsedRequest(proxy, ['Host', 'internal:8080', 'X-Forwarded-Host', host, 'X-Forwarded-Proto', proto], '/x');
    // One keep-alive connection from the proxy carries several clients' requests: each is read on its own.
    expect(originOf(forwarded('acme.composer.localhost', 'https'))).toEqual({
      host: { hostname: 'acme.composer.localhost', port: undefined },
      protocol: 'https',
    });
    expect(originOf(forwarded('other.composer.localhost', 'http'))).toEqual({
      host: { hostname: 'other.composer.localhost', port: undefined },
      protocol: 'http',
    });
    expect(originOf(parsedRequest(proxy, ['Host', 'internal:8080'], '/x'))).toEqual({
      host: { hostname: 'internal', port: 8080 },
      protocol: 'http',
    });
    const client = peerAt('203.0.113.9');
    const spoofed = [
      'Host',
      'acme.composer.localhost',
      'X-Forwarded-Host',
      'evil.example',
      'X-Forwarded-Proto',
      'https',
    ];
    for (let request = 0; request < 2; request++) {
      expect(originOf(parsedRequest(client, spoofed, '/x'))).toEqual({
        host: { hostname: 'acme.composer.localhost', port: undefined },
        protocol: 'http',
      });
    }
  });

  it("decides the warm door's request id without keeping it, while requestIdOf keeps one for the edge and Fastify", () => {
    const socket = new Socket();
    const passed = parsedRequest(
      socket,
      ['Host', 'acme.composer.localhost', 'X-Request-Id', 'composer-run-1'],
      '/packages.json',
    );
    expect(decideRequestId(passed)).toBe('composer-run-1');
    const fresh = parsedRequest(
      socket,
      ['Host', 'acme.composer.localhost', 'X-Request-Id', 'not safe'],
      '/packages.json',
    );
    const keys = ownKeys(fresh);
    const decided = decideRequestId(fresh);
    expect(decided).toMatch(/^[0-9a-f-]{36}$/);
    expect(decideRequestId(fresh)).not.toBe(decided);
    expect(ownKeys(fresh)).toBe(keys);
    const kept = requestIdOf(fresh);
    expect(kept).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(fresh)).toBe(kept);
  });
});
