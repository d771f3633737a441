import { readdir, readFile, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import path from 'node:path';
import { execFileAsync } from './processes.js';

// Instructions per answer, counted by valgrind's callgrind in a server run under it (bench/door-instructions.ts).
// Wall-clock turns on a shared virtual machine move by 20 to 30% from one to the next; the instructions a server's main
// thread runs for the same answers move by a few percent, so a change worth 1% can be seen. The count is not time:
// a kernel's share, caches and the instructions' own costs are not in it. Callgrind runs the server some fifty times
// slower, so its timers' work (each second's, not each answer's) is measured apart and taken off.

/** The environment callgrind_control must share with the server it asks (vgdb names its pipes after USER and HOST). */
export const VALGRIND_ENV = { USER: 'packgate-bench', HOST: '127.0.0.1' };

/**
 * valgrind's command for a server counted here: nothing counted until asked (`--instr-atstart=no`), each thread in a
 * file of its own, V8's generated code checked for changes (`--smc-check=all-non-file`), dumps named `<prefix>.<pid>`.
 */
export function callgrindCommand(outPrefix: string): string[] {
  return [
    'valgrind',
    '--tool=callgrind',
    '--separate-threads=yes',
    '--instr-atstart=no',
    '--smc-check=all-non-file',
    `--callgrind-out-file=${outPrefix}.%p`,
  ];
}

/** Whether valgrind can be run here. */
export async function hasValgrind(): Promise<boolean> {
  return execFileAsync('valgrind', ['--version']).then(
    () => true,
    () => false,
  );
}

/** The instructions counted in a callgrind dump: its `totals:` line (one event, Ir). */
export function dumpTotal(dump: string): number {
  const line = dump.split('\n').find((entry) => entry.startsWith('totals:'));
  if (!line) throw new Error('the callgrind dump has no totals line');
  const total = Number(line.slice('totals:'.length).trim().split(/\s+/)[0]);
  if (!Number.isFinite(total)) throw new Error(`the callgrind dump's totals line is not a count: ${line}`);
  return total;
}

/** The dump of the main thread among a dump's files (`<prefix>.<pid>.<part>-<thread>`; thread 01 is the main). */
export function mainThreadDump(files: string[], base: string): string | undefined {
  return files.filter((file) => file.startsWith(`${base}.`) && file.endsWith('-01')).sort()[0];
}

async function callgrindControl(pid: number, ...args: string[]): Promise<void> {
  await execFileAsync('callgrind_control', [...args, String(pid)], { env: { ...process.env, ...VALGRIND_ENV } });
}

/** The instructions the main thread of process `pid` ran while `work` ran, and how long that took (seconds). */
export async function countWhile(
  pid: number,
  outPrefix: string,
  work: () => Promise<void>,
): Promise<{ instructions: number; seconds: number }> {
  const folder = path.dirname(outPrefix);
  const base = `${path.basename(outPrefix)}.${pid}`;
  const removeDumps = async () => {
    for (const file of await readdir(folder)) {
      if (file.startsWith(`${base}.`) || file === base) await rm(path.join(folder, file), { force: true });
    }
  };
  await callgrindControl(pid, '--zero');
  await callgrindControl(pid, '--instr=on');
  const startedAt = performance.now();
  await work();
  const seconds = (performance.now() - startedAt) / 1000;
  await callgrindControl(pid, '--instr=off');
  await removeDumps();
  await callgrindControl(pid, '--dump');
  const dump = mainThreadDump(await readdir(folder), base);
  if (!dump) throw new Error(`callgrind wrote no dump of ${pid}'s main thread into ${folder}`);
  const instructions = dumpTotal(await readFile(path.join(folder, dump), 'utf8'));
  await removeDumps();
  return { instructions, seconds };
}

/** `count` GETs one after another on one keep-alive connection; answers the number of each status. */
export async function keepAliveRequests(options: {
  port: number;
  path: string;
  headers: Record<string, string>;
  count: number;
}): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const statuses = new Map<number, number>();
  try {
    for (let sent = 0; sent < options.count; sent++) {
      const status = await new Promise<number>((resolve, reject) => {
        httpRequest(
          { host: '127.0.0.1', port: options.port, path: options.path, headers: options.headers, agent },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        )
          .on('error', reject)
          .end();
      });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  } finally {
    agent.destroy();
  }
  return statuses;
}
