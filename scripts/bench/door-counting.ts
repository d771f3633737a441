import { bindComposerDoors } from '../../src/server/features/composer/composer-metrics.js';
import type { BoundRequest, Metrics } from '../../src/server/observability/metrics.js';

// Issue 35: "counting costs the warm Composer door no measurable speed". The bench measures the door with its
// /metrics counting on and off in the same turns. Off is the bench's own switch, not the app's: the warm door counts
// on series bound once at start-up (composer-metrics.ts bindComposerDoors; metrics.ts keeps one per route and
// status), and this switch swaps those series' observation (a count, a sum and a bucket in plain numbers) for nothing while a turn runs, as a build of
// the app without the metrics hook would. What remains of counting when off is the door's two clock reads.

const NOTHING: BoundRequest = { observe() {} };

/** The doors' request total in /metrics: the bench checks that a turn with counting off added nothing. */
async function countedDoorAnswers(metrics: Metrics): Promise<number> {
  const family = metrics.registry.getSingleMetric('packgate_http_requests_total');
  if (!family) throw new Error('no packgate_http_requests_total in /metrics');
  const { values } = await family.get();
  return values
    .filter((value) => String(value.labels.route).startsWith('composer:'))
    .reduce((total, value) => total + value.value, 0);
}

export type DoorCounting = {
  /** Stops counting the warm door's answers until on(). */
  off(): void;
  on(): void;
  /** The doors' counted answers so far. */
  counted(): Promise<number>;
};

export function doorCountingSwitch(metrics: Metrics): DoorCounting {
  const doors = Object.values(bindComposerDoors(metrics));
  const held = doors.map((series) => series.observe);
  return {
    off() {
      for (const series of doors) series.observe = NOTHING.observe;
    },
    on() {
      for (const [index, series] of doors.entries()) series.observe = held[index]!;
    },
    counted: () => countedDoorAnswers(metrics),
  };
}
