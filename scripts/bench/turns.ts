import { median } from './percentile.js';
import { answeredAsExpected, type LoadResult, runLoad } from './processes.js';

// Load figures taken in turns (npm run bench's (a) to (d), and bench/composer-doors.ts): on a machine shared with other
// work the load moves between runs, and figures taken side by side move together, so the ratio of two figures taken
// in the same turns moves far less than one of figures taken minutes apart.

export type Measured = {
  requestsPerSecond: number;
  latencyP99: number;
  bytesPerSecond: number;
  /** The answering server's CPU time per request, where it can be read (ours, bare Node.js); 0 for nginx. */
  cpuMicrosPerRequest: number;
  runs: LoadResult[];
};

export type LoadTarget = {
  url: string;
  headers: Record<string, string>;
  expectStatus: number;
  /** The answering process's CPU time so far, in µs, where it can be read: ownCpuMicros, bareNodeCpuMicros. */
  serverCpuMicros?: () => number | Promise<number>;
  /** Called before each of this target's runs (a bench switch, such as counting off, for this target only). */
  before?: () => void;
  /** Called after each of this target's runs, whatever happened. */
  after?: () => void;
};

/** This process's CPU time: Packgate runs here, wrk in a child process. */
export function ownCpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** The bare Node.js server's CPU time (bench/bare-node.mjs answers it at /.cpu). */
export async function bareNodeCpuMicros(server: { url: string }): Promise<number> {
  const response = await fetch(`${server.url}/.cpu`);
  return Number(await response.text());
}

export type TurnOptions = { seconds: number; runs: number; connections: number };

/**
 * One warm-up each, then `runs` load runs of every target taken in turns, the order reversed every other turn (a, b,
 * c, then c, b, a, ...): a machine that speeds up or slows down during a turn then favours no target over the turns.
 * Medians of each figure; ratioInTurns gives the median of per-turn ratios, ratioSpread their range.
 */
export async function measureInTurns(targets: LoadTarget[], options: TurnOptions): Promise<Measured[]> {
  const { seconds, runs: turns, connections } = options;
  const load = async (target: LoadTarget, durationSeconds: number) => {
    target.before?.();
    try {
      return await runLoad({ ...target, connections, durationSeconds, expectError: target.expectStatus >= 400 });
    } finally {
      target.after?.();
    }
  };
  for (const target of targets) await load(target, Math.min(3, seconds));
  const runs: LoadResult[][] = targets.map(() => []);
  const cpu: number[][] = targets.map(() => []);
  const inOrder = [...targets.entries()];
  const reversed = [...inOrder].reverse();
  for (let turn = 0; turn < turns; turn++) {
    for (const [index, target] of turn % 2 === 0 ? inOrder : reversed) {
      const before = await target.serverCpuMicros?.();
      const result = await load(target, seconds);
      const used = before === undefined ? 0 : (await target.serverCpuMicros!()) - before;
      if (!answeredAsExpected(result, target.expectStatus)) {
        throw new Error(`${target.url}: expected only ${target.expectStatus}, got ${JSON.stringify(result.statuses)}`);
      }
      runs[index]!.push(result);
      cpu[index]!.push(used / Math.max(1, result.total));
    }
  }
  return targets.map((_, index) => ({
    requestsPerSecond: median(runs[index]!.map((run) => run.requestsPerSecond)),
    latencyP99: median(runs[index]!.map((run) => run.latencyP99)),
    bytesPerSecond: median(runs[index]!.map((run) => run.bytesPerSecond)),
    cpuMicrosPerRequest: median(cpu[index]!),
    runs: runs[index]!,
  }));
}

/** `figure(a) / figure(b)` in each turn, for two targets measured in the same turns. */
function perTurnRatios(a: Measured, b: Measured, figure: (run: LoadResult) => number): number[] {
  return a.runs.map((run, index) => figure(run) / figure(b.runs[index]!));
}

/** The median over turns of `figure(a) / figure(b)`. */
export function ratioInTurns(a: Measured, b: Measured, figure: (run: LoadResult) => number): number {
  return median(perTurnRatios(a, b, figure));
}

/** The lowest and highest per-turn ratio of `figure(a) / figure(b)`: how far one turn may be from the median. */
export function ratioSpread(a: Measured, b: Measured, figure: (run: LoadResult) => number): string {
  return spreadOf(perTurnRatios(a, b, figure));
}

/** The lowest and highest of per-turn ratios, as every goal's ratio prints them beside its median. */
export function spreadOf(ratios: number[]): string {
  return `turns ${ratio(Math.min(...ratios))} to ${ratio(Math.max(...ratios))}`;
}

export const requestRate = (run: LoadResult) => run.requestsPerSecond;
export const latencyP99 = (run: LoadResult) => run.latencyP99;

export const format = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });
export const ratio = (value: number) => value.toFixed(3);

export function line(label: string, measured: Measured): string {
  const cpu = measured.cpuMicrosPerRequest > 0 ? `  CPU ${measured.cpuMicrosPerRequest.toFixed(1)} µs/request` : '';
  return `    ${label.padEnd(44)} ${format(measured.requestsPerSecond).padStart(8)} req/s  p99 ${Number(measured.latencyP99.toFixed(3))} ms${cpu}`;
}

/**
 * Issue 34: a figure is the server's only when the load generator, against nginx in the same turns, went at least
 * 1.5 times faster than against us; below that, the figure may measure the generator itself.
 */
export function generatorWarning(ours: Measured, nginx: Measured): string {
  return nginx.requestsPerSecond < 1.5 * ours.requestsPerSecond
    ? `  ⚠ wrk reached only ${ratio(nginx.requestsPerSecond / ours.requestsPerSecond)}× this rate against nginx: it may measure the generator`
    : '';
}

/** Ours, nginx's and the bare Node.js server's figures, and ours as a share of each (medians of per-turn ratios). */
export function printAgainstBaselines(ours: Measured, nginx: Measured, bareNode: Measured): void {
  console.log(line('Packgate, token checked:', ours));
  console.log(line('nginx, static file:', nginx));
  console.log(line('bare node:http, bytes from memory:', bareNode));
  console.log(
    `    ratio Packgate / nginx: ${ratio(ratioInTurns(ours, nginx, requestRate))} (${ratioSpread(ours, nginx, requestRate)})  (goal ≥ 0.5)   / bare Node.js: ${ratio(ratioInTurns(ours, bareNode, requestRate))} (${ratioSpread(ours, bareNode, requestRate)})  (goal ≥ 0.8)   bare Node.js / nginx: ${ratio(ratioInTurns(bareNode, nginx, requestRate))}${generatorWarning(ours, nginx)}`,
  );
  if (ours.cpuMicrosPerRequest > 0 && bareNode.cpuMicrosPerRequest > 0) {
    console.log(
      `    CPU per request, bare Node.js / Packgate: ${ratio(bareNode.cpuMicrosPerRequest / ours.cpuMicrosPerRequest)}  (what the req/s ratio would be if CPU alone decided it)`,
    );
  }
}
