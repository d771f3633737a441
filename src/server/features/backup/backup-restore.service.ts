import { rmSync } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import type { ObjectStorage } from '../../adapters/storage/object-storage.js';
import { applyMigrations, type Database, type DatabaseKind, migrationsFolder } from '../../db/client.js';
import { codeSchemaVersion, partialMigrationsFolder, type SchemaVersion } from '../../db/schema-version.js';
import { readTar } from '../../lib/tar.js';
import * as repository from './backup.repository.js';
import {
  BATCH_BYTES,
  BackupError,
  MAX_MANIFEST_BYTES,
  NOTHING_CHANGED,
  OBJECTS_PREFIX,
  ROWS_PER_BATCH,
  readWhole,
  SEQUENCES_ENTRY,
  unzipped,
  type VerifiedBackup,
} from './backup-archive.js';

// Restoring a backup (`npm run admin -- restore FILE`) that backup-verify.service.ts has checked.
//
// A restore reads the file twice: once to check it whole (headers, checksums, manifest, versions), then, only if
// it passed and the target is empty, to load it: the schema is migrated to the backup's version, the rows go in
// one transaction with the tables' own triggers off (the rows already hold what the triggers derived), the
// sequences are set, the rest of the code's migrations run, and the objects are written.

/** Where a restore writes: an empty database (opened without migrating) and empty object storage. */
export type RestoreTarget = { db: Database; kind: DatabaseKind; storage: ObjectStorage };

/** Throws BackupError unless the database (when given) has no tables and the storage (when given) no objects. */
export async function assertRestoreTargetEmpty(target: { db?: Database; storage?: ObjectStorage }): Promise<void> {
  if (target.db) {
    const n = await repository.countTables(target.db);
    if (n > 0) {
      throw new BackupError(
        `The database is not empty (it holds ${n} table${n === 1 ? '' : 's'}): a backup restores only into an ` +
          `empty database. ${NOTHING_CHANGED}`,
      );
    }
  }
  if (target.storage) {
    for await (const object of target.storage.list()) {
      throw new BackupError(
        `The object storage is not empty (it holds ${object.key}, for one): a backup restores only into empty ` +
          `storage. ${NOTHING_CHANGED}`,
      );
    }
  }
}

export type RestoreSummary = { tables: number; rows: number; objects: number; schema: SchemaVersion };

/**
 * Loads a verified backup into an empty target: the schema at the backup's version, the rows, the sequences, the
 * code's later migrations, then the objects. The caller has checked that the target is empty.
 */
export async function restoreBackup(
  open: () => Readable,
  verified: VerifiedBackup,
  target: RestoreTarget,
): Promise<RestoreSummary> {
  const { header, manifest } = verified;
  const partial = partialMigrationsFolder(migrationsFolder, header.schema.version);
  try {
    await applyMigrations(target.db, target.kind, partial);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  const tableOf = new Map(manifest.tables.map((table) => [table.entry, table.name]));
  const contentTypeOf = new Map(
    manifest.objects.map((object) => [`${OBJECTS_PREFIX}${object.key}`, object.contentType]),
  );
  const entries = readTar(unzipped(open))[Symbol.asyncIterator]();
  let rows = 0;
  let pending = await entries.next();
  await target.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    const tables = manifest.tables.map((table) => table.name);
    for (const table of tables) await repository.setTableTriggers(db, table, false);
    for (; !pending.done && !pending.value.name.startsWith(OBJECTS_PREFIX); pending = await entries.next()) {
      const entry = pending.value;
      const table = tableOf.get(entry.name);
      if (table) rows += await loadTable(db, table, entry.body);
      else if (entry.name === SEQUENCES_ENTRY) {
        const sequences = JSON.parse(
          (await readWhole(entry.body, entry.size, MAX_MANIFEST_BYTES, 'sequences')).toString(),
        ) as Array<{
          name: string;
          lastValue: string | null;
        }>;
        for (const { name, lastValue } of sequences) {
          if (lastValue !== null) {
            await repository.setSequenceValue(db, name, lastValue);
          }
        }
      }
    }
    for (const table of tables) await repository.setTableTriggers(db, table, true);
  });
  await applyMigrations(target.db, target.kind);
  let objects = 0;
  for (; !pending.done; pending = await entries.next()) {
    const entry = pending.value;
    const contentType = contentTypeOf.get(entry.name);
    if (!contentType) continue; // the manifest, after the last object
    const body = new PassThrough();
    const put = target.storage.put(entry.name.slice(OBJECTS_PREFIX.length), body, { contentType });
    await pipeline(entry.body, body);
    await put;
    objects++;
  }
  return { tables: manifest.tables.length, rows, objects, schema: codeSchemaVersion(migrationsFolder) };
}

/** Inserts JSON lines into a table in batches; returns how many rows. */
async function loadTable(db: Database, table: string, body: AsyncIterable<Buffer>): Promise<number> {
  let rows = 0;
  let batch: string[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await repository.insertJsonRows(db, table, batch);
    rows += batch.length;
    batch = [];
    batchBytes = 0;
  };
  let rest = '';
  const decoder = new StringDecoder('utf8'); // a chunk may end inside a character
  for await (const chunk of body) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') continue;
      batch.push(line);
      batchBytes += line.length;
      if (batch.length >= ROWS_PER_BATCH || batchBytes >= BATCH_BYTES) await flush();
    }
  }
  rest += decoder.end();
  if (rest !== '') batch.push(rest);
  await flush();
  return rows;
}
