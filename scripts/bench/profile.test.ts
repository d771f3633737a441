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

describe('profileProcessWhile', () => {
  const folders: string[] = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  it("profiles another process that loaded profile-on-signal.mjs, only between the bench's two signals", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'packgate-profile-test-'));
    folders.push(folder);
    const preload = pathToFileURL(path.resolve('scripts/bench/profile-on-signal.mjs')).href;
    // A process that spins in a named function until it is told to stop.
    const child = spawn(
      process.execPath,
      [
        '--import',
        preload,
        '-e',
        'function spinForTheProfiler() { const end = Date.now() + 20; while (Date.now() < end); } setInterval(spinForTheProfiler, 25); process.stdout.write("ready\\n");',
      ],
      { env: { ...process.env, BENCH_PROFILE_SIGNAL_DIR: folder }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((resolve) => child.stdout!.once('data', resolve));
      const { profile: taken, result } = await profileProcessWhile(child.pid!, folder, async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return 'done';
      });
      expect(result).toBe('done');
      expect(taken.samples.length).toBeGreaterThan(0);
      expect(topEntries(taken, 3).some((entry) => entry.includes('spinForTheProfiler'))).toBe(true);
      // The profiler is off again: a second stretch can be profiled.
      const again = await profileProcessWhile(child.pid!, folder, () => new Promise((r) => setTimeout(r, 100)));
      expect(again.profile.samples.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
