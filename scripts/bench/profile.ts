import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

// V8's sampling profiler over one stretch of this process's life (the warm door under load), instead of
// `node --cpu-prof` over all of it, whose start-up (module loading, PGlite's initdb, seeding) hid the door's own
// costs. Writes a .cpuprofile (Chrome's DevTools and speedscope open it) and returns the top entries by self time.

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[] };

/** Sampling every 100 µs: a warm answer takes tens of microseconds. */
const SAMPLING_INTERVAL_MICROS = 100;

export async function profileWhile(file: string, work: () => Promise<unknown>): Promise<string[]> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_MICROS });
    await session.post('Profiler.start');
    let failure: unknown;
    await work().catch((error: unknown) => {
      failure = error ?? new Error('the profiled work failed');
    });
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    if (failure) throw failure;
    await writeFile(file, JSON.stringify(profile));
    return topEntries(profile, 15);
  } finally {
    session.disconnect();
  }
}

/**
 * The functions with the most self time, as shares of the busy (not idle) samples. Samples, not their time deltas: a
 * sample that spans a blocking call (spawning wrk, stopping the profiler) has a delta of milliseconds.
 */
function topEntries(profile: CpuProfile, count: number): string[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfSamples = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const { functionName, url, lineNumber, columnNumber } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const where = url ? ` ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}:${columnNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    selfSamples.set(name, (selfSamples.get(name) ?? 0) + 1);
    busy++;
  }
  return [...selfSamples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, samples]) => `${((100 * samples) / Math.max(1, busy)).toFixed(1).padStart(5)}%  ${name}`);
}
