import type { AddressInfo } from 'node:net';

/** The URLs of every address the server is bound to, as the start-up banner prints them (IPv6 in brackets). */
export function listenUrls(addresses: Array<AddressInfo | string>): string[] {
  return addresses.map((bound) => {
    if (typeof bound === 'string') return bound; // a Unix socket's path
    const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
    return `http://${host}:${bound.port}`;
  });
}
