import type { Database } from '../db/client.js';
import { findJob, findJobs, type JobRow } from './jobs.repository.js';

// Whoever waits in this process for a job's end (job-runner.ts waitFor), whichever process runs it. The runner
// settles them when it finishes a job here, when another process announces an end (PostgreSQL's notification), and
// at each poll; a runner that is not started polls on its own meanwhile. Once the runner stops, nothing here would
// see an end any more: the waits are refused.

export type JobWaiters = {
  /** Resolves with the job once it is completed or failed; rejects at the bound, or when the runner stops. */
  waitFor(jobId: string, timeoutMs: number): Promise<JobRow>;
  /** Tells the waiters of this job, if it is over. */
  settle(job: JobRow): void;
  /** Reads the rows of every awaited job (another process may have ended them). */
  check(): Promise<void>;
  /** Another process announced the end of a job. */
  handleJobEnd(jobId: string): void;
  /** The runner stopped: every wait still pending is refused now, and later waits get only a job already ended. */
  close(): void;
};

export function createJobWaiters(options: {
  db: Database;
  pollMs: number;
  /** Whether the runner polls (and so checks the waiters) now; when not, the waiters poll on their own. */
  isRunnerPolling(): boolean;
}): JobWaiters {
  const { db } = options;
  const waiters = new Map<string, Set<Waiter>>();
  let waitTimer: NodeJS.Timeout | undefined;
  let isClosed = false;

  const settle = (job: JobRow) => {
    if (job.status !== 'completed' && job.status !== 'failed') return;
    const listeners = waiters.get(job.id);
    if (!listeners) return;
    waiters.delete(job.id);
    for (const listener of listeners) listener.resolve(job);
  };

  async function check(): Promise<void> {
    if (waiters.size === 0) return;
    for (const job of await findJobs(db, [...waiters.keys()])) settle(job);
  }

  /** A job that has not ended, asked for once this process stopped watching: nothing here will see its end. */
  async function endedOrRefused(jobId: string): Promise<JobRow> {
    const job = await findJob(db, jobId);
    if (job && (job.status === 'completed' || job.status === 'failed')) return job;
    throw stoppingError(jobId);
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
      if (isClosed) return endedOrRefused(jobId);
      return new Promise<JobRow>((resolve, reject) => {
        const waiter: Waiter = {
          resolve(job) {
            clearTimeout(timer);
            resolve(job);
          },
          reject(error) {
            clearTimeout(timer);
            reject(error);
          },
        };
        const timer = setTimeout(() => {
          waiters.get(jobId)?.delete(waiter);
          reject(new Error(`job ${jobId} did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
        let listeners = waiters.get(jobId);
        if (!listeners) {
          listeners = new Set();
          waiters.set(jobId, listeners);
        }
        listeners.add(waiter);
        findJob(db, jobId)
          .then((job) => job && settle(job))
          .catch(() => undefined);
        // Nobody polls a runner that is not started: check on our own meanwhile.
        if (!options.isRunnerPolling() && !waitTimer) {
          const poll = () => {
            waitTimer = setTimeout(() => {
              check()
                .catch(() => undefined)
                .finally(() => {
                  waitTimer = undefined;
                  if (waiters.size > 0 && !options.isRunnerPolling()) poll();
                });
            }, options.pollMs);
            waitTimer.unref();
          };
          poll();
        }
      });
    },
    close() {
      // The runner has stopped: its feed of other processes' job ends is closed and nobody polls. A waiter would sit
      // out its bound (a download's three minutes) and hold the process's shutdown past its deadline; it is told now.
      isClosed = true;
      clearTimeout(waitTimer);
      const pending = [...waiters];
      waiters.clear();
      for (const [jobId, listeners] of pending) for (const listener of listeners) listener.reject(stoppingError(jobId));
    },
  };
}

type Waiter = { resolve(job: JobRow): void; reject(error: Error): void };

function stoppingError(jobId: string): Error {
  return new Error(`job ${jobId} has not ended, and this process has stopped watching for its end`);
}
