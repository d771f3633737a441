import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { composerPaths } from '../../../contract/composer.js';
import type { Database, DatabaseKind } from '../../db/client.js';
import { countDownloadIfAllowed, countDownloadsTogether, type DownloadToCount } from './grants.repository.js';

// Every dist download is counted in the database: the count decides download limits and feeds the seller's
// analytics. One statement per download made concurrent downloads queue on the database (a `composer install`
// fetches up to twelve zips at a time, and the analytics triggers take a lock per license holder), so downloads are
// counted in groups, as a database commits a group.
//
// A download under a limit is counted before its bytes are sent, atomically against the limit (`count`): the limit
// is a promise. On PostgreSQL the first of a quiet moment is counted at once and the ones that arrive while that
// statement runs go together in the next; on PGlite a statement runs on this thread, so nothing arrives while it
// runs, and the downloads of a moment gather for PGLITE_GATHER_MS first, as PostgreSQL's commit_delay gathers commits.
//
// A download without a limit is answered first and counted right after (`countAfter`): its count decides nothing,
// and waiting for it made every zip of an install wait for a statement (on PGlite, one that also stops every other
// answer while it runs). Such counts wait until the downloads of the moment have been answered (no new one for
// AFTER_QUIET_MS, at most AFTER_MAX_MS), on both databases: on PostgreSQL, writing each at once took a statement (and
// a run of the analytics triggers) per few zips, whose CPU the client's unzipping then shared; a 20-package
// `composer install` took 1.09 times the static repository's time that way and 1.05 counted after the wave (median
// of 20 paired runs on a 2-core machine). What this process answers next sees them: every request other than a
// download first waits for the counts still to be written (`registerCountsBeforeOtherRequests`), and closing the
// app writes them. Other processes see them when they are written, at most AFTER_MAX_MS late. What a crash loses is
// the counts still waiting, of downloads that had no limit: at most AFTER_MAX_MS' worth.

/** A download under a limit on PGlite waits this long for others to join its statement. */
const PGLITE_GATHER_MS = 2;
/** Downloads without a limit are counted once none has arrived for this long (a wave of zips is over)... */
const AFTER_QUIET_MS = 10;
/** ...or once the first of them has waited this long. */
const AFTER_MAX_MS = 250;

/** At most this many downloads in one statement (four parameters each). */
const MAX_BATCH = 250;

type Waiting = { download: DownloadToCount; resolve: (isCounted: boolean) => void; reject: (error: unknown) => void };

export class DownloadCounter {
  private waiting: Waiting[] = [];
  /** The statements in flight, until nothing waits any more. */
  private running: Promise<void> | undefined;
  private cancelScheduled: (() => void) | undefined;
  private scheduledAt = Number.POSITIVE_INFINITY;
  /** When the oldest waiting download under a limit arrived, and the oldest and newest without one. */
  private firstLimitedAt = Number.POSITIVE_INFINITY;
  private firstAfterAt = Number.POSITIVE_INFINITY;
  private lastAfterAt = Number.NEGATIVE_INFINITY;
  private readonly timing: { gatherMs: number; quietMs: number; afterMaxMs: number };

  constructor(
    private readonly db: Database,
    databaseKind: DatabaseKind,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timing = {
      gatherMs: databaseKind === 'pglite' ? PGLITE_GATHER_MS : 0,
      quietMs: AFTER_QUIET_MS,
      afterMaxMs: AFTER_MAX_MS,
    };
  }

