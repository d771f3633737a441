import { connect as connectTcp } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw } from '../../../../test/support/raw-http.js';
import { type SignedIn, signIn, signInAdmin, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import { apiErrorSchema } from '../../../contract/errors.js';
import type { TaskProgressEvent } from '../../../contract/realtime.js';
import { authenticationMessages } from './socket-io.js';

const openSockets: Socket[] = [];

/**
 * The first bytes answered to a WebSocket upgrade of `path` on `host` (its status line when upgraded or refused in
 * HTTP), or '' when the server closes the connection without a word.
 */
function upgradeAnswer(port: number, path: string, host: string): Promise<string> {
  const request = [
    `GET ${path} HTTP/1.1`,
    `Host: ${host}`,
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1', () => socket.write(request));
    let answered = '';
    socket.on('data', (chunk: Buffer) => {
      answered += chunk.toString('latin1');
      // The status line is enough; an upgraded socket would stay open.
      if (answered.includes('\r\n')) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answered.split('\r\n')[0] ?? ''));
  });
}

function connectTo(app: TestApp, options: { cookie?: string; transport?: 'websocket' | 'polling' } = {}): Socket {
  const socket = connect(app.baseUrl, {
    path: '/socket.io',
    transports: [options.transport ?? 'websocket'],
    extraHeaders: options.cookie ? { cookie: options.cookie } : {},
    reconnection: false,
    forceNew: true,
  });
  openSockets.push(socket);
  return socket;
}

const cookieOf = (signedIn: SignedIn) => `${signedIn.cookieName}=${signedIn.cookie}`;

/** Sends `authenticate` and resolves with whichever answer comes back. */
function authenticate(socket: Socket, userId: string): Promise<{ event: string; payload: unknown }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer to authenticate')), 5_000);
    const settle = (event: string) => (payload: unknown) => {
      clearTimeout(timer);
      socket.off('authenticated');
      socket.off('authentication-error');
      resolve({ event, payload });
    };
    socket.once('authenticated', settle('authenticated'));
    socket.once('authentication-error', settle('authentication-error'));
    socket.emit('authenticate', { userId });
  });
}

