import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

// A suite that silently skips can hide a regression. This reporter closes every run with one line of counts,
// counts a test whose setup failed as failed (Vitest reports it as skipped), and, when `forbidSkips` is on
// (CI, full runs), fails the run for any skipped or todo test that is not on the named allow-list.

export type SkipGuardOptions = {
  /** Fail the run on any skip not allowed below. Off for a developer's filtered run (`-t` skips the rest). */
  forbidSkips: boolean;
  /** Tests allowed to skip, by `file > describe > test` name, each with its reason in a comment. */
  allowed: readonly string[];
};

type Counts = { passed: number; failed: number; setupFailed: string[]; skipped: string[]; allowedSkips: number };

export default class SkipGuardReporter implements Reporter {
  constructor(private readonly options: SkipGuardOptions) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = countTests(testModules, new Set(this.options.allowed));
    const unexpectedSkips = this.options.forbidSkips ? counts.skipped : [];
    for (const name of counts.setupFailed) console.error(`did not run, its setup failed: ${name}`);
    for (const name of unexpectedSkips) console.error(`skipped, and not on the allow-list: ${name}`);
    const failed = counts.failed + counts.setupFailed.length;
    console.log(
      `Suite: ${counts.passed} passed, ${failed} failed (${counts.setupFailed.length} by a failed setup), ` +
        `${counts.skipped.length + counts.allowedSkips} skipped (${counts.allowedSkips} allowed)`,
    );
    if (failed > 0 || unexpectedSkips.length > 0) process.exitCode = 1;
  }
}

function countTests(testModules: ReadonlyArray<TestModule>, allowed: ReadonlySet<string>): Counts {
  const counts: Counts = { passed: 0, failed: 0, setupFailed: [], skipped: [], allowedSkips: 0 };
  for (const module of testModules) {
    const file = path.relative(process.cwd(), module.moduleId);
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      const name = `${file} > ${test.fullName}`;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else if (hasFailedSetup(test, module)) counts.setupFailed.push(name);
      else if (allowed.has(name)) counts.allowedSkips++;
      else counts.skipped.push(name);
    }
    // A module that failed before collecting any test (an import error, a failing top-level hook).
    if (module.state() === 'failed' && module.children.size === 0) counts.setupFailed.push(file);
  }
  return counts;
}

/** A test that did not run because a hook of its file or of an enclosing describe failed. */
function hasFailedSetup(test: TestCase, module: TestModule): boolean {
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) {
    if (parent.state() === 'failed') return true;
  }
  return module.state() === 'failed' && test.options.mode === 'run';
}
