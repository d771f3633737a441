import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startBusyStallMonitor } from './busy-stall-monitor.js';

// The fuzz shards' bound on a held event loop (busy-stall-monitor.ts) counts the loop's own thread: work on other
// threads while the loop waits (PGlite's worker thread, V8's collectors) is not a stall of the loop.

/** This thread's CPU time in ms, as the monitor reads it (Linux). */
function threadCpuMs(): number {
  const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

describe('the busy-stall monitor', () => {
  it('counts a loop held by work on its own thread', () => {
    const monitor = startBusyStallMonitor();
    // Held until this thread has worked 300 ms, however long the machine takes to give it that.
    const until = threadCpuMs() + 300;
    while (threadCpuMs() < until) {
      // Work.
    }
    monitor.stop();
    expect(monitor.longestBusyStallMs()).toBeGreaterThanOrEqual(280);
  });

  it("does not count another thread's work while the loop's thread waits", async () => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    // A thread that works until told to stop, and says when it has started.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       parentPort.postMessage('working');
       while (Atomics.load(workerData, 0) === 0) {}`,
      { eval: true, workerData: flag },
    );
    try {
      await new Promise((resolve) => worker.once('message', resolve));
      const monitor = startBusyStallMonitor();
      // The loop's thread waits 300 ms without working while the other thread works.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      monitor.stop();
      expect(monitor.longestBusyStallMs()).toBeLessThan(100);
    } finally {
      Atomics.store(flag, 0, 1);
      await worker.terminate();
    }
  });
});