  /** True once the download is counted; false when the grant allowed it no longer (revoked, expired, at its limit). */
  count(download: DownloadToCount): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ download, resolve, reject });
      this.firstLimitedAt = Math.min(this.firstLimitedAt, Date.now());
      this.schedule();
    });
  }

  /** Counts a download that has been answered already (one without a limit); a failure is logged. */
  countAfter(download: DownloadToCount): void {
    const grantId = download.grantId;
    this.waiting.push({
      download,
      // The held view allowed it when it was answered; the database says no only when a change in another process
      // had not reached this one yet (revoked, a limit set), which the change feed allows for.
      resolve: (isCounted) => {
        if (!isCounted)
          this.log.debug({ grantId }, 'a download answered just before its license changed was not counted');
      },
      reject: (error) => this.log.error({ err: error, grantId }, 'an answered download could not be counted'),
    });
    const now = Date.now();
    this.firstAfterAt = Math.min(this.firstAfterAt, now);
    this.lastAfterAt = now;
    this.schedule();
  }

  get hasWaiting(): boolean {
    return this.waiting.length > 0 || this.running !== undefined;
  }

  /** Resolves once every download counted so far is committed (or has failed). */
  async flush(): Promise<void> {
    while (this.hasWaiting) {
      if (!this.running) this.start();
      await this.running;
    }
  }

  /** The time the waiting downloads are due: the earliest of what each kind allows. */
  private dueAt(): number {
    const { gatherMs, quietMs, afterMaxMs } = this.timing;
    const afterDue = Math.min(this.lastAfterAt + quietMs, this.firstAfterAt + afterMaxMs);
    return Math.min(this.firstLimitedAt + gatherMs, afterDue);
  }

  private schedule(): void {
    // Statements are running: they take what waits when they are done.
    if (this.running) return;
    const at = this.dueAt();
    if (at === this.scheduledAt) return;
    this.cancelScheduled?.();
    this.scheduledAt = at;
    const delay = at - Date.now();
    if (delay <= 0) {
      // Once the I/O that is ready has been handled: the downloads it brings this far go in the same statement.
      const immediate = setImmediate(() => this.start());
      this.cancelScheduled = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(() => this.start(), delay);
      this.cancelScheduled = () => clearTimeout(timer);
    }
  }

  private start(): void {
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    this.scheduledAt = Number.POSITIVE_INFINITY;
    this.running = this.countWaiting().finally(() => {
      this.running = undefined;
      if (this.waiting.length > 0) this.schedule();
    });
  }

  private async countWaiting(): Promise<void> {
    const taken = this.waiting;
    this.waiting = [];
    this.firstLimitedAt = Number.POSITIVE_INFINITY;
    this.firstAfterAt = Number.POSITIVE_INFINITY;
    this.lastAfterAt = Number.NEGATIVE_INFINITY;
    for (let start = 0; start < taken.length; start += MAX_BATCH) {
      const batch = taken.slice(start, start + MAX_BATCH);
      try {
        await this.countBatch(batch);
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
  }

  private async countBatch(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Waiting];
      only.resolve(await countDownloadIfAllowed(this.db, only.download));
      return;
    }
    const counted = await countDownloadsTogether(
      this.db,
      batch.map((entry) => entry.download),
    );
    const perGrant = new Map<string, number>();
    for (const entry of batch) perGrant.set(entry.download.grantId, (perGrant.get(entry.download.grantId) ?? 0) + 1);
    for (const entry of batch) {
      const grantId = entry.download.grantId;
      if (counted.has(grantId)) entry.resolve(true);
      // A grant with several downloads in the batch may allow some of them (a limit with fewer left): one at a time,
      // each atomic against the limit, decides which.
      else if ((perGrant.get(grantId) ?? 0) > 1) entry.resolve(await countDownloadIfAllowed(this.db, entry.download));
      else entry.resolve(false);
    }
  }
}

/**
 * Every request but a download waits for the counts still to be written, so that what a seller, a holder or the API
 * reads from this process includes every download it has answered. Downloads do not wait: a wave of zips must not
 * turn into a statement per zip. Nothing waits when nothing is waiting to be counted.
 */
export function registerCountsBeforeOtherRequests(app: FastifyInstance, counter: DownloadCounter): void {
  app.addHook('onRequest', async (request) => {
    if (!counter.hasWaiting || request.url.startsWith(composerPaths.downloadPrefix)) return;
    await counter.flush();
  });
}
