import type { Server as HttpServer } from 'node:http';
import type { RealtimeEvent, RealtimeEventPayloads } from '../../../contract/realtime.js';

export type { RealtimeEvent, RealtimeEventPayloads };

/** Pushes events to one user's open sockets, across processes when Redis is configured. */
export type Realtime = {
  attach(server: HttpServer): Promise<void>;
  sendToUser<E extends RealtimeEvent>(userId: string, event: E, payload: RealtimeEventPayloads[E]): void;
  /** Closes the sockets that authenticated with this session (on every process), e.g. after sign-out. */
  disconnectSession(sessionIdHash: string): void;
  close(): Promise<void>;
};