function nextEvent<T>(socket: Socket, event: string, timeoutMs = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Collects every event of a kind, to show (with a later event awaited) that something did not arrive. */
function collect(socket: Socket, event: string): unknown[] {
  const received: unknown[] = [];
  socket.on(event, (payload: unknown) => received.push(payload));
  return received;
}

const progress = (taskId: string): TaskProgressEvent => ({
  taskId,
  type: 'cache-refresh',
  status: 'progress',
  message: 'Refreshing 2 of 4 packages',
  progress: 50,
  timestamp: '2026-03-01T12:00:00.000Z',
  data: { packageCount: 4 },
});

afterEach(() => {
  for (const socket of openSockets.splice(0)) socket.disconnect();
});

describe('realtime socket', () => {
  let app: TestApp;
  let sellerA: SignedIn;
  let sellerB: SignedIn;
  beforeAll(async () => {
    app = await startTestApp();
    sellerA = await signInSeller(app);
    sellerB = await signInSeller(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('authenticates a socket as the user of its own session cookie', async () => {
    const socket = connectTo(app, { cookie: cookieOf(sellerA) });
    expect(await authenticate(socket, sellerA.user.id)).toEqual({
      event: 'authenticated',
      payload: { userId: sellerA.user.id },
    });
  });

  it('refuses a user id that is not the session cookie’s', async () => {
    const socket = connectTo(app, { cookie: cookieOf(sellerA) });
    expect(await authenticate(socket, sellerB.user.id)).toEqual({
      event: 'authentication-error',
      payload: { message: authenticationMessages.wrongUser },
    });
    const received = collect(socket, 'task-progress');
    app.ctx.realtime.sendToUser(sellerB.user.id, 'task-progress', progress('not-for-a'));
    // Events reach a socket in order: once a later one for its own user arrives, the first would have too.
    expect((await authenticate(socket, sellerA.user.id)).event).toBe('authenticated');
    const later = nextEvent(socket, 'task-progress');
    app.ctx.realtime.sendToUser(sellerA.user.id, 'task-progress', progress('for-a'));
    await later;
    expect(received).toEqual([progress('for-a')]);
  });

  it('refuses a socket without a session cookie, or with an unknown one', async () => {
    const anonymous = connectTo(app);
    expect(await authenticate(anonymous, sellerA.user.id)).toEqual({
      event: 'authentication-error',
      payload: { message: authenticationMessages.notSignedIn },
    });
    const forged = connectTo(app, { cookie: `${sellerA.cookieName}=pgs_forged` });
    expect((await authenticate(forged, sellerA.user.id)).event).toBe('authentication-error');
  });

  it('refuses a malformed authenticate payload', async () => {
    const socket = connectTo(app, { cookie: cookieOf(sellerA) });
    const answer = nextEvent<{ message: string }>(socket, 'authentication-error');
    socket.emit('authenticate', 'not an object');
    expect(await answer).toEqual({ message: authenticationMessages.wrongUser });
  });

  it('closes a session’s sockets when it signs out, and leaves the user’s other sessions connected', async () => {
    const signedOut = await signIn(app, { user: sellerA.user });
    const leaving = connectTo(app, { cookie: cookieOf(signedOut) });
    const staying = connectTo(app, { cookie: cookieOf(sellerA) });
    await authenticate(leaving, sellerA.user.id);
    await authenticate(staying, sellerA.user.id);
    const closed = nextEvent<string>(leaving, 'disconnect');

    expect((await signedOut.client.post('/api/auth/logout')).status).toBe(200);
    expect(await closed).toBe('io server disconnect');

    const received = collect(leaving, 'task-progress');
    const arrival = nextEvent<TaskProgressEvent>(staying, 'task-progress');
    app.ctx.realtime.sendToUser(sellerA.user.id, 'task-progress', progress('after-sign-out'));
    expect((await arrival).taskId).toBe('after-sign-out');
    expect(received).toEqual([]);
  });

  it('authenticates an impersonation as the impersonated user only', async () => {
    const admin = await signInAdmin(app);
    const impersonation = await signIn(app, { user: sellerA.user, impersonatorId: admin.user.id });
    const socket = connectTo(app, { cookie: cookieOf(impersonation) });
    expect((await authenticate(socket, admin.user.id)).event).toBe('authentication-error');
    expect((await authenticate(socket, sellerA.user.id)).event).toBe('authenticated');
  });

  it('sends task progress and notifications to the user’s sockets only', async () => {
    const socketA = connectTo(app, { cookie: cookieOf(sellerA) });
    const secondTabA = connectTo(app, { cookie: cookieOf(sellerA), transport: 'polling' });
    const socketB = connectTo(app, { cookie: cookieOf(sellerB) });
    await authenticate(socketA, sellerA.user.id);
    await authenticate(secondTabA, sellerA.user.id);
    await authenticate(socketB, sellerB.user.id);
    const receivedByB = collect(socketB, 'task-progress');

    const arrivals = [nextEvent(socketA, 'task-progress'), nextEvent(secondTabA, 'task-progress')];
    app.ctx.realtime.sendToUser(sellerA.user.id, 'task-progress', progress('task-1'));
    expect(await Promise.all(arrivals)).toEqual([progress('task-1'), progress('task-1')]);

    const notification = nextEvent(socketA, 'system-notification');
    app.ctx.realtime.sendToUser(sellerA.user.id, 'system-notification', {
      title: 'Maintenance',
      message: 'Package downloads pause for a minute at 02:00 UTC.',
      level: 'info',
      timestamp: '2026-03-01T12:00:00.000Z',
    });
    expect(await notification).toMatchObject({ title: 'Maintenance', level: 'info' });

    const laterForB = nextEvent(socketB, 'task-progress');
    app.ctx.realtime.sendToUser(sellerB.user.id, 'task-progress', progress('task-for-b'));
    await laterForB;
    expect(receivedByB).toEqual([progress('task-for-b')]);
  });

  it('sends nothing to a socket that never authenticated', async () => {
    const socket = connectTo(app, { cookie: cookieOf(sellerA) });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const received = collect(socket, 'task-progress');
    app.ctx.realtime.sendToUser(sellerA.user.id, 'task-progress', progress('task-2'));
    expect((await authenticate(socket, sellerA.user.id)).event).toBe('authenticated');
    const later = nextEvent(socket, 'task-progress');
    app.ctx.realtime.sendToUser(sellerA.user.id, 'task-progress', progress('task-3'));
    await later;
    expect(received).toEqual([progress('task-3')]);
  });

  it('refuses a handshake from another site’s page', async () => {
    const response = await fetch(`${app.baseUrl}/socket.io/?EIO=4&transport=polling`, {
      headers: { origin: 'https://evil.example', cookie: cookieOf(sellerA) },
    });
    expect(response.status).toBe(403);
    const sameSite = await fetch(`${app.baseUrl}/socket.io/?EIO=4&transport=polling`, {
      headers: { origin: app.baseUrl },
    });
    expect(sameSite.status).toBe(200);
  });

  it('refuses a handshake whose Host is not hostname[:port] at the edge, even with a matching Origin', async () => {
    // `Host: 127.0.0.1:{port}@evil.example` and Origin `http://127.0.0.1:{port}@evil.example` once matched.
    const host = `${new URL(app.baseUrl).host}@evil.example`;
    const answer = await sendRaw(
      app.port,
      `GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\nCookie: ${cookieOf(sellerA)}`,
    );
    // The edge's answer to every door (http-server.ts), in the error shape, not the socket server's.
    expect(answer.status).toBe(400);
    expect(apiErrorSchema.parse(JSON.parse(answer.body)).status).toBe(400);
    const upgrade = await upgradeAnswer(app.port, '/socket.io/?EIO=4&transport=websocket', host);
    expect(upgrade).toBe('');
  });

  it('names each polling answer in X-Request-Id, as every other answer', async () => {
    const response = await fetch(`${app.baseUrl}/socket.io/?EIO=4&transport=polling`, {
      headers: { origin: app.baseUrl, 'x-request-id': 'socket-handshake-1' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('socket-handshake-1');
  });

  it('upgrades only the socket path: any other WebSocket upgrade is closed unanswered', async () => {
    const host = new URL(app.baseUrl).host;
    expect(await upgradeAnswer(app.port, '/socket.io/?EIO=4&transport=websocket', host)).toMatch(/^HTTP\/1\.1 101 /);
    for (const path of ['/api/csrf-token', '/packages.json', '/socket.iox/?EIO=4&transport=websocket']) {
      expect(await upgradeAnswer(app.port, path, host), path).toBe('');
    }
  });

  it('refuses a handshake from the same host on another scheme or port', async () => {
    const host = new URL(app.baseUrl).host;
    for (const origin of [`https://${host}`, `http://127.0.0.1:${app.port + 1}`, `ws://${host}`]) {
      const response = await fetch(`${app.baseUrl}/socket.io/?EIO=4&transport=polling`, {
        headers: { origin, cookie: cookieOf(sellerA) },
      });
      expect(response.status, origin).toBe(403);
    }
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('realtime fan-out through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    [first, second] = await Promise.all([startTestApp({ redis: true }), startTestApp({ redis: true })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('delivers an event sent by one process to a socket connected to another', async () => {
    // Each test app has a database of its own: the session lives where the socket connects.
    const seller = await signInSeller(second);
    const other = await signInSeller(second);
    const socket = connectTo(second, { cookie: cookieOf(seller) });
    const otherSocket = connectTo(second, { cookie: cookieOf(other) });
    expect((await authenticate(socket, seller.user.id)).event).toBe('authenticated');
    expect((await authenticate(otherSocket, other.user.id)).event).toBe('authenticated');
    const receivedByOther = collect(otherSocket, 'task-progress');

    const arrival = nextEvent(socket, 'task-progress');
    first.ctx.realtime.sendToUser(seller.user.id, 'task-progress', progress('fan-out'));
    expect(await arrival).toEqual(progress('fan-out'));
    // Redis delivers one publisher's messages in order: a later event for the other user closes the window.
    const laterForOther = nextEvent(otherSocket, 'task-progress');
    first.ctx.realtime.sendToUser(other.user.id, 'task-progress', progress('fan-out-other'));
    await laterForOther;
    expect(receivedByOther).toEqual([progress('fan-out-other')]);
  });
});
