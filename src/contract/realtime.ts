import { z } from 'zod';

// The realtime channel: socket.io on the app's own host, default namespace.
// Client → server: `authenticate {userId}`. Server → client: `authenticated {userId}`,
// `authentication-error {message}`, `task-progress`, `system-notification`.

export const SOCKET_PATH = '/socket.io';

export const socketEvents = {
  authenticate: 'authenticate',
  authenticated: 'authenticated',
  authenticationError: 'authentication-error',
  taskProgress: 'task-progress',
  systemNotification: 'system-notification',
} as const;

export const authenticatePayload = z.object({ userId: z.string().min(1).max(100) });
export type AuthenticatePayload = z.infer<typeof authenticatePayload>;
export type AuthenticatedPayload = { userId: string };
export type AuthenticationErrorPayload = { message: string };

export const taskTypes = [
  'cache-refresh',
  'cache-clear',
  'package-pre-cache',
  'github-sync',
  'database-operation',
] as const;
export type TaskType = (typeof taskTypes)[number];

export const taskStatuses = ['started', 'progress', 'completed', 'failed'] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/** started and progress mean running; completed and failed are final. Same taskId replaces earlier events. */
export const taskProgressEventSchema = z.object({
  taskId: z.string(),
  type: z.enum(taskTypes),
  status: z.enum(taskStatuses),
  message: z.string(),
  /** Percent, 0 to 100. */
  progress: z.number().min(0).max(100),
  /** ISO time the event was produced. */
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type TaskProgressEvent = z.infer<typeof taskProgressEventSchema>;

/** The spec leaves its shape open; this is what the server sends. */
export const systemNotificationSchema = z.object({
  title: z.string(),
  message: z.string(),
  level: z.enum(['info', 'success', 'warning', 'error']),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type SystemNotification = z.infer<typeof systemNotificationSchema>;

/** Payload of each event the server pushes to a user. */
export type RealtimeEventPayloads = {
  'task-progress': TaskProgressEvent;
  'system-notification': SystemNotification;
};
export type RealtimeEvent = keyof RealtimeEventPayloads;
