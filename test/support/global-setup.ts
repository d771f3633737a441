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
  const pglite = await createPgliteTemplate();
  project.provide('pgliteTemplate', pglite.file);
  return () => pglite.remove();
}
