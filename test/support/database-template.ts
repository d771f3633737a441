import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/client.js';
import type { PgliteThreadClient } from '../../src/server/db/pglite-thread.js';

// Migrations run once per test run and database kind: a global setup migrates a template, and every test app
// starts from a copy of it. Creating a PGlite cluster (initdb) costs seconds under load; loading a dump does not.

/** A migrated PGlite data directory, dumped to an uncompressed tarball; returns the file and its removal. */
export async function createPgliteTemplate(): Promise<{ file: string; remove(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-pglite-template-'));
  const database = await openDatabase({ kind: 'pglite' });
  try {
    const client = (database.db as unknown as { $client: PgliteThreadClient }).$client;
    // Every app unpacks the dump into memory before PostgreSQL starts; the app never creates a database, so the
    // two template databases (a third of the dump's 42 MB and two thirds of its files) only cost each start time:
    // without them a start took 25% less CPU.
    await client.exec("update pg_database set datistemplate = false where datname in ('template0', 'template1')");
    await client.exec('drop database template0');
    await client.exec('drop database template1');
    await client.exec('checkpoint');
    const dump = await client.dumpDataDir('none');
    const file = path.join(folder, 'migrated.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    return { file, remove: () => rm(folder, { recursive: true, force: true }) };
  } finally {
    await database.close();
  }
}

const pgliteTemplates = new Map<string, Promise<Blob>>();

/** The template as PGlite's `loadDataDir` wants it, read once per worker (PGlite copies it, never changes it). */
export function loadPgliteTemplate(file: string): Promise<Blob> {
  let template = pgliteTemplates.get(file);
  if (!template) {
    template = readFile(file).then((bytes) => new Blob([bytes]));
    template.catch(() => pgliteTemplates.delete(file));
    pgliteTemplates.set(file, template);
  }
  return template;
}

/** A migrated PostgreSQL database of this run, used only as `create database ... template`; returns its name. */
export async function createPostgresTemplate(adminUrl: string): Promise<{ name: string; remove(): Promise<void> }> {
  // One per run: several runs (developers, CI) may share the server.
  const name = `packgate_template_${randomBytes(6).toString('hex')}`;
  await runAdminQuery(adminUrl, `create database ${name}`);
  try {
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl(adminUrl, name) });
    await database.close(); // a template must have no open connections when it is copied
  } catch (error) {
    await runAdminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    throw error;
  }
  return { name, remove: () => runAdminQuery(adminUrl, `drop database if exists ${name} with (force)`) };
}

/** A fresh database copied from the run's template. */
export async function createDatabaseFromTemplate(
  adminUrl: string,
  template: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `packgate_test_${randomBytes(6).toString('hex')}`;
  await runAdminQuery(adminUrl, `create database ${name} template ${template}`);
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => runAdminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function runAdminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
