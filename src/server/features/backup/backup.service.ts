import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import packageJson from '../../../../package.json' with { type: 'json' };
import type { ObjectStorage } from '../../adapters/storage/object-storage.js';
import { applyMigrations, type Database, type DatabaseKind, migrationsFolder } from '../../db/client.js';
import {
  codeSchemaVersion,
  databaseSchemaVersion,
  describeSchemaVersion,
  partialMigrationsFolder,
  readJournal,
  type SchemaVersion,
} from '../../db/schema-version.js';
import { ArchiveFormatError, readTar, TarWriter } from '../../lib/tar.js';

// Backups (`npm run admin -- backup FILE` / `restore FILE`). A backup is a gzip'd tar:
//
//   packgate-backup.json         first: what this is (format, format version, Packgate version, schema version,
//                                database kind, when it was made), read before anything else so that a file that
//                                is not ours or is too new is refused at once
//   secret.key                   the SECRET_KEY that sealed GitHub tokens, webhook secrets and queued e-mails
//   database/NNN-<table>.jsonl   every row of every public table, one JSON object a line (row_to_json), in an
//                                order where a row's foreign keys point to tables restored before it
//   database/sequences.json      each sequence's last value
//   objects/<key>                every stored object (package zips, logos), its bytes as stored
//   manifest.json                last: every entry's size and SHA-256, the tables' row counts, the objects'
//                                content types. A file cut short has none, so it is refused before anything changes.
//
// The rows come from one REPEATABLE READ READ ONLY transaction: one snapshot of the whole database, taken while the
// server keeps serving (on PGlite, one session, the server's own queries wait for the few seconds the reads take).
// Objects are copied after it: each key is written once, so every object the snapshot refers to is there, and one
// written after it is only an unreferenced extra. A logical dump of our own tables, not pg_dump: it works the same
// on PGlite and PostgreSQL, needs no client tools, and restores into an older or newer PostgreSQL.
//
// A restore reads the file twice: once to check it whole (headers, checksums, manifest, versions), then, only if
// it passed and the target is empty, to load it: the schema is migrated to the backup's version, the rows go in
// one transaction with the tables' own triggers off (the rows already hold what the triggers derived), the
// sequences are set, the rest of the code's migrations run, and the objects are written.

export const BACKUP_FORMAT = 'packgate-backup';
export const BACKUP_FORMAT_VERSION = 1;
const HEADER_ENTRY = 'packgate-backup.json';
const MANIFEST_ENTRY = 'manifest.json';
const SECRET_ENTRY = 'secret.key';
const SEQUENCES_ENTRY = 'database/sequences.json';
const OBJECTS_PREFIX = 'objects/';
/** Rows fetched per round trip while dumping, and inserted per statement while restoring. */
const ROWS_PER_BATCH = 1000;
/** A restore batch also stops at this many bytes of JSON. */
const BATCH_BYTES = 8 * 1024 * 1024;
/** The header and the manifest are read whole; anything larger is not ours. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;
const MAX_SECRET_BYTES = 4096;

export const PACKGATE_VERSION: string = packageJson.version;

export type BackupHeader = {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  packgateVersion: string;
  createdAt: string;
  database: DatabaseKind;
  schema: SchemaVersion;
};

type ManifestEntry = { name: string; size: number; sha256: string };
export type BackupManifest = {
  entries: ManifestEntry[];
  tables: Array<{ name: string; entry: string; rows: number }>;
  objects: Array<{ key: string; size: number; contentType: string }>;
};

/** A refusal with the sentence the command prints. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (table: string) => sql.raw(`public.${quoteIdent(table)}`);

/** The public tables, parents before children (a table's foreign keys point to tables earlier in the list). */
async function tablesInRestoreOrder(db: Database): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`),
  ).map((row) => row.name);
  const edges = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      select child.relname as child, parent.relname as parent from pg_constraint co
      join pg_class child on child.oid = co.conrelid join pg_class parent on parent.oid = co.confrelid
      join pg_namespace n on n.oid = child.relnamespace
      where co.contype = 'f' and n.nspname = 'public'`),
  );
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
        const sequences = rowsOf<{ name: string; lastValue: string | null }>(
          await db.execute(sql`
            select sequencename as name, last_value::text as "lastValue" from pg_sequences
            where schemaname = 'public' order by sequencename`),
        );
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
    await db.execute(
      sql`declare packgate_backup_rows no scroll cursor for select row_to_json(t)::text as r from ${qualified(table)} t`,
    );
    for (;;) {
      const batch = rowsOf<{ r: string }>(
        await db.execute(sql.raw(`fetch ${ROWS_PER_BATCH} from packgate_backup_rows`)),
      );
      if (batch.length === 0) break;
      // A json (not jsonb) column keeps its text as written, line breaks included: such a row is written again.
      const text = batch.map(({ r }) => (r.includes('\n') ? JSON.stringify(JSON.parse(r)) : r)).join('\n');
      if (!out.write(`${text}\n`)) await once(out, 'drain');
      rows += batch.length;
    }
    await db.execute(sql.raw('close packgate_backup_rows'));
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

