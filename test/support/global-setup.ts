import type { TestProject } from 'vitest/node';
import { createPgliteTemplate, createPostgresTemplate } from './database-template.js';

// Vitest global setup of the projects that start the app: migrates one template database per run and
// database kind, handed to the test files through `inject`.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of a dump of a migrated PGlite data directory (projects on PGlite). */
    pgliteTemplate?: string;
    /** Name of a migrated database on TEST_DATABASE_URL's server (projects on PostgreSQL). */
    postgresTemplate?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (project.config.env?.PACKGATE_TEST_DB === 'postgres') {
    if (!adminUrl) throw new Error('PACKGATE_TEST_DB=postgres needs TEST_DATABASE_URL');
    const postgres = await createPostgresTemplate(adminUrl);
    project.provide('postgresTemplate', postgres.name);
    return () => postgres.remove();
  }
  const pglite = await borrowPgliteTemplate();
  project.provide('pgliteTemplate', pglite.file);
  return pglite.giveBack;
}

type PgliteTemplate = Awaited<ReturnType<typeof createPgliteTemplate>>;
type SharedPgliteTemplate = { template: Promise<PgliteTemplate>; borrowers: number };

// Vitest loads this file once per project, in the one main process: the template lives on globalThis so that the
// projects on PGlite (the server suite and the browser suite) migrate one between them, removed by the last teardown.
const SHARED_PGLITE_TEMPLATE = Symbol.for('packgate.test.pgliteTemplate');

async function borrowPgliteTemplate(): Promise<{ file: string; giveBack(): Promise<void> }> {
  const holder = globalThis as { [SHARED_PGLITE_TEMPLATE]?: SharedPgliteTemplate };
  const shared = holder[SHARED_PGLITE_TEMPLATE] ?? { template: createPgliteTemplate(), borrowers: 0 };
  holder[SHARED_PGLITE_TEMPLATE] = shared;
  shared.borrowers++;
  const template = await shared.template;
  return {
    file: template.file,
    async giveBack() {
      shared.borrowers--;
      if (shared.borrowers > 0) return;
      delete holder[SHARED_PGLITE_TEMPLATE];
      await template.remove();
    },
  };
}
