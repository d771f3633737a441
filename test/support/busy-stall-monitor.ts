import { readFileSync } from 'node:fs';

/**
 * The longest time this process's event loop was held by work of its own: each loop turn's wall gap, counted only as
 * far as the event loop's thread spent CPU in it. On a shared 2-core machine the wall-clock loop delay mostly measures
 * the scheduler (a fuzz shard saw 37 s gaps at load 20 while its slowest request took 2 s), so a bound on it fails busy
 * machines; a loop held by our own code (a backtracking regular expression, a parse of an unbounded body) burns CPU
 * for as long as it holds the loop, however the scheduler treats the process. Vitest runs each worker as a process
 * of its own (the forks pool). Only the loop's own thread counts: the process's other threads (PGlite's, in a worker
 * thread of its own since 2026-12-02, and V8's collectors) work while the loop waits, and counting them once made a
 * 21 s gap in which the loop's thread waited for a core count as a 12 s stall.
 */
export type BusyStallMonitor = { stop(): void; longestBusyStallMs(): number };

/** Linux's clock ticks a second in /proc (USER_HZ: `getconf CLK_TCK`, 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time of the thread that calls it, in ms (Linux: /proc/thread-self/stat, user and system time in ticks of
 * 10 ms); elsewhere the whole process's, the best there is.
 */
function callingThreadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command's closing parenthesis: state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

export function startBusyStallMonitor(intervalMs = 20): BusyStallMonitor {
  let lastWall = performance.now();
  let lastCpu = callingThreadCpuMs();
  let longest = 0;
  const tick = () => {
    const wall = performance.now();
    const cpu = callingThreadCpuMs();
    // The thread's CPU is counted in ticks of 10 ms: a gap shorter than its tick may show one more tick than it lasted.
    const busy = Math.min(wall - lastWall, cpu - lastCpu);
    if (busy > longest) longest = busy;
    lastWall = wall;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
    },
    longestBusyStallMs: () => longest,
  };
}
