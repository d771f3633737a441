import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RealtimeEvent, RealtimeEventPayloads } from '../../../contract/realtime.js';

export type { RealtimeEvent, RealtimeEventPayloads };

/**
 * The socket's HTTP door: the app's server hands it every request and upgrade under `prefix`, after its own checks
 * (http/http-server.ts, PrefixDoor).
 */
export type RealtimeDoor = {
  prefix: string;
  handleRequest(raw: IncomingMessage, response: ServerResponse): void;
  handleUpgrade(raw: IncomingMessage, socket: Duplex, head: Buffer): void;
};

/** Pushes events to one user's open sockets, across processes when Redis is configured. */
export type Realtime = {
  /** Opens the socket server; its door is then handed to the app's HTTP server. */
  open(): Promise<RealtimeDoor>;
  sendToUser<E extends RealtimeEvent>(userId: string, event: E, payload: RealtimeEventPayloads[E]): void;
  /** Closes the sockets that authenticated with this session (on every process), e.g. after sign-out. */
  disconnectSession(sessionIdHash: string): void;
  close(): Promise<void>;
};
