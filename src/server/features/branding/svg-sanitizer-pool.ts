import { Piscina } from 'piscina';
import { assertSvgWithinLimits, SvgRejectedError, svgLimits, tooSlowToCheck } from './svg-limits.js';
import type { SanitizeOutcome } from './svg-sanitizer.worker.js';

// Sanitizing an SVG builds a DOM with jsdom and is synchronous: on the event loop, one upload would stop every other
// request until it ends (issue 8). So it runs in a worker thread, after the text was measured here (svg-limits.ts,
// linear), under a heap limit and a deadline (svgLimits.maxCheckMs) after which the thread is terminated, the upload
// refused and a fresh thread started for the next one. One thread at most: logos are uploaded rarely, and a hostile
// stream of them can then hold one core, never the server's other.

export type SvgSanitizerOptions = {
  /**
   * How long one sanitize may run in the thread before the thread is terminated and the file refused; read for each
   * file, so a test can give one file a deadline it cannot meet and the next one time enough.
   */
  deadlineMs: number | (() => number);
  /** How long a new thread may take to load jsdom before uploads are answered as busy. */
  startupDeadlineMs: number;
  /** The worker's V8 heap; jsdom with the largest document `svgLimits` lets through needed 150 MB. */
  maxHeapMb: number;
  /** Sanitizes waiting for the thread; more are refused as busy rather than queued without end. */
  maxQueue: number;
};

export const svgSanitizerDefaults: SvgSanitizerOptions = {
  deadlineMs: svgLimits.maxCheckMs,
  // Loading jsdom in a new thread took 6.5 s on a two-core machine under a load of 14.
  startupDeadlineMs: 60_000,
  maxHeapMb: 256,
  maxQueue: 8,
};

/** Too many sanitizes are waiting; the file itself may be fine. */
export class SvgSanitizerBusyError extends Error {
  constructor() {
    super('Logo checks are busy; try again in a moment.');
    this.name = 'SvgSanitizerBusyError';
  }
}

export type SvgSanitizer = {
  /** The SVG made inert; throws SvgRejectedError (limits, content, deadline, memory) or SvgSanitizerBusyError. */
  sanitize(source: string): Promise<string>;
  close(): Promise<void>;
};

/**
 * Where the worker's code is: the build (scripts/build-server.mjs) compiles it to `svg-sanitizer.worker.js` beside the
 * server's own files; from the TypeScript sources (tsx, vitest) a small module registers tsx in the thread first.
 */
function workerFilename(): string {
  const isSource = import.meta.url.endsWith('.ts');
  return new URL(isSource ? './svg-sanitizer.worker-from-source.mjs' : './svg-sanitizer.worker.js', import.meta.url)
    .href;
}

function isAbort(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'AbortError';
}

function isOutOfMemory(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

export function createSvgSanitizer(options: SvgSanitizerOptions = svgSanitizerDefaults): SvgSanitizer {
  const pool = new Piscina<string | undefined, SanitizeOutcome | true>({
    filename: workerFilename(),
    minThreads: 0,
    maxThreads: 1,
    // The thread (about 100 MB with jsdom) goes away when no logo came for a while.
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: 32 },
  });
  // Sanitizes take turns here, not in piscina's queue, so that a deadline measures one document's work: neither
  // the wait behind others nor the thread's start counts against it.
  let previousTurn: Promise<unknown> = Promise.resolve();
  let waiting = 0;

  // A thread that dies while loading (out of memory, say) has no task to fail, so piscina reports it as an 'error'
  // event, which would end the process if nobody listened: it ends the wait for the thread instead.
  let abandonStartup: ((error: unknown) => void) | undefined;
  pool.on('error', (error: unknown) => abandonStartup?.(error));

  async function startThread(): Promise<void> {
    const startupFailed = new AbortController();
    abandonStartup = (error) => startupFailed.abort(error);
    try {
      await pool.run(undefined, {
        name: 'ready',
        signal: AbortSignal.any([startupFailed.signal, AbortSignal.timeout(options.startupDeadlineMs)]),
      });
    } catch (error) {
      if (isAbort(error)) throw new SvgSanitizerBusyError();
      throw error;
    } finally {
      abandonStartup = undefined;
    }
  }

  async function runOne(source: string): Promise<string> {
    await startThread();
    const deadlineMs = typeof options.deadlineMs === 'function' ? options.deadlineMs() : options.deadlineMs;
    let outcome: SanitizeOutcome;
    try {
      // An abort while the task runs terminates the thread (piscina), which is the only way to stop jsdom's
      // synchronous work; the next file's startThread() then waits for a fresh one.
      outcome = (await pool.run(source, { signal: AbortSignal.timeout(deadlineMs) })) as SanitizeOutcome;
    } catch (error) {
      if (isAbort(error)) throw tooSlowToCheck(deadlineMs);
      if (isOutOfMemory(error)) {
        throw new SvgRejectedError(
          `Checking this SVG needed more than ${options.maxHeapMb} MB of memory, so it was stopped. Simplify it or upload it as PNG.`,
        );
      }
      throw error;
    }
    if ('rejected' in outcome) throw new SvgRejectedError(outcome.rejected);
    return outcome.svg;
  }

  return {
    async sanitize(source) {
      assertSvgWithinLimits(source);
      if (waiting >= options.maxQueue) throw new SvgSanitizerBusyError();
      waiting++;
      const turn = previousTurn.then(() => runOne(source));
      previousTurn = turn.catch(() => undefined);
      try {
        return await turn;
      } finally {
        waiting--;
      }
    },
    close: () => pool.destroy(),
  };
}
