import { io as connect, type Socket } from 'socket.io-client';
import type { TaskProgressEvent } from '../../src/contract/realtime.js';

/** A signed-in seller's or admin's socket.io connection and every task-progress event it has received. */
export type TaskSocket = {
  socket: Socket;
  events: TaskProgressEvent[];
  close(): void;
};

/**
 * Connects to `baseUrl`'s socket.io with the session cookie (websocket only: no sticky sessions needed behind a
 * balancer), authenticates as `userId` and collects every task-progress event from then on. Refuses when the server
 * refuses, the connection fails, or no answer comes within `authenticateWithinMs`.
 */
export async function openTaskSocket(
  baseUrl: string,
  cookie: string,
  userId: string,
  authenticateWithinMs: number,
): Promise<TaskSocket> {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: { cookie },
    reconnection: false,
    forceNew: true,
  });
  const events: TaskProgressEvent[] = [];
  socket.on('task-progress', (event: TaskProgressEvent) => events.push(event));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the socket did not authenticate within ${authenticateWithinMs / 1000} s`)),
      authenticateWithinMs,
    );
    socket.once('authenticated', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('authentication-error', (payload: unknown) => {
      clearTimeout(timer);
      reject(new Error(`authentication refused: ${JSON.stringify(payload)}`));
    });
    socket.once('connect_error', (error: Error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.emit('authenticate', { userId });
  });
  return { socket, events, close: () => socket.disconnect() };
}
