import { execFile } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { launchProcess } from '../../src/server/adapters/process-launcher/process-launcher.js';

// What starting a git command costs the server's main thread, started directly (child_process.execFile, which
// forks the whole process: Node 20's libuv) or through the launcher process (process-launcher.ts), in a process
// that holds as much memory as a warm server: BENCH_HOLD_MB (default 500) of small objects. Prints the main
// thread's CPU per command and its event loop delay while commands run two at a time.

const HOLD_MB = Number(process.env.BENCH_HOLD_MB ?? 500);
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 400);
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

// About 190 bytes of heap each, like the views and rows a warm server keeps.
const held: unknown[] = [];
for (let index = 0; index < (HOLD_MB * 1024 * 1024) / 190; index++)
  held.push({ index, name: `n${index}`, list: [index] });

const starters = {
  direct: () =>
    new Promise<void>((resolve, reject) =>
      execFile('git', ['--version'], { env }, (error) => (error ? reject(error) : resolve())),
    ),
  launcher: async () => {
    const launched = launchProcess('git', ['--version'], { env });
    launched.stdout.resume();
    launched.stderr.resume();
    await launched.exited;
  },
};

for (const [name, start] of Object.entries(starters)) {
  await start(); // the launcher's own start is not what is measured
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < COMMANDS / 2; index++) await Promise.all([start(), start()]);
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - started;
  delay.disable();
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  console.log(
    `${name.padEnd(8)} ${rssMb.toFixed(0)} MB resident: ${((cpu.user + cpu.system) / 1000 / COMMANDS).toFixed(2)} ms of the main thread's CPU a command, ${(wallMs / COMMANDS).toFixed(2)} ms wall; event loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`,
  );
}
console.log(`(${held.length.toLocaleString('en-US')} objects held)`);
process.exit(0);
