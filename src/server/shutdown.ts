import { constants } from 'node:os';

export type ShutdownOptions = {
  /** Stops accepting work, lets in-flight requests finish and closes the database. */
  close: () => Promise<void>;
  /** After this long the process exits even if closing has not finished. */
  deadlineMs: number;
  log: {
    info(details: object, message: string): void;
    error(details: object, message: string): void;
  };
  exit: (code: number) => void;
};

/** Exit code of a process ended by a signal, as shells report it (SIGINT 130, SIGTERM 143). */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * Returns the handler for SIGINT/SIGTERM: the first signal closes gracefully and exits 0, or 1 when closing
 * fails or outlasts the deadline; a second signal exits at once, for the operator who will not wait.
 */
export function createShutdownHandler(options: ShutdownOptions): (signal: NodeJS.Signals) => void {
  const { close, deadlineMs, log, exit } = options;
  let isShuttingDown = false;
  return (signal) => {
    if (isShuttingDown) {
      log.error({ signal }, 'second signal received: exiting at once');
      exit(signalExitCode(signal));
      return;
    }
    isShuttingDown = true;
    const deadlineSeconds = deadlineMs / 1000;
    log.info({ signal, deadlineSeconds }, 'shutting down: finishing in-flight requests');
    // Not unref'd: if closing stalls without anything else pending, the deadline must still end the process.
    const deadline = setTimeout(() => {
      log.error({ deadlineSeconds }, `shutdown did not finish within ${deadlineSeconds} s: exiting anyway`);
      exit(1);
    }, deadlineMs);
    close().then(
      () => {
        clearTimeout(deadline);
        log.info({}, 'shut down cleanly');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
}
