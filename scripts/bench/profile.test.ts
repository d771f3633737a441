import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type CpuProfile, profileProcessWhile, topEntries } from './profile.js';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0 });

/** Ten samples: four idle, four in writev, two in a function of the app's. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(idle)') },
    { id: 2, callFrame: frame('writev') },
    { id: 3, callFrame: frame('admit', 'file:///srv/server/run-server.js') },
  ],
  samples: [1, 2, 1, 2, 3, 1, 2, 3, 1, 2],
};

describe('topEntries', () => {
  it('lists the busiest functions first, as shares of the busy samples', () => {
    expect(topEntries(profile, 5)).toEqual([' 66.7%  writev', ' 33.3%  admit server/run-server.js:1:1']);
  });

  it('with the load profiled, gives each in µs per answer from its share of all samples, idle ones too', () => {
    // 1 s and 1,000 answers: 1,000 µs per answer, six tenths of it busy, four tenths in writev.
    expect(topEntries(profile, 1, { seconds: 1, answers: 1000 })).toEqual([
      'busy: 600.00 µs  per answer',
      ' 66.7%  400.00 µs  writev',
    ]);
  });
});

/**
 * The share of a profile's samples taken while the process ran JavaScript or V8 (not idle): the spinning process below
 * never waits for anything while profiled. Not its function's name: once V8 inlines the spin into Node's timers code,
 * the samples carry that code's name instead.
 */
function busyShare(taken: CpuProfile): number {
  const idle = new Set(taken.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  return taken.samples.filter((id) => !idle.has(id)).length / Math.max(1, taken.samples.length);
}

describe('profileProcessWhile', () => {
  const folders: string[] = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  it("profiles another process that loaded profile-on-signal.mjs between the bench's two signals, twice", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'packgate-profile-test-'));
    folders.push(folder);
    const preload = pathToFileURL(path.resolve('scripts/bench/profile-on-signal.mjs')).href;
    // A process that spins in a named function, 5 ms at a time, and says so after each: the bench's work below waits
    // for spins, not for time, so that the profile holds them however busy the machine is.
    const child = spawn(
      process.execPath,
      [
        '--import',
        preload,
        '-e',
        'function spinForTheProfiler() { const end = Date.now() + 5; while (Date.now() < end); process.stdout.write("."); setImmediate(spinForTheProfiler); } spinForTheProfiler();',
      ],
      { env: { ...process.env, BENCH_PROFILE_SIGNAL_DIR: folder }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let spins = 0;
    child.stdout!.on('data', (chunk: Buffer) => {
      spins += chunk.length;
    });
    const moreSpins = (count: number) => {
      const until = spins + count;
      return new Promise<void>((resolve) => {
        const check = () => (spins >= until ? resolve() : setTimeout(check, 10));
        check();
      });
    };
    try {
      await moreSpins(1);
      const { profile: taken, result } = await profileProcessWhile(child.pid!, folder, async () => {
        await moreSpins(20);
        return 'done';
      });
      expect(result).toBe('done');
      expect(busyShare(taken)).toBeGreaterThan(0.5);
      // The profiler is off again: a second stretch can be profiled.
      const again = await profileProcessWhile(child.pid!, folder, () => moreSpins(20));
      expect(busyShare(again.profile)).toBeGreaterThan(0.5);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
