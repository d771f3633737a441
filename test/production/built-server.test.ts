// The production build as an operator runs it: `node <npm start's options> dist/server/main.js`, no tsx, in a
// folder of its own, stopped by signals. Needs `npm run build` first (`npm test` does it).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { type Socket, connect as tcpConnect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { npmStartOptions } from '../../scripts/npm-start-options.js';
import { freePort } from '../support/free-port.js';
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

/**
 * Only what the server needs from this environment, so a developer's own settings do not leak in. No shedding on
 * event-loop delay: on a busy machine a freshly started server's loop lags, and it answered these tests' first
 * requests 503 (overload shedding has tests of its own).
 */
function baseEnvironment(dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  };
}

/**
 * Starts `node dist/server/main.js` on a free port; `from` is a data folder to start from a copy of. A setting
 * given as undefined is left unset.
 */
async function startBuiltServer(env: Record<string, string | undefined> = {}, from?: string): Promise<RunningServer> {
  const dataDir = freshFolder();
  if (from) cpSync(from, dataDir, { recursive: true });
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = { ...baseEnvironment(dataDir), PORT: String(port), ...env };
  for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name];
  const child = spawn(process.execPath, [...npmStartOptions(path.join(root, 'package.json')), builtServer], {
    cwd: freshFolder(),
    env: environment,
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

/**
 * A data folder the built admin command line has created an admin in, migrating its PGlite first: the tests of
 * signals start their servers from copies of it, as a restarted installation, instead of migrating again each.
 */
let migratedDataDir: string;
let adminCreateOutput: string;

beforeAll(async () => {
  if (!existsSync(builtServer)) throw new Error('No server build in dist/server: run `npm run build` first.');
  migratedDataDir = mkdtempSync(path.join(tmpdir(), 'packgate-built-'));
  const adminCwd = mkdtempSync(path.join(tmpdir(), 'packgate-built-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [builtAdmin, 'create', 'admin@example.com'], {
      cwd: adminCwd,
      env: baseEnvironment(migratedDataDir),
    });
    adminCreateOutput = stdout;
  } finally {
    rmSync(adminCwd, { recursive: true, force: true });
  }
}, 180_000);

afterAll(() => {
  if (migratedDataDir) rmSync(migratedDataDir, { recursive: true, force: true });
});

afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// Migrating a fresh PGlite is slow on a busy machine: only the first test starts from an empty folder.
describe('the built server', { timeout: 180_000 }, () => {
  it('serves the web app and the API from dist without tsx, with the migrations applied', async () => {
    const server = await startBuiltServer();
    const page = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(page.status).toBe(200);
    // The page is asked for again each time; the hashed scripts and styles it names are kept by the browser.
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const response = await fetch(`http://127.0.0.1:${server.port}/${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
    }
    const unhashed = await fetch(`http://127.0.0.1:${server.port}/favicon.svg`);
    expect(unhashed.status).toBe(200);
    expect(unhashed.headers.get('cache-control')).toBe('no-cache');
    const tiers = await fetch(`http://127.0.0.1:${server.port}/api/pricing-tiers`);
    expect(tiers.status).toBe(200);
  });

  it('lets a request in flight at SIGTERM finish, then closes the database and exits 0', async () => {
    const server = await startBuiltServer({}, migratedDataDir);
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
    const server = await startBuiltServer({}, migratedDataDir);
    await requestInFlight(server);

    server.child.kill('SIGTERM');
    await server.waitForLog('shutting down');
    server.child.kill('SIGTERM');

    expect(await server.exited, server.output()).toEqual({ code: 143, signal: null });
    await server.waitForLog('second signal received: exiting at once');
  });

  it('exits anyway when a request outlasts SHUTDOWN_TIMEOUT_SECONDS', async () => {
    const server = await startBuiltServer({ SHUTDOWN_TIMEOUT_SECONDS: '1' }, migratedDataDir);
    await requestInFlight(server);

    server.child.kill('SIGTERM');

    expect(await server.exited, server.output()).toEqual({ code: 1, signal: null });
    await server.waitForLog('shutdown did not finish within 1 s: exiting anyway');
  });

  it('listens on loopback only unless HOST says otherwise, and names every address in its banner', async () => {
    const server = await startBuiltServer({ HOST: undefined }, migratedDataDir);
    await server.waitForLog('Create an admin'); // the banner's last line
    const banner =
      server
        .output()
        .split('\n')
        .find((line) => line.includes('Listening on'))
        ?.trim() ?? 'no banner line';
    // `localhost` is what the name resolves to here: 127.0.0.1, and ::1 where the hosts file names it so.
    const loopback = /^Listening on (.+) \(this machine only; set HOST to listen elsewhere\)$/
      .exec(banner)?.[1]
      ?.split(', ');
    expect(loopback, banner).toContain(`http://127.0.0.1:${server.port}`);
    for (const url of loopback!) {
      expect([`http://127.0.0.1:${server.port}`, `http://[::1]:${server.port}`]).toContain(url);
      expect((await fetch(`${url}/api/pricing-tiers`)).status, url).toBe(200);
    }
    // From any other address of this machine, nothing answers.
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((each) => each !== undefined && !each.internal && !each.address.startsWith('fe80'));
    expect(others.length, 'this test needs a network interface besides loopback').toBeGreaterThan(0);
    for (const other of others) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = tcpConnect({ host: other!.address, port: server.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      expect(reached, other!.address).toBe(false);
    }
  });

  it('runs the admin command line from the build', () => {
    // The command ran in beforeAll, on an empty data folder, to make the folder the other tests start from.
    expect(adminCreateOutput).toContain('Created the admin account admin@example.com');
  });
});
