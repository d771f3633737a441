import type { SystemNotification, TaskProgressEvent } from '@contract/realtime';
import { useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';
import { SOCKET_PATH, socketEvents } from '../../contract/realtime';
import {
  SOCKET_CONNECT_TIMEOUT_MS,
  SOCKET_MANUAL_RECONNECT_DELAY_MS,
  SOCKET_RECONNECT_ATTEMPTS,
  SOCKET_RECONNECT_DELAY_MS,
} from './constants';

/**
 * idle (nobody signed in) → connecting (first attempt) → connected (transport up) → authenticated (joined
 * the user's room); disconnected whenever the channel is down, until it is back.
 */
export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'authenticated' | 'disconnected';

export type RealtimeHandlers = {
  onTaskProgress: (event: TaskProgressEvent) => void;
  onSystemNotification: (notification: SystemNotification) => void;
  onAuthenticationError?: (message: string) => void;
};

let socket: Socket | undefined;
let socketUserId: string | undefined;
let status: ConnectionStatus = 'idle';
let manualReconnect: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function setStatus(next: ConnectionStatus): void {
  if (status === next) return;
  status = next;
  for (const listener of listeners) listener();
}

/**
 * Opens the realtime channel for a signed-in user (spec seller-app §9): same origin, websocket with a
 * polling fallback, 10 s connect timeout, 5 reconnection attempts at least 2 s apart. socket.io does not
 * reconnect after a deliberate disconnect by either side, so that is retried by hand after 3 s.
 */
export function startRealtime(userId: string, handlers: RealtimeHandlers): void {
  if (socketUserId === userId) return;
  stopRealtime();
  socketUserId = userId;
  setStatus('connecting');
  // socket.io loads with the first signed-in page: signed-out visitors of the landing page never need it.
  void import('socket.io-client').then(
    ({ io }) => {
      if (socketUserId === userId && !socket) openSocket(io, userId, handlers);
    },
    () => {
      if (socketUserId === userId) setStatus('disconnected');
    },
  );
}

function openSocket(io: typeof import('socket.io-client').io, userId: string, handlers: RealtimeHandlers): void {
  const current = io({
    path: SOCKET_PATH,
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    withCredentials: true,
    timeout: SOCKET_CONNECT_TIMEOUT_MS,
    reconnection: true,
    reconnectionAttempts: SOCKET_RECONNECT_ATTEMPTS,
    reconnectionDelay: SOCKET_RECONNECT_DELAY_MS,
    // No jitter below the base delay: attempts stay at least 2 s apart.
    randomizationFactor: 0,
  });
  socket = current;

  current.on('connect', () => {
    setStatus('connected');
    current.emit(socketEvents.authenticate, { userId });
  });
  current.on(socketEvents.authenticated, () => setStatus('authenticated'));
  current.on(socketEvents.authenticationError, (payload: { message?: string } | undefined) => {
    handlers.onAuthenticationError?.(payload?.message ?? 'Realtime authentication failed');
  });
  current.on(socketEvents.taskProgress, handlers.onTaskProgress);
  current.on(socketEvents.systemNotification, handlers.onSystemNotification);
  // Reconnection attempts keep the status 'disconnected': the badge stays up until the channel is back.
  current.on('connect_error', () => setStatus('disconnected'));
  current.on('disconnect', (reason) => {
    setStatus('disconnected');
    if (socket !== current) return;
    if (reason === 'io client disconnect' || reason === 'io server disconnect') {
      clearTimeout(manualReconnect);
      manualReconnect = setTimeout(() => {
        if (socket === current && !current.connected) current.connect();
      }, SOCKET_MANUAL_RECONNECT_DELAY_MS);
    }
  });
}

/** Closes the channel for good (sign-out, or no user any more). */
export function stopRealtime(): void {
  clearTimeout(manualReconnect);
  manualReconnect = undefined;
  const closing = socket;
  socket = undefined;
  socketUserId = undefined;
  if (closing) {
    closing.removeAllListeners();
    closing.io.removeAllListeners();
    closing.disconnect();
  }
  setStatus('idle');
}

/** Drops the connection and lets the manual reconnect bring it back (used by the debug page). */
export function disconnectRealtime(): void {
  socket?.disconnect();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getConnectionStatus = () => status;

export function useConnectionStatus(): ConnectionStatus {
  return useSyncExternalStore(subscribe, getConnectionStatus, getConnectionStatus);
}

/** Whether the app can count on realtime updates. */
export const isConnected = (value: ConnectionStatus) => value === 'connected' || value === 'authenticated';
