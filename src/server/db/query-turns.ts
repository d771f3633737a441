import { performance } from 'node:perf_hooks';
// The module's own binding, not the global: a test that fakes the global timers must not stop the database.
import { setImmediate } from 'node:timers';

// PGlite runs each statement on the server's own thread and answers it through a promise, so a chain of statements
// (a sync writing a package's versions, a job claiming and finishing its work, a zip's row) resumes from microtask
// to microtask and never lets the event loop turn: every request that arrived meanwhile, warm Composer answers
// included, waited for the whole chain. While a seller's 30 packages of 30 tags synced, the loop's delay reached
// 47 ms at p99 and 69 to 103 ms at worst (bench/sync-growth.ts, issue 34). Here a statement asked for once the
// statements before it have held the thread for a slice first lets the loop turn (an immediate: after the I/O that
// waited), then runs. PostgreSQL's statements wait for the network, which turns the loop by itself.

/** How long statements may hold the thread before the next lets the loop turn (4 ms: that p99 fell to 21 ms). */
export const QUERY_SLICE_MS = 4;

export type QueryTurns = {
  /** A promise to wait for before the next statement once the slice is spent, else undefined (run it now). */
  pauseIfLong(): Promise<void> | undefined;
};

export function createQueryTurns(sliceMs = QUERY_SLICE_MS, now: () => number = () => performance.now()): QueryTurns {
  // When the slice began, or undefined once the loop has turned since (the next statement begins a new slice). The
  // loop has turned when the immediate set at the slice's beginning has run.
  let sliceStartedAt: number | undefined;
  const endSlice = () => {
    sliceStartedAt = undefined;
  };
  // The turn the statements asked for in a spent slice wait for together, then run in the order they were asked.
  let turn: Promise<void> | undefined;
  const waitForTurn = () =>
    new Promise<void>((resolve) =>
      setImmediate(() => {
        turn = undefined;
        resolve();
      }),
    );
  return {
    pauseIfLong() {
      const at = now();
      if (sliceStartedAt === undefined) {
        sliceStartedAt = at;
        setImmediate(endSlice);
        return undefined;
      }
      if (at - sliceStartedAt < sliceMs) return undefined;
      turn ??= waitForTurn();
      return turn;
    },
  };
}
