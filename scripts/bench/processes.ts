import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bareNodeHandler } from './bare-answers.mjs';

// Child processes of the benchmark (nginx, wrk, a bare Node.js server, composer): loopback only, bounded, and stopped by the
// benchmark itself whatever happens.

export const execFileAsync = promisify(execFile);

const children = new Set<ChildProcess>();

/** Stops every child still running (on exit, and on Ctrl-C). */
export function stopChildren(): void {
  for (const child of children) {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  children.clear();
}

/**
 * Asks a child to stop with `signal` and waits for its exit, at most `boundMs`, then kills it: a server's own stop
 * ends its children and closes its connections (nginx's worker; a Packgate process's database pool).
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, boundMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const bounded = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, boundMs);
  });
  child.kill(signal);
  await Promise.race([exited, bounded]);
  clearTimeout(timer);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.delete(child);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}

export type StaticServer = { port: number; url: string; stop(): Promise<void> };

/**
 * Debian's nginx serving `rootDir` on a free loopback port, one worker process like the one Node.js event loop it
 * is compared with, no access log, files answered with exact `Content-Type: application/json` for `.json`.
 */
export async function startNginx(workDir: string, rootDir: string): Promise<StaticServer> {
  const port = await freePort();
  const prefix = path.join(workDir, 'nginx');
  await mkdir(path.join(prefix, 'logs'), { recursive: true });
  const config = `
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  types { application/json json; application/zip zip; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${rootDir};
  }
}
`;
  const configFile = path.join(prefix, 'nginx.conf');
  await writeFile(configFile, config);
  const child = spawn('nginx', ['-p', prefix, '-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  try {
    await waitForPort(port, 5000);
  } catch (error) {
    child.kill('SIGTERM');
    throw new Error(`nginx did not start: ${errors || (error as Error).message}`);
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stop: () => stopChild(child, 'SIGQUIT', 3000),
  };
}

export type LoadResult = {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  total: number;
  /** Response bytes per second, headers included. */
  bytesPerSecond: number;
  /**
   * Answers by class: wrk counts answers, and those of status 400 and above apart; the bench asks one request of
   * each URL itself first to know the exact status (expectStatus).
   */
  statuses: Record<string, number>;
};

/**
 * What wrk prints when its run is over, through its Lua `done` hook: one JSON line. Latencies are in microseconds;
 * `errors.status` counts answers of status 400 and above, the other errors failed connections, reads and writes.
 */
const WRK_REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\n{"requests":%d,"durationMicros":%d,"bytes":%d,"statusErrors":%d,"socketErrors":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;

let wrkScript: string | undefined;

/**
 * Debian's wrk (C, one thread: the bench's machine has two cores, one for the server measured) in a process of its
 * own. Issue 34: autocannon, in Node.js, topped out near 26,000 to 32,000 requests a second on one core whatever
 * answered, so it measured itself against nginx and a bare Node.js server; wrk reaches nginx's 100,000 and more.
 * `expectError` says the URL answers 4xx (a 404 figure): every answer must then be counted as one.
 */
export async function runLoad(options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  expectError?: boolean;
}): Promise<LoadResult> {
  if (!wrkScript) {
    const folder = await mkdtemp(path.join(tmpdir(), 'packgate-wrk-'));
    // One folder per bench process, removed when it exits (synchronously: `exit` runs no more tasks).
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    wrkScript = path.join(folder, 'report.lua');
    await writeFile(wrkScript, WRK_REPORT);
  }
  const args = [
    '-t1',
    `-c${options.connections}`,
    `-d${options.durationSeconds}s`,
    '--timeout',
    '10s',
    '-s',
    wrkScript,
  ];
  // wrk adds its own Host unless one is named exactly `Host`: a lowercase `host` sent two, and a 400.
  for (const [name, value] of Object.entries(options.headers)) {
    args.push('-H', `${name.toLowerCase() === 'host' ? 'Host' : name}: ${value}`);
  }
  args.push(options.url);
  const { stdout } = await execFileAsync('wrk', args, {
    timeout: (options.durationSeconds + 30) * 1000,
    maxBuffer: 1024 * 1024,
  });
  const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    requests: number;
    durationMicros: number;
    bytes: number;
    statusErrors: number;
    socketErrors: number;
    p50: number;
    p99: number;
  };
  const seconds = report.durationMicros / 1e6;
  const errorAnswers = report.statusErrors;
  const okAnswers = report.requests - errorAnswers;
  return {
    requestsPerSecond: report.requests / seconds,
    latencyP50: report.p50 / 1000,
    latencyP99: report.p99 / 1000,
    non2xx: errorAnswers,
    total: report.requests,
    bytesPerSecond: report.bytes / seconds,
    statuses: {
      ...(okAnswers > 0 ? { 'below 400': okAnswers } : {}),
      ...(errorAnswers > 0 ? { '400 and above': errorAnswers } : {}),
      ...(report.socketErrors > 0 ? { 'socket errors': report.socketErrors } : {}),
    },
  };
}

/** True when every answer of a run is of the expected class (below 400, or 400 and above) and no socket failed. */
export function answeredAsExpected(result: LoadResult, expectStatus: number): boolean {
  const expected = expectStatus >= 400 ? '400 and above' : 'below 400';
  return (result.statuses[expected] ?? 0) === result.total && result.statuses['socket errors'] === undefined;
}

export type DownloadResult = { bytesPerSecond: number; statuses: Record<string, number> };

/** `connections` concurrent downloads of a large file for a while, with wrk as well (it reads bodies of any size). */
export async function runDownloads(options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
}): Promise<DownloadResult> {
  const result = await runLoad(options);
  return { bytesPerSecond: result.bytesPerSecond, statuses: result.statuses };
}

