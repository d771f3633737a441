import path from 'node:path';
import { defineConfig } from 'vitest/config';

const serverSuite = 'src/**/*.int.test.ts';
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  resolve: {
    alias: {
      '@contract': path.resolve(import.meta.dirname, 'src/contract'),
      '@web': path.resolve(import.meta.dirname, 'src/web'),
    },
  },
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: [serverSuite, 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-pglite',
          include: [serverSuite],
          env: { PACKGATE_TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'server-postgres',
                include: [serverSuite],
                env: { PACKGATE_TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/composer/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
