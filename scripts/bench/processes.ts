import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

// Child processes of the benchmark (nginx, autocannon, composer): loopback only, bounded, and stopped by the
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
  /** Answers by status code. */
  statuses: Record<string, number>;
};

/** autocannon in a process of its own, so that it does not share the event loop of the server it measures. */
export async function runLoad(options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
}): Promise<LoadResult> {
  const cli = path.resolve('node_modules/autocannon/autocannon.js');
  const args = [cli, options.url, '-c', String(options.connections), '-d', String(options.durationSeconds), '-n', '-j'];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}=${value}`);
  const { stdout } = await execFileAsync(process.execPath, args, {
    timeout: (options.durationSeconds + 30) * 1000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    throughput: { average: number };
    statusCodeStats?: Record<string, { count: number }>;
    non2xx: number;
    '2xx': number;
  };
  return {
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    non2xx: result.non2xx,
    total: result['2xx'] + result.non2xx,
    bytesPerSecond: result.throughput.average,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count]),
    ),
  };
}

export type DownloadResult = { bytesPerSecond: number; statuses: Record<string, number> };

/** `connections` concurrent downloads of a large file for a while, from a child process (see download-load.ts). */
export async function runDownloads(options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
}): Promise<DownloadResult> {
  const script = path.resolve('scripts/bench/download-load.ts');
  const args = ['--import', 'tsx', script, options.url, String(options.connections), String(options.durationSeconds)];
  for (const [name, value] of Object.entries(options.headers)) args.push(`${name}=${value}`);
  const { stdout } = await execFileAsync(process.execPath, args, {
    timeout: (options.durationSeconds + 120) * 1000,
    maxBuffer: 1024 * 1024,
  });
  const result = JSON.parse(stdout) as { bytes: number; seconds: number; statuses: Record<string, number> };
  return { bytesPerSecond: result.bytes / result.seconds, statuses: result.statuses };
}
