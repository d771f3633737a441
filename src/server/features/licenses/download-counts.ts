import type { Database } from '../../db/client.js';
import { countDownloadIfAllowed, countDownloadsTogether, type DownloadToCount } from './grants.repository.js';

// Every dist download is counted in the database before its bytes are sent: the count decides download limits and
// feeds the seller's analytics. One statement per download made concurrent downloads queue on the database (a
// `composer install` fetches eight zips at a time, and the analytics triggers take a lock per license holder), so
// downloads are counted in groups, as a database commits a group: the first download of a quiet moment is counted
// at once, and the ones that arrive while that statement runs go together in the next. Nothing waits for a timer and
// nothing is counted later than its answer: each download's promise settles when its own statement has committed.

/** At most this many downloads in one statement (four parameters each). */
const MAX_BATCH = 250;

type Waiting = { download: DownloadToCount; resolve: (isCounted: boolean) => void; reject: (error: unknown) => void };

export class DownloadCounter {
  private waiting: Waiting[] = [];
  private isCounting = false;

  constructor(private readonly db: Database) {}

  /** True once the download is counted; false when the grant allowed it no longer (revoked, expired, at its limit). */
  count(download: DownloadToCount): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ download, resolve, reject });
      if (this.isCounting) return;
      this.isCounting = true;
      // Once the I/O that is ready has been handled: the downloads it brings this far go in the same statement. On
      // PGlite a statement runs on this thread, so no download can join one in flight; this is where they gather.
      setImmediate(() => void this.countWaiting());
    });
  }

  private async countWaiting(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        try {
          await this.countBatch(batch);
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.isCounting = false;
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
