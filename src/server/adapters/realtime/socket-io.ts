import type { IncomingMessage } from 'node:http';
import { Server as EngineServer } from 'engine.io';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  type AuthenticatedPayload,
  type AuthenticationErrorPayload,
  authenticatePayload,
  type RealtimeEventPayloads,
  SOCKET_PATH,
  socketEvents,
} from '../../../contract/realtime.js';
import type { Config } from '../../config.js';
import type { Realtime, RealtimeDoor } from './realtime.js';

type ClientToServerEvents = { authenticate: (payload: unknown) => void };
type ServerToClientEvents = {
  authenticated: (payload: AuthenticatedPayload) => void;
  'authentication-error': (payload: AuthenticationErrorPayload) => void;
} & { [E in keyof RealtimeEventPayloads]: (payload: RealtimeEventPayloads[E]) => void };
/** Who a socket's session cookie signs in: the user whose events it may receive, and the session's room. */
export type SocketSession = { userId: string; sessionIdHash: string };
/** Resolves the handshake's Cookie header to its session; the composition root supplies it. */
export type LoadSocketSession = (cookieHeader: string | undefined) => Promise<SocketSession | undefined>;
/**
 * The host (`hostname[:port]` as parsed, 'invalid' when the Host is not that, undefined when absent) and protocol a
 * handshake was made to, read as every other door reads them (http/request-origin.ts); the composition root supplies
 * the reader, so that this adapter stays below the HTTP layer.
 */
export type HandshakeOrigin = { host: string | 'invalid' | undefined; protocol: string };
export type ReadHandshakeOrigin = (request: IncomingMessage) => HandshakeOrigin;

type AppServer = Server<ClientToServerEvents, ServerToClientEvents>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

export const userRoom = (userId: string) => `user:${userId}`;
/** Every socket also joins its session's room, so that ending the session closes its sockets. */
export const sessionRoom = (sessionIdHash: string) => `session:${sessionIdHash}`;

export const authenticationMessages = {
  notSignedIn: 'Not signed in: sign in, then reconnect.',
  wrongUser: 'This connection is signed in as a different user.',
} as const;

// How long start-up waits for Redis before carrying on (ioredis keeps reconnecting in the background).
const REDIS_READY_TIMEOUT_MS = 5_000;

/**
 * socket.io on the app's own HTTP server, through a door the server hands its requests to (open): not attached to the
 * server, where engine.io would put itself in front of every request. A socket may join only the room of the user its
 * session cookie belongs to: the id the client sends is checked against the cookie, never trusted alone.
 */
