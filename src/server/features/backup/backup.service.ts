import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ObjectStorage } from '../../adapters/storage/object-storage.js';
import { type Database, type DatabaseKind, migrationsFolder } from '../../db/client.js';
import { codeSchemaVersion, databaseSchemaVersion, describeSchemaVersion } from '../../db/schema-version.js';
import { TarWriter } from '../../lib/tar.js';
import * as repository from './backup.repository.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  type BackupHeader,
  type BackupManifest,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  OBJECTS_PREFIX,
  PACKGATE_VERSION,
  ROWS_PER_BATCH,
  SECRET_ENTRY,
  SEQUENCES_ENTRY,
} from './backup-archive.js';

/** Other domains import services only (lint:dependencies): the local admin's download catches this refusal. */
export { BackupError } from './backup-archive.js';

// Writing a backup (`npm run admin -- backup FILE`, and the local admin's download); the archive's entries are
// described in backup-archive.ts.
//
// The rows come from one REPEATABLE READ READ ONLY transaction: one snapshot of the whole database, taken while the
// server keeps serving (on PGlite, one session, the server's own queries wait for the few seconds the reads take).
// Objects are copied after it: each key is written once, so every object the snapshot refers to is there, and one
// written after it is only an unreferenced extra. A logical dump of our own tables, not pg_dump: it works the same
// on PGlite and PostgreSQL, needs no client tools, and restores into an older or newer PostgreSQL.

/** The public tables, parents before children (a table's foreign keys point to tables earlier in the list). */
async function tablesInRestoreOrder(db: Database): Promise<string[]> {
  const tables = await repository.selectPublicTables(db);
  const edges = await repository.selectForeignKeyEdges(db);
  const parents = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of edges) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (ready.length === 0) {
      const left = tables.filter((t) => !placed.has(t));
      throw new Error(`The foreign keys of ${left.join(', ')} form a cycle: no restore order exists`);
    }
    for (const table of ready) {
      placed.add(table);
      ordered.push(table);
    }
  }
  return ordered;
}

export type BackupSource = {
  db: Database;
  kind: DatabaseKind;
  storage: ObjectStorage;
  secretKey: string;
  now: Date;
};

/** A database snapshot staged on disk, ready to be written out with the stored objects. */
export type PreparedBackup = {
  header: BackupHeader;
  tables: Array<{ name: string; rows: number }>;
  /** Writes the archive (gzip'd) into `out` and ends it; removes the staged files whatever happens. */
  writeTo(out: Writable): Promise<{ objects: number; bytes: number }>;
  /** Removes the staged files without writing (when the archive will not be written). */
  discard(): void;
};

/** Takes the database snapshot (every table's rows, in one read-only transaction) into a staging folder. */
export async function prepareBackup(source: BackupSource): Promise<PreparedBackup> {
  const schema = await databaseSchemaVersion(source.db, migrationsFolder);
  const code = codeSchemaVersion(migrationsFolder);
  if (schema.unknown > 0 || schema.version > code.version) {
    throw new BackupError(
      `The database is at ${describeSchemaVersion(schema)}, newer than this Packgate (${describeSchemaVersion(code)}): ` +
        'back it up with the release that migrated it.',
    );
  }
  const staging = mkdtempSync(path.join(tmpdir(), 'packgate-backup-'));
  const discard = () => rmSync(staging, { recursive: true, force: true });
  try {
    const { tables, sequences } = await source.db.transaction(
      async (tx) => {
        const db = tx as unknown as Database;
        const dumped: Array<{ name: string; rows: number; file: string }> = [];
        for (const [index, name] of (await tablesInRestoreOrder(db)).entries()) {
          const file = path.join(staging, `${String(index).padStart(3, '0')}-${name}.jsonl`);
          dumped.push({ name, file, rows: await dumpTable(db, name, file) });
        }
        const sequences = await repository.selectSequences(db);
        return { tables: dumped, sequences };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      packgateVersion: PACKGATE_VERSION,
      createdAt: source.now.toISOString(),
      database: source.kind,
      schema: { version: schema.version, migration: schema.migration },
    };
    return {
      header,
      tables: tables.map(({ name, rows }) => ({ name, rows })),
      discard,
      async writeTo(out) {
        try {
          return await writeArchive(source, header, tables, sequences, out);
        } finally {
          discard();
        }
      },
    };
  } catch (error) {
    discard();
    throw error;
  }
}

/** Writes one table's rows to `file` as JSON lines through a cursor; returns how many. */
async function dumpTable(db: Database, table: string, file: string): Promise<number> {
  const out = createWriteStream(file);
  let rows = 0;
  try {
    await repository.openTableRows(db, table);
    for (;;) {
      const batch = await repository.fetchTableRows(db, ROWS_PER_BATCH);
      if (batch.length === 0) break;
      // A json (not jsonb) column keeps its text as written, line breaks included: such a row is written again.
      const text = batch.map((r) => (r.includes('\n') ? JSON.stringify(JSON.parse(r)) : r)).join('\n');
      if (!out.write(`${text}\n`)) await once(out, 'drain');
      rows += batch.length;
    }
    await repository.closeTableRows(db);
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
  return rows;
}

async function writeArchive(
  source: BackupSource,
  header: BackupHeader,
  tables: Array<{ name: string; rows: number; file: string }>,
  sequences: Array<{ name: string; lastValue: string | null }>,
  out: Writable,
): Promise<{ objects: number; bytes: number }> {
  const gzip = createGzip();
  const piped = pipeline(gzip, out);
  // A failure on the way out (the command went away) stops the writer instead of leaving it waiting for a drain.
  piped.catch(() => gzip.destroy());
  const tar = new TarWriter(gzip, source.now);
  const manifest: BackupManifest = { entries: [], tables: [], objects: [] };
  const add = async (name: string, size: number, body: Buffer | Readable) => {
    manifest.entries.push({ name, size, sha256: await tar.add(name, size, body) });
  };
  try {
    const headerBytes = Buffer.from(`${JSON.stringify(header, null, 2)}\n`);
    await add(HEADER_ENTRY, headerBytes.length, headerBytes);
    const secret = Buffer.from(`${source.secretKey}\n`);
    await add(SECRET_ENTRY, secret.length, secret);
    for (const table of tables) {
      const entry = `database/${path.basename(table.file)}`;
      await add(entry, statSync(table.file).size, createReadStream(table.file));
      manifest.tables.push({ name: table.name, entry, rows: table.rows });
    }
    const sequenceBytes = Buffer.from(JSON.stringify(sequences));
    await add(SEQUENCES_ENTRY, sequenceBytes.length, sequenceBytes);
    let bytes = 0;
    for await (const { key } of source.storage.list()) {
      const object = await source.storage.get(key);
      if (!object) continue; // deleted since it was listed (its package was removed after the snapshot)
      await add(`${OBJECTS_PREFIX}${key}`, object.size, object.stream);
      manifest.objects.push({ key, size: object.size, contentType: object.contentType });
      bytes += object.size;
    }
    const manifestBytes = Buffer.from(JSON.stringify(manifest));
    await tar.add(MANIFEST_ENTRY, manifestBytes.length, manifestBytes);
    await tar.finish();
    await piped;
    return { objects: manifest.objects.length, bytes };
  } catch (error) {
    gzip.destroy(error as Error);
    await piped.catch(() => undefined);
    throw error;
  }
}
