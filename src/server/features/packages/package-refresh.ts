import type { AppContext } from '../../context.js';
import { recordBatchItem } from '../tasks/tasks.service.js';

// A refresh of several packages (the admin's cache refresh, issue 29 item 5): it queues one sync per package and
// ends; each sync's job tells the refresh's `cache-refresh` task when it is over, and the last one ends the task.
// The texts are the cache panel's: "Refreshed 2 of 3 packages", then "Refreshed 3 packages", or
// "Refreshed 2 of 3 packages; failed: acme/doomed".

/** Tells the refresh task that one package's sync is over (`key` keeps a repeated report from counting twice). */
export async function reportRefreshedPackage(
  ctx: AppContext,
  refreshTaskId: string,
  item: { key: string; name: string; isFailed: boolean },
): Promise<void> {
  try {
    await recordBatchItem(ctx, refreshTaskId, item, (done, total, failed) => {
      const refreshed = done - failed.length;
      const progressMessage = `Refreshed ${done} of ${total} packages`;
      if (done < total) return { progressMessage };
      if (failed.length > 0) {
        return {
          progressMessage,
          endMessage: `${`Refreshed ${refreshed} of ${total} packages`}; failed: ${failed.join(', ')}`,
        };
      }
      return { progressMessage, endMessage: `Refreshed ${refreshed} ${refreshed === 1 ? 'package' : 'packages'}` };
    });
  } catch (error) {
    // The sync itself is done; a lost report must not fail it (the task shows the last progress).
    ctx.log.warn({ err: error, taskId: refreshTaskId }, 'could not report a refreshed package');
  }
}
