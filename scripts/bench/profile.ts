import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

// V8's sampling profiler over one stretch of this process's life (the warm door under load), instead of
// `node --cpu-prof` over all of it, whose start-up (module loading, PGlite's initdb, seeding) hid the door's own
// costs. Writes a .cpuprofile (Chrome's DevTools and speedscope open it) and returns the top entries by self time.

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};
export type CpuProfile = { nodes: ProfileNode[]; samples: number[] };

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

/** How long a profiled stretch lasted and how many answers it gave: to turn samples into time per answer. */
export type ProfiledLoad = { seconds: number; answers: number };

/**
 * The functions with the most self time, as shares of the busy (not idle) samples. Samples, not their time deltas: a
 * sample that spans a blocking call (spawning wrk, stopping the profiler) has a delta of milliseconds. With `load`,
 * each also as µs per answer: its share of all samples (idle ones too; V8 samples at a steady pace) of the stretch's
 * time, divided among its answers; a native function's entry (`writev`) includes the kernel's time in it.
 */
export function topEntries(profile: CpuProfile, count: number, load?: ProfiledLoad): string[] {
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
  const perAnswer = (samples: number) =>
    load
      ? `${(((samples / Math.max(1, profile.samples.length)) * load.seconds * 1e6) / Math.max(1, load.answers)).toFixed(2).padStart(6)} µs  `
      : '';
  const entries = [...selfSamples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, samples]) =>
        `${((100 * samples) / Math.max(1, busy)).toFixed(1).padStart(5)}%  ${perAnswer(samples)}${name}`,
    );
  return load ? [`busy: ${perAnswer(busy)}per answer`, ...entries] : entries;
}

/** Polls for `file` (written by another process), up to `boundMs`. */
async function fileAppears(file: string, boundMs: number): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * V8's sampling profile of another process (one that loaded bench/profile-on-signal.mjs with its
 * BENCH_PROFILE_SIGNAL_DIR set to `folder`) over `work`: the profiler is started and stopped by SIGUSR2.
 */
export async function profileProcessWhile<T>(
  pid: number,
  folder: string,
  work: () => Promise<T>,
): Promise<{ profile: CpuProfile; result: T }> {
  const started = path.join(folder, `${pid}.started`);
  const written = path.join(folder, `${pid}.cpuprofile`);
  await rm(started, { force: true });
  await rm(written, { force: true });
  process.kill(pid, 'SIGUSR2');
  await fileAppears(started, 10_000);
  let result: T;
  try {
    result = await work();
  } finally {
    process.kill(pid, 'SIGUSR2');
    await fileAppears(written, 30_000);
  }
  const profile = JSON.parse(await readFile(written, 'utf8')) as CpuProfile | { error: string };
  if ('error' in profile) throw new Error(`the profiler of process ${pid} failed: ${profile.error}`);
  return { profile, result };
}
