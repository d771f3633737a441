import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { npmStartOptions } from '../../../scripts/npm-start-options.js';
import { watchChild } from '../../support/child-output.js';
import { openTaskSocket, type TaskSocket } from '../../support/task-socket.js';

// Several built Packgate processes (`node dist/server/main.js`, as production runs them) behind Debian's nginx
// as a round-robin load balancer: the pieces of test/production/cluster.test.ts. Every wait polls with a loud
// bound; every process and folder is recorded so that the test's afterAll removes them even after a failure.

const root = path.resolve(import.meta.dirname, '../../..');
export const builtServer = path.join(root, 'dist/server/main.js');

/** Polls `check` until it answers a value (not undefined); throws `what` with `explain()` at the bound. */
export async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined>,
  options: { timeoutMs: number; intervalMs?: number; explain?: () => string },
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`${what} within ${options.timeoutMs / 1000} s${cause}\n${options.explain?.() ?? ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

/** How long a child asked to stop with its own signal may take before it is killed. */
const GRACEFUL_STOP_MS = 10_000;

/** Temporary folders and child processes of one test file, removed by `cleanUp` whatever happened. */
export class Resources {
  private readonly folders: string[] = [];
  private readonly children: { child: ChildProcess; stopSignal: NodeJS.Signals }[] = [];
  private readonly closers: (() => Promise<unknown>)[] = [];

  folder(prefix: string): string {
    const folder = mkdtempSync(path.join(tmpdir(), prefix));
    this.folders.push(folder);
    return folder;
  }

  /**
   * A child to end at clean-up: with SIGKILL, or first with `stopSignal` for a process that must end its own children
   * (an nginx master killed outright leaves its worker listening, for good).
   */
  child(child: ChildProcess, options: { stopSignal?: NodeJS.Signals } = {}): ChildProcess {
    this.children.push({ child, stopSignal: options.stopSignal ?? 'SIGKILL' });
    return child;
  }

  onCleanUp(close: () => Promise<unknown>): void {
    this.closers.push(close);
  }

  async cleanUp(): Promise<void> {
    for (const { child, stopSignal } of this.children.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(stopSignal);
      const killer = stopSignal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), GRACEFUL_STOP_MS);
      await exited;
      clearTimeout(killer);
    }
    for (const close of this.closers.splice(0).reverse()) await close().catch(() => undefined);
    for (const folder of this.folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  }
}

export type PackgateProcess = {
  name: string;
  port: number;
  /** `http://127.0.0.1:{port}`: this process alone, bypassing the balancer. */
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Starts `node dist/server/main.js` as npm start does, with only the given settings, and waits until /api/health answers 200. */
export async function startPackgate(
  resources: Resources,
  name: string,
  port: number,
  env: Record<string, string>,
  options: { path?: string } = {},
): Promise<PackgateProcess> {
  const dataDir = resources.folder(`packgate-cluster-${name}-`);
  const child = resources.child(
    spawn(process.execPath, [...npmStartOptions(path.join(root, 'package.json')), builtServer], {
      cwd: dataDir,
      env: {
        PATH: options.path ?? process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const { output, exited } = watchChild(child);
  const url = `http://127.0.0.1:${port}`;
  const started: PackgateProcess = { name, port, url, dataDir, child, output, exited };
  await pollUntil(
    `Packgate process ${name} did not answer /api/health`,
    async () => {
      if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}`);
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      return response.status === 200 ? true : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 200, explain: output },
  );
  return started;
}

export type Balancer = {
  port: number;
  /** `http://localhost:{port}`, the PUBLIC_URL of every process behind it. */
  url: string;
  /** The access log: one line per request, `{status} {upstream} {request line}`. */
  accessLog(): string[];
  errorLog(): string;
};

/** The nginx configuration of a round-robin balancer over `upstreamPorts`, with socket.io's websocket upgrade. */
export function nginxConfig(folder: string, listenPort: number, upstreamPorts: number[]): string {
  const servers = upstreamPorts.map((port) => `    server 127.0.0.1:${port};`).join('\n');
  return `daemon off;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 512; }
http {
  client_body_temp_path ${folder}/client-body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  log_format upstreams '$status $upstream_addr "$request"';
  access_log ${folder}/access.log upstreams;
  # socket.io's websocket: pass the upgrade on, close otherwise.
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream packgate {
${servers}
  }
  server {
    listen 127.0.0.1:${listenPort};
    client_max_body_size 20m;
    location / {
      proxy_pass http://packgate;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 300s;
      proxy_buffering off;
      # Which process answered, for the test to see the load spread.
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts Debian's nginx (scripts/install-system-deps.sh installs nginx-light) in the foreground. */
export async function startBalancer(resources: Resources, port: number, upstreamPorts: number[]): Promise<Balancer> {
  const folder = resources.folder('packgate-nginx-');
  const configFile = path.join(folder, 'nginx.conf');
  writeFileSync(configFile, nginxConfig(folder, port, upstreamPorts));
  // SIGTERM: nginx's fast shutdown, which ends the worker too.
  const child = resources.child(
    spawn('nginx', ['-p', folder, '-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] }),
    { stopSignal: 'SIGTERM' },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const errorLog = () => {
    const file = path.join(folder, 'error.log');
    return `${output}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  const url = `http://localhost:${port}`;
  await pollUntil(
    'nginx did not accept connections',
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5_000) });
      return response.status === 200 ? true : undefined;
    },
    { timeoutMs: 30_000, explain: errorLog },
  );
  return {
    port,
    url,
    accessLog: () => {
      const file = path.join(folder, 'access.log');
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    },
    errorLog,
  };
}

/** Checks a configuration with the installed nginx (`nginx -t`); throws nginx's message when it is wrong. */
export function checkNginxConfig(resources: Resources, upstreamPorts: number[]): string {
  const folder = resources.folder('packgate-nginx-check-');
  const configFile = path.join(folder, 'nginx.conf');
  writeFileSync(configFile, nginxConfig(folder, 1, upstreamPorts));
  return execFileSync('nginx', ['-t', '-p', folder, '-c', configFile], { encoding: 'utf8', stdio: 'pipe' });
}

/**
 * A `git` first on the PATH of the processes that holds the clone and fetch of one repository while a gate
 * file exists, so that a test can catch a sync mid-job: it writes the id of the server that called it (its
 * parent's parent: git is started by the server's launcher process) to `entered`, waits while the gate is closed, gives up when that process is gone, and otherwise runs
 * the real git unchanged. Every other call goes straight to the real git.
 */
export type GitGate = {
  /** The PATH for the processes: the gate's folder first. */
  path: string;
  close(): void;
  open(): void;
  /** The pids of the processes whose git call is held (or was), in order. */
  entered(): number[];
};

export function createGitGate(resources: Resources, gatedRepository: string): GitGate {
  const folder = resources.folder('packgate-git-gate-');
  const bin = path.join(folder, 'bin');
  mkdirSync(bin);
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const gateFile = path.join(folder, 'closed');
  const enteredFile = path.join(folder, 'entered');
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh
gated=no
transfer=no
for arg in "$@"; do
  case "$arg" in
    *${quote(gatedRepository)}*) gated=yes ;;
    clone|fetch) transfer=yes ;;
  esac
done
if [ "$gated" = yes ] && [ "$transfer" = yes ] && [ -e ${quote(gateFile)} ]; then
  # git's parent is the server's launcher process (process-launcher.ts); the server is the launcher's parent.
  server=$(sed -n 's/^PPid:[[:space:]]*//p' /proc/$PPID/status)
  echo "$server" >> ${quote(enteredFile)}
  while [ -e ${quote(gateFile)} ]; do
    kill -0 "$server" 2>/dev/null || exit 1
    sleep 0.05
  done
  kill -0 "$server" 2>/dev/null || exit 1
fi
exec ${quote(realGit)} "$@"
`,
  );
  chmodSync(path.join(bin, 'git'), 0o755);
  return {
    path: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    close: () => writeFileSync(gateFile, ''),
    open: () => rmSync(gateFile, { force: true }),
    entered: () =>
      existsSync(enteredFile)
        ? readFileSync(enteredFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => Number(line))
        : [],
  };
}

/** A signed-in seller's socket.io connection through `baseUrl`, the balancer's or one instance's. */
export function watchTasksAt(baseUrl: string, cookie: string, userId: string): Promise<TaskSocket> {
  return openTaskSocket(baseUrl, cookie, userId, 30_000);
}