export type BareNodeServer = StaticServer & { pid: number };

/** Headers that each answer has its own of, or that Node.js writes itself: not part of what an answer is made of. */
const PER_ANSWER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'x-request-id']);

/** The headers Packgate answered with, as the bare server's `/as-answered` paths repeat them (bare-node.mjs). */
export function answerHeadersOf(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string' && !PER_ANSWER_HEADERS.has(name)) kept[name] = value;
  }
  return kept;
}

/** Writes each of `files` (URL path → bytes) to a folder of its own under `workDir`; answers URL path → file. */
async function writeBareFiles(files: Record<string, Buffer>, workDir: string): Promise<Record<string, string>> {
  const folder = await mkdtemp(path.join(workDir, 'bare-node-'));
  const manifest: Record<string, string> = {};
  for (const [index, [urlPath, bytes]] of Object.entries(files).entries()) {
    const file = path.join(folder, `${index}.bin`);
    await writeFile(file, bytes);
    manifest[urlPath] = file;
  }
  return manifest;
}

/**
 * The bare server inside the built server's process (bench/bare-in-server.mjs, loaded with `--import` on `port`):
 * given its answers now, through the manifest file it reads at its first request.
 */
export async function armBareInServer(
  bareIn: { port: number; manifestPath: string },
  files: Record<string, Buffer>,
  workDir: string,
  answerHeaders: Record<string, Record<string, string>>,
): Promise<StaticServer> {
  const manifest = { files: await writeBareFiles(files, workDir), answerHeaders };
  await writeFile(bareIn.manifestPath, JSON.stringify(manifest));
  // It stops with the built server.
  return { port: bareIn.port, url: `http://127.0.0.1:${bareIn.port}`, stop: async () => {} };
}

/**
 * A bare `node:http` server in a process of its own, answering each of `files` (URL path → bytes) from memory with
 * one writeHead: the ceiling of one Node.js process for the same bytes, beside nginx's. With `answerHeaders` (URL path
 * → headers, answerHeadersOf), it also answers `/as-answered<path>` with those headers, as the warm door does.
 */
export async function startBareNode(
  files: Record<string, Buffer>,
  workDir: string,
  answerHeaders: Record<string, Record<string, string>> = {},
  /** A command that runs Node.js under it (valgrind's, bench/instructions.ts), and the environment it needs. */
  wrapper: { command: string[]; env: Record<string, string> } = { command: [], env: {} },
): Promise<BareNodeServer> {
  const manifest = await writeBareFiles(files, workDir);
  return startNodeServer(
    'scripts/bench/bare-node.mjs',
    'the bare Node.js server',
    {
      ...wrapper.env,
      BARE_NODE_FILES: JSON.stringify(manifest),
      BARE_NODE_ANSWER_HEADERS: JSON.stringify(answerHeaders),
    },
    wrapper.command,
  );
}

/**
 * One of the bench's own servers (`script`, a Node.js module that prints its port on its first line), in a process
 * of its own with `env` added to the bench's, under `wrapper` when given; stopped with the bench's children.
 */
export async function startNodeServer(
  script: string,
  label: string,
  env: Record<string, string>,
  wrapper: string[] = [],
): Promise<BareNodeServer> {
  const [command, ...args] = [...wrapper, process.execPath, path.resolve(script)];
  const child = spawn(command!, args, {
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(Number(output.trim()));
    });
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
  });
  return { port, url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child, 'SIGTERM', 3000) };
}

/**
 * The same bare server's answers in this process, on a free loopback port: beside Packgate when it runs here, the
 * ceiling of this process (Node.js's own HTTP code runs slower in a process that has run more kinds of objects
 * through it than one server's), against the ceiling of a process of its own (startBareNode).
 */
export async function startBareNodeHere(
  files: Record<string, Buffer>,
  answerHeaders: Record<string, Record<string, string>>,
): Promise<StaticServer> {
  const server = createHttpServer(bareNodeHandler(new Map(Object.entries(files)), answerHeaders));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