export function createRealtime(
  config: Config,
  log: FastifyBaseLogger,
  loadSocketSession: LoadSocketSession,
  originOfRequest: ReadHandshakeOrigin,
): Realtime {
  let io: AppServer | undefined;
  const redisClients: Redis[] = [];

  function handleConnection(socket: AppSocket): void {
    // The handshake's cookie never changes, so its session is loaded once per socket.
    let session: Promise<SocketSession | undefined> | undefined;

    socket.on(socketEvents.authenticate, async (payload) => {
      session ??= loadSocketSession(socket.handshake.headers.cookie).catch((error: unknown) => {
        log.error({ err: error }, 'realtime: loading the session failed');
        return undefined;
      });
      const auth = await session;
      const request = authenticatePayload.safeParse(payload);
      if (!auth) {
        socket.emit(socketEvents.authenticationError, { message: authenticationMessages.notSignedIn });
        return;
      }
      if (!request.success || request.data.userId !== auth.userId) {
        socket.emit(socketEvents.authenticationError, { message: authenticationMessages.wrongUser });
        return;
      }
      await socket.join([userRoom(auth.userId), sessionRoom(auth.sessionIdHash)]);
      socket.emit(socketEvents.authenticated, { userId: auth.userId });
    });
  }

  async function connectRedis(server: AppServer, url: string): Promise<void> {
    // Events published while Redis is down are dropped rather than queued; the subscriptions instead
    // wait for the connection, so that fan-out starts working whenever Redis comes up.
    // Loaded only when Redis is configured: a single process never needs the adapter or ioredis.
    const [{ Redis: RedisClient }, { createAdapter }] = await Promise.all([
      import('ioredis'),
      import('@socket.io/redis-adapter'),
    ]);
    const publisher = new RedisClient(url, { connectTimeout: 2_000, maxRetriesPerRequest: 1 });
    const subscriber = publisher.duplicate({ maxRetriesPerRequest: null });
    for (const client of [publisher, subscriber]) {
      client.on('error', (error) => log.warn({ err: error }, 'realtime: Redis error'));
      catchCommandFailures(client, log);
      redisClients.push(client);
    }
    server.adapter(createAdapter(publisher, subscriber, { key: 'packgate-socket.io' }));
    // A PING answered after the adapter's subscriptions were queued means they are in place, so an
    // event sent by another process right after start-up is not missed.
    const ready = Promise.all([publisher.ping(), subscriber.ping()]).then(
      () => true,
      () => false,
    );
    const isReady = await Promise.race([ready, delay(REDIS_READY_TIMEOUT_MS).then(() => false)]);
    if (!isReady) log.error('realtime: Redis is not reachable yet; events stay on this process until it is');
  }

  return {
    async open(): Promise<RealtimeDoor> {
      // The path is matched by the app's server (the door's prefix), not by the engine.
      const engine = new EngineServer({
        transports: ['polling', 'websocket'],
        allowRequest: (request, callback) => callback(null, isSameOrigin(request, config, originOfRequest)),
      });
      io = new Server<ClientToServerEvents, ServerToClientEvents>({ path: SOCKET_PATH, serveClient: false });
      io.bind(engine);
      if (config.redisUrl) await connectRedis(io, config.redisUrl);
      io.on('connection', handleConnection);
      return {
        // As engine.io matches its path when attached: the path and a slash.
        prefix: `${SOCKET_PATH}/`,
        handleRequest: (raw, response) => engine.handleRequest(raw, response),
        handleUpgrade: (raw, socket, head) => engine.handleUpgrade(raw, socket, head),
      };
    },

    sendToUser(userId, event, payload) {
      if (!io) {
        log.debug({ userId, event }, 'realtime: not open, event dropped');
        return;
      }
      // The emitter's event map is keyed by name; the payload type follows from `event`.
      (io.to(userRoom(userId)).emit as (name: string, data: unknown) => boolean)(event, payload);
    },

    disconnectSession(sessionIdHash) {
      // A signed-out tab must stop receiving the user's events; with Redis this reaches every process.
      io?.in(sessionRoom(sessionIdHash)).disconnectSockets(true);
    },

    async close() {
      const server = io;
      io = undefined;
      if (server) {
        // Not io.close(): it closes the engine alone here, but it would close an HTTP server it was given.
        server.local.disconnectSockets(true);
        await server.of('/').adapter.close();
        server.engine.close();
      }
      await Promise.all(redisClients.splice(0).map(closeRedis));
    },
  };
}

/**
 * Browsers send Origin on cross-site WebSocket and polling requests; only the app's own pages (on the
 * origin they were served from, or the public URL's) may open a socket with the user's cookie. An origin is
 * scheme, host and port: `http://app` is another site than `https://app` (a page on plain http, which anyone on
 * the network can write, must not reach the user's events over the https site's cookie). A Host that is not
 * `hostname[:port]` opens nothing (the one parser, given as originOfRequest: socket.io answers before Fastify's hook).
 */
function isSameOrigin(request: IncomingMessage, config: Config, originOfRequest: ReadHandshakeOrigin): boolean {
  const requestOrigin = originOfRequest(request);
  if (requestOrigin.host === 'invalid') return false;
  const origin = request.headers.origin;
  if (!origin) return true;
  const sentOrigin = originOf(origin);
  if (!sentOrigin) return false;
  return allowedOrigins(requestOrigin, config).includes(sentOrigin);
}

/** The serialized origin of a URL (`https://host:port`, default port omitted), or undefined. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

/** The origin the request was made to (as a trusted proxy reports it, when there is one), and the public URL's. */
function allowedOrigins(requestOrigin: HandshakeOrigin, config: Config): string[] {
  const { host, protocol } = requestOrigin;
  const origins = [originOf(config.publicUrl)];
  // Compared with what the browser sent, not sent anywhere: the parsed host, never the header as written.
  if (host && host !== 'invalid') origins.push(originOf(`${protocol}://${host}`));
  return origins.filter((value): value is string => value !== undefined);
}

/**
 * The Redis adapter sends its commands without handling their promises, so a Redis outage would end
 * the process with an unhandled rejection; a lost realtime event is only logged.
 */
function catchCommandFailures(client: Redis, log: FastifyBaseLogger): void {
  const commands = ['publish', 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'] as const;
  const methods = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const command of commands) {
    const send = methods[command]!.bind(client);
    methods[command] = (...args: unknown[]) =>
      send(...args).catch((error: unknown) => {
        log.warn({ err: error, command }, 'realtime: Redis command failed');
        return undefined;
      });
  }
}

/** QUIT when connected (bounded, it waits for replies); a client still reconnecting is just dropped. */
async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await Promise.race([client.quit().catch(() => undefined), delay(1_000)]);
  }
  client.disconnect();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
