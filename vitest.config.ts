import path from 'node:path';
import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/support/heavy-first-sequencer.js';
import SkipGuardReporter from './test/support/skip-guard-reporter.js';

const serverSuite = 'src/**/*.int.test.ts';
// Adapter tests drive the real edges: they spawn git, serve HTTP and write files, so they get a tier whose
// timeouts fit a busy machine; the unit tier keeps Vitest's tight default for pure logic.
const adapterSuite = 'src/server/adapters/**/*.test.ts';
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
// Migrates one template database per run and kind; every test app starts from a copy of it.
const databaseTemplate = './test/support/global-setup.ts';

/** Tests allowed to skip in CI, as `file > describe > test`, each with its reason. Keep it empty. */
const allowedSkips: string[] = [];

export default defineConfig({
  resolve: {
    alias: {
      '@contract': path.resolve(import.meta.dirname, 'src/contract'),
      '@web': path.resolve(import.meta.dirname, 'src/web'),
    },
  },
  test: {
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine, so every file
    // waited for the one before it while a core idled through each file's waits (PostgreSQL, git, browsers).
    // Three workers keep both cores busy; on a machine busy with other work they also get a fairer share of it.
    maxWorkers: 3,
    // Every project runs its files in reused workers (`isolate: false`) instead of a fresh process per file
    // that imports the whole server again: that import cost a server file about 1 s of CPU, 2.5 s under load.
    // Test files are still evaluated anew each time; the server keeps no module-level state between apps (each
    // buildApp() has its own context). Vitest reads `isolate` per project: set here, it left every file isolated.
    sequence: { sequencer: HeavyFirstSequencer },
    reporters: ['default', new SkipGuardReporter({ forbidSkips: Boolean(process.env.CI), allowed: allowedSkips })],
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false, // see maxWorkers
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'test/support/**/*.test.ts'],
          exclude: [serverSuite, adapterSuite, 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'adapters',
          isolate: false, // see maxWorkers
          include: [adapterSuite],
          exclude: [serverSuite, 'node_modules/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-pglite',
          isolate: false, // see maxWorkers
          include: [serverSuite],
          env: { PACKGATE_TEST_DB: 'pglite' },
          globalSetup: [databaseTemplate],
          // A test may sync several git repositories while two other workers share the two cores.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'server-postgres',
                isolate: false, // see maxWorkers
                include: [serverSuite],
                env: { PACKGATE_TEST_DB: 'postgres' },
                globalSetup: [databaseTemplate],
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/composer/**/*.test.ts', 'test/production/**/*.test.ts'],
          // One Chromium for the run (test/e2e/support/browser-setup.ts); each file takes fresh contexts from it.
          globalSetup: [databaseTemplate, './test/e2e/support/browser-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll's own default gives up after 1 s: on a busy machine a screen can take longer than that to
          // re-render after a click. The poll still fails loudly at its bound.
          expect: { poll: { timeout: 20_000, interval: 100 } },
          // Two files at a time, after the other projects (Vitest runs groups in order): a project with its own
          // worker count needs its own group. Each file has its own app on a free port, its own database copy and
          // data folder, and contexts of its own in the shared Chromium, so two files do not meet.
          maxWorkers: 2,
          isolate: false, // see maxWorkers
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
