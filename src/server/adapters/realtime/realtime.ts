import type { Server as HttpServer } from 'node:http';

export type RealtimeEvent = 'task-progress' | 'system-notification';

/** Pushes events to one user's open sockets, across processes when Redis is configured. */
export type Realtime = {
  attach(server: HttpServer): Promise<void>;
  sendToUser(userId: string, event: RealtimeEvent, payload: unknown): void;
  close(): Promise<void>;
};