async function readWhole(body: AsyncIterable<Buffer>, size: number, max: number, what: string): Promise<Buffer> {
  if (size > max) throw new BackupError(`${what} is larger than a Packgate backup's would be`);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** What a restore learned from checking the whole file. */
export type VerifiedBackup = { header: BackupHeader; manifest: BackupManifest; secretKey: string };

const NOTHING_CHANGED = 'Nothing was changed.';

/** Gunzipped chunks of the file, its errors turned into sentences about the file. */
async function* unzipped(open: () => Readable): AsyncGenerator<Buffer> {
  const input = open();
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test((error as Error).message)) {
      throw new ArchiveFormatError('The file ends before its end (it was cut short)');
    }
    if (code === 'Z_DATA_ERROR')
      throw new ArchiveFormatError('It is not a gzip file, or its compressed data is damaged');
    throw error;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

/**
 * Reads the whole file and checks it: ours (the header entry first), not from a newer format or schema, every
 * entry's checksum, and a manifest at the end. Throws BackupError with the sentence to print.
 */
export async function verifyBackup(open: () => Readable, fileLabel: string): Promise<VerifiedBackup> {
  const refuse = (reason: string) => new BackupError(`${fileLabel} ${reason} ${NOTHING_CHANGED}`);
  let header: BackupHeader | undefined;
  let manifest: BackupManifest | undefined;
  let secretKey: string | undefined;
  const seen: ManifestEntry[] = [];
  try {
    for await (const entry of readTar(unzipped(open))) {
      if (manifest) throw refuse('holds entries after its manifest: it is not a Packgate backup.');
      if (!header) {
        if (entry.name !== HEADER_ENTRY) throw refuse('is not a Packgate backup (it does not start with one).');
        const bytes = await readWhole(entry.body, entry.size, MAX_HEADER_BYTES, 'Its header');
        header = parseHeader(bytes, refuse);
        checkVersions(header, refuse);
        seen.push({ name: entry.name, size: entry.size, sha256: sha256(bytes) });
        continue;
      }
      if (entry.name === MANIFEST_ENTRY) {
        manifest = JSON.parse(
          (await readWhole(entry.body, entry.size, MAX_MANIFEST_BYTES, 'Its manifest')).toString('utf8'),
        ) as BackupManifest;
        continue;
      }
      if (entry.name === SECRET_ENTRY) {
        const bytes = await readWhole(entry.body, entry.size, MAX_SECRET_BYTES, 'Its secret key');
        secretKey = bytes.toString('utf8').trim();
        seen.push({ name: entry.name, size: entry.size, sha256: sha256(bytes) });
        continue;
      }
      const hash = createHash('sha256');
      for await (const chunk of entry.body) hash.update(chunk);
      seen.push({ name: entry.name, size: entry.size, sha256: hash.digest('hex') });
    }
  } catch (error) {
    if (error instanceof ArchiveFormatError) {
      throw refuse(
        header
          ? `is incomplete or damaged: ${lowerFirst(error.message)}. Was it cut short while it was written or copied?`
          : `is not a Packgate backup: ${lowerFirst(error.message)}.`,
      );
    }
    if (error instanceof SyntaxError) throw refuse(`is damaged: ${error.message}.`);
    throw error;
  }
  if (!header) throw refuse('is not a Packgate backup (it is empty).');
  if (!manifest || !Array.isArray(manifest.entries)) {
    throw refuse('is incomplete: it ends before its manifest. Was it cut short while it was written or copied?');
  }
  if (!secretKey) throw refuse('holds no secret key: it is not a whole Packgate backup.');
  const expected = new Map(manifest.entries.map((entry) => [entry.name, entry]));
  if (expected.size !== seen.length) throw refuse('does not hold the entries its manifest lists: it is damaged.');
  for (const entry of seen) {
    const listed = expected.get(entry.name);
    if (!listed || listed.size !== entry.size || listed.sha256 !== entry.sha256) {
      throw refuse(`is damaged: ${entry.name} does not match its checksum.`);
    }
  }
  return { header, manifest, secretKey };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function parseHeader(bytes: Buffer, refuse: (reason: string) => BackupError): BackupHeader {
  let parsed: Partial<BackupHeader>;
  try {
    parsed = JSON.parse(bytes.toString('utf8')) as Partial<BackupHeader>;
  } catch {
    throw refuse('is not a Packgate backup (its header is not JSON).');
  }
  if (
    parsed?.format !== BACKUP_FORMAT ||
    typeof parsed.formatVersion !== 'number' ||
    typeof parsed.schema?.version !== 'number' ||
    typeof parsed.schema.migration !== 'string'
  ) {
    throw refuse('is not a Packgate backup (its header is not ours).');
  }
  return parsed as BackupHeader;
}

function checkVersions(header: BackupHeader, refuse: (reason: string) => BackupError): void {
  const code = codeSchemaVersion(migrationsFolder);
  const made = `was made by Packgate ${header.packgateVersion}`;
  if (header.formatVersion > BACKUP_FORMAT_VERSION) {
    throw refuse(
      `${made} in backup format ${header.formatVersion}; this Packgate (${PACKGATE_VERSION}) reads format ` +
        `${BACKUP_FORMAT_VERSION}. Restore it with that release or a newer one.`,
    );
  }
  const known = readJournal(migrationsFolder)[header.schema.version - 1];
  if (header.schema.version > code.version || (header.schema.version > 0 && known?.tag !== header.schema.migration)) {
    throw refuse(
      `${made} at ${describeSchemaVersion(header.schema)}, newer than this Packgate (${PACKGATE_VERSION}), which ` +
        `knows up to ${describeSchemaVersion(code)}. Restore it with that release or a newer one.`,
    );
  }
}

/** Where a restore writes: an empty database (opened without migrating) and empty object storage. */
export type RestoreTarget = { db: Database; kind: DatabaseKind; storage: ObjectStorage };

/** Throws BackupError unless the database (when given) has no tables and the storage (when given) no objects. */
export async function assertRestoreTargetEmpty(target: { db?: Database; storage?: ObjectStorage }): Promise<void> {
  if (target.db) {
    const [tables] = rowsOf<{ n: number }>(
      await target.db.execute(sql`
        select count(*)::int as n from pg_tables where schemaname = 'public'
          or (schemaname = 'drizzle' and tablename = '__drizzle_migrations')`),
    );
    const n = Number(tables?.n ?? 0);
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
    for (const table of tables) await db.execute(sql`alter table ${qualified(table)} disable trigger user`);
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
            await db.execute(sql`select setval(${`public.${quoteIdent(name)}`}::regclass, ${lastValue}::bigint, true)`);
          }
        }
      }
    }
    for (const table of tables) await db.execute(sql`alter table ${qualified(table)} enable trigger user`);
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
    await db.execute(
      sql`insert into ${qualified(table)} select * from json_populate_recordset(null::${qualified(table)}, ${`[${batch.join(',')}]`}::json)`,
    );
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
