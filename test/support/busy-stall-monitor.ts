/**
 * The longest time this process's event loop was held by work of its own: each loop turn's wall gap, counted only as
 * far as the process spent CPU in it. On a shared 2-core machine the wall-clock loop delay mostly measures the
 * scheduler (a fuzz shard saw 37 s gaps at load 20 while its slowest request took 2 s), so a bound on it fails busy
 * machines; a loop held by our own code (a backtracking regular expression, a parse of an unbounded body) burns CPU
 * for as long as it holds the loop, however the scheduler treats the process. Vitest runs each worker as a process
 * of its own (the forks pool), so the CPU counted is this worker's.
 */
export type BusyStallMonitor = { stop(): void; longestBusyStallMs(): number };

export function startBusyStallMonitor(intervalMs = 20): BusyStallMonitor {
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  let longest = 0;
  const tick = () => {
    const wall = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    // CPU of every thread of the process can exceed the wall gap (GC helpers): the loop was held at most the gap.
    const busy = Math.min(wall - lastWall, (cpu.user + cpu.system) / 1000);
    if (busy > longest) longest = busy;
    lastWall = wall;
    lastCpu = process.cpuUsage();
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
