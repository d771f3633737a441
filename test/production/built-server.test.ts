// The production build as an operator runs it: `node dist/server/main.js` (what `npm start` runs), no tsx, in a
// folder of its own, stopped by signals. Needs `npm run build` first (`npm test` does it).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/outbox.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtServer = path.join(root, 'dist/server/main.js');
const builtAdmin = path.join(root, 'dist/server/admin.js');

type RunningServer = {
  child: ChildProcess;
  port: number;
  dataDir: string;
  /** Resolves with the first log line that contains `text` (already printed or still to come). */
  waitForLog(text: string): Promise<string>;
  /** Everything it printed so far, to explain a failure. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const started: RunningServer[] = [];
const folders: string[] = [];

function freshFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'packgate-built-'));
  folders.push(folder);
  return folder;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Only what the server needs from this environment, so a developer's own settings do not leak in. */
function baseEnvironment(dataDir: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'info' };
}

async function startBuiltServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = freshFolder();
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', builtServer], {
    cwd: freshFolder(),
    env: { ...baseEnvironment(dataDir), PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters: { text: string; resolve(line: string): void }[] = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const waiter of [...waiters]) {
      const line = output.split('\n').find((candidate) => candidate.includes(waiter.text));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForLog = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const line = output.split('\n').find((candidate) => candidate.includes(text));
      if (line !== undefined) return resolve(line);
      waiters.push({ text, resolve });
      void exited.then(({ code }) => reject(new Error(`server exited (${code}) before logging "${text}":\n${output}`)));
    });
  const server = { child, port, dataDir, waitForLog, output: () => output, exited };
  started.push(server);
  await waitForLog('Packgate is running at');
  return server;
}

/**
 * Sends a sign-in link request whose body stops half-way, so the request is in flight (in the server's hands,
 * its body still arriving) until `finish` sends the rest; `response` is the raw HTTP answer.
 */
async function requestInFlight(server: RunningServer) {
  const body = JSON.stringify({ email: 'seller@example.com', userType: 'seller' });
  const half = Math.floor(body.length / 2);
  const socket: Socket = tcpConnect(server.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let raw = '';
  socket.on('data', (chunk) => {
    raw += chunk.toString('utf8');
  });
  const response = new Promise<string>((resolve) => socket.once('close', () => resolve(raw)));
  socket.on('error', () => {});
  socket.write(
    `POST /api/auth/magic-link HTTP/1.1\r\nHost: localhost:${server.port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
  await server.waitForLog('"url":"/api/auth/magic-link"');
  return { response, finish: () => socket.write(body.slice(half)) };
}

beforeAll(() => {
  if (!existsSync(builtServer)) throw new Error('No server build in dist/server: run `npm run build` first.');
});

afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// Each test starts a fresh PGlite, which is slow on a busy machine.
describe('the built server', { timeout: 180_000 }, () => {
  it('serves the web app and the API from dist without tsx, with the migrations applied', async () => {
    const server = await startBuiltServer();
    const page = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const tiers = await fetch(`http://127.0.0.1:${server.port}/api/pricing-tiers`);
    expect(tiers.status).toBe(200);
  });

  it('lets a request in flight at SIGTERM finish, then closes the database and exits 0', async () => {
    const server = await startBuiltServer();
    const { response, finish } = await requestInFlight(server);

    server.child.kill('SIGTERM');
    await server.waitForLog('shutting down');
    finish();

    expect(await response).toMatch(/^HTTP\/1\.1 200 /);
    expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
    expect(readOutbox(server.dataDir).map((mail) => mail.to)).toEqual(['seller@example.com']);
    // PGlite's lock is released only after the database closed cleanly.
    expect(existsSync(path.join(server.dataDir, 'pglite.lock'))).toBe(false);
  });

  it('exits at once on a second signal while a request holds up the shutdown', async () => {
    const server = await startBuiltServer();
    await requestInFlight(server);

    server.child.kill('SIGTERM');
    await server.waitForLog('shutting down');
    server.child.kill('SIGTERM');

    expect(await server.exited, server.output()).toEqual({ code: 143, signal: null });
    await server.waitForLog('second signal received: exiting at once');
  });

  it('exits anyway when a request outlasts SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const server = await startBuiltServer({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    await requestInFlight(server);

    server.child.kill('SIGTERM');

    expect(await server.exited, server.output()).toEqual({ code: 1, signal: null });
    await server.waitForLog('shutdown did not finish within 1 s: exiting anyway');
  });

  it('runs the admin command line from the build', async () => {
    const dataDir = freshFolder();
    const { stdout } = await promisify(execFile)(process.execPath, [builtAdmin, 'create', 'admin@example.com'], {
      cwd: freshFolder(),
      env: baseEnvironment(dataDir),
    });
    expect(stdout).toContain('Created the admin account admin@example.com');
  });
});
