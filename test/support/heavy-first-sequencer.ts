import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Vitest orders files by their last durations when it has them, and by file size when it does not: on a fresh clone
// (every CI run) the fuzz shards, four lines each, started last and ran alone at the end while the other worker idled.
// The files known to take longest start first, so the short ones fill in around them; the rest keep Vitest's order.
const HEAVY_FIRST = [
  /\/fuzz-shard-\d+\.int\.test\.ts$/,
  /\/test\/e2e\/screen-tour\.test\.ts$/,
  /\/test\/production\/cluster\.test\.ts$/,
  /\/test\/production\/built-server\.test\.ts$/,
  /\/test\/e2e\/loose-ends\.test\.ts$/,
  /\/test\/e2e\/account\.test\.ts$/,
  /\/features\/packages\/packages\.int\.test\.ts$/,
];

function heaviness(file: TestSpecification): number {
  const index = HEAVY_FIRST.findIndex((pattern) => pattern.test(file.moduleId));
  return index < 0 ? HEAVY_FIRST.length : index;
}

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: within one heaviness Vitest's own order stays.
    return sorted.sort((a, b) => heaviness(a) - heaviness(b));
  }
}
