import type { Server as HttpServer } from 'node:http';
import type { RealtimeEvent, RealtimeEventPayloads } from '../../../contract/realtime.js';

export type { RealtimeEvent, RealtimeEventPayloads };

/** Pushes events to one user's open sockets, across processes when Redis is configured. */
export type Realtime = {
  attach(server: HttpServer): Promise<void>;
  sendToUser<E extends RealtimeEvent>(userId: string, event: E, payload: RealtimeEventPayloads[E]): void;
  close(): Promise<void>;
};
