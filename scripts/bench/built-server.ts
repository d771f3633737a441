import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { npmStartOptions } from '../npm-start-options.js';
import { execFileAsync, freePort } from './processes.js';

// The server as it is run: the built server, started with `npm start`'s own Node.js options (read from package.json),
// in a process of its own, so that what the bench measures of it (memory, CPU) holds nothing of the bench, tsx or the
// load generator. The memory figures (bench/memory.ts) and the door figures of bench/composer-doors.ts start it here.

/**
 * Built once per bench run inside node_modules (its packages resolve from there), never over dist/server, with the
 * web app's build (dist/web, when built) linked where the server looks for it, as in `npm start`.
 */
const BUILD_ROOT = path.resolve('node_modules/.cache/packgate-bench/dist');
const BUILD_DIR = path.join(BUILD_ROOT, 'server');

let built: Promise<string> | undefined;

/** Builds the server once per bench run; answers the path of its main.js. */
export function buildServer(): Promise<string> {
  built ??= (async () => {
    await execFileAsync(process.execPath, ['scripts/build-server.mjs'], {
      env: { ...process.env, PACKGATE_BUILD_OUTDIR: BUILD_DIR },
    });
    const web = path.resolve('dist/web');
    await rm(path.join(BUILD_ROOT, 'web'), { force: true });
    if (existsSync(web)) await symlink(web, path.join(BUILD_ROOT, 'web'));
    return path.join(BUILD_DIR, 'main.js');
  })();
  return built;
}

export type BuiltServer = { child: ChildProcess; port: number };

/**
 * The built server `main` on a free loopback port, with `env` over a quiet configuration that never sheds load (the
 * bench loads it on purpose, on a machine that may be busy: measure it, do not shed it); resolves once it is healthy.
 * `preloads`: the bench's own modules loaded into it before main.js (`--import`; bench/bare-in-server.mjs).
 * `wrapper`: a command that runs Node.js under it (valgrind's, bench/instructions.ts), with its own arguments.
 */
export async function startBuiltServer(
  main: string,
  env: Record<string, string>,
  preloads: string[] = [],
  wrapper: string[] = [],
): Promise<BuiltServer> {
  const port = await freePort();
  const imports = preloads.flatMap((file) => ['--import', pathToFileURL(path.resolve(file)).href]);
  const [command, ...args] = [...wrapper, process.execPath, ...npmStartOptions(), ...imports, main];
  const child = spawn(command!, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the built server exited with ${child.exitCode}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
    if (health?.ok) break;
    if (Date.now() > deadline) throw new Error('the built server did not answer within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, port };
}

let clockTicksPerSecond: Promise<number> | undefined;

/**
 * A process's CPU time so far (user and system, all its threads) in µs, from /proc (Linux): what the bench reads of a
 * server in another process without asking it anything, so that reading it adds no request to the measured server.
 */
export async function processCpuMicros(pid: number): Promise<number> {
  clockTicksPerSecond ??= execFileAsync('getconf', ['CLK_TCK']).then(({ stdout }) => Number(stdout.trim()));
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / (await clockTicksPerSecond);
}

/** Resident and peak resident memory of a process, from /proc (Linux). */
export async function residentMemory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}
