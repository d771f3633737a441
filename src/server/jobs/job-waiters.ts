import type { Database } from '../db/client.js';
import { findJob, findJobs, type JobRow } from './jobs.repository.js';

// Whoever waits in this process for a job's end (job-runner.ts waitFor), whichever process runs it. The runner
// settles them when it finishes a job here, when another process announces an end (PostgreSQL's notification), and
// at each poll; a runner that is not started (a closed app) polls on its own meanwhile.

export type JobWaiters = {
  /** Resolves with the job once it is completed or failed; rejects at the bound. */
  waitFor(jobId: string, timeoutMs: number): Promise<JobRow>;
  /** Tells the waiters of this job, if it is over. */
  settle(job: JobRow): void;
  /** Reads the rows of every awaited job (another process may have ended them). */
  check(): Promise<void>;
  /** Another process announced the end of a job. */
  handleJobEnd(jobId: string): void;
  close(): void;
};

export function createJobWaiters(options: {
  db: Database;
  pollMs: number;
  /** Whether the runner polls (and so checks the waiters) now; when not, the waiters poll on their own. */
  isRunnerPolling(): boolean;
  isRunnerStopped(): boolean;
}): JobWaiters {
  const { db } = options;
  const waiters = new Map<string, Set<(job: JobRow) => void>>();
  let waitTimer: NodeJS.Timeout | undefined;

  const settle = (job: JobRow) => {
    if (job.status !== 'completed' && job.status !== 'failed') return;
    const listeners = waiters.get(job.id);
    if (!listeners) return;
    waiters.delete(job.id);
    for (const listener of listeners) listener(job);
  };

  async function check(): Promise<void> {
    if (waiters.size === 0) return;
    for (const job of await findJobs(db, [...waiters.keys()])) settle(job);
  }

  return {
    settle,
    check,
    handleJobEnd(jobId) {
      if (!waiters.has(jobId)) return;
      findJob(db, jobId)
        .then((job) => job && settle(job))
        .catch(() => undefined);
    },
    waitFor(jobId, timeoutMs) {
      return new Promise<JobRow>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.get(jobId)?.delete(listener);
          reject(new Error(`job ${jobId} did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
        const listener = (job: JobRow) => {
          clearTimeout(timer);
          resolve(job);
        };
        let listeners = waiters.get(jobId);
        if (!listeners) {
          listeners = new Set();
          waiters.set(jobId, listeners);
        }
        listeners.add(listener);
        findJob(db, jobId)
          .then((job) => job && settle(job))
          .catch(() => undefined);
        // Nobody polls a runner that is not started (a closed app): check on our own meanwhile.
        if (!options.isRunnerPolling() && !waitTimer) {
          const poll = () => {
            waitTimer = setTimeout(() => {
              check()
                .catch(() => undefined)
                .finally(() => {
                  waitTimer = undefined;
                  if (waiters.size > 0 && !options.isRunnerPolling() && !options.isRunnerStopped()) poll();
                });
            }, options.pollMs);
            waitTimer.unref();
          };
          poll();
        }
      });
    },
    close() {
      clearTimeout(waitTimer);
    },
  };
}
