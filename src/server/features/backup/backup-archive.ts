import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import packageJson from '../../../../package.json' with { type: 'json' };
import type { DatabaseKind } from '../../db/client.js';
import type { SchemaVersion } from '../../db/schema-version.js';
import { ArchiveFormatError } from '../../lib/tar.js';

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
// The writing is backup.service.ts's, the checking backup-verify.service.ts's and the loading
// backup-restore.service.ts's; this file holds what they share: the entries' names, the limits and the types.

export const BACKUP_FORMAT = 'packgate-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const HEADER_ENTRY = 'packgate-backup.json';
export const MANIFEST_ENTRY = 'manifest.json';
export const SECRET_ENTRY = 'secret.key';
export const SEQUENCES_ENTRY = 'database/sequences.json';
export const OBJECTS_PREFIX = 'objects/';
/** Rows fetched per round trip while dumping, and inserted per statement while restoring. */
export const ROWS_PER_BATCH = 1000;
/** A restore batch also stops at this many bytes of JSON. */
export const BATCH_BYTES = 8 * 1024 * 1024;
/** The header and the manifest are read whole; anything larger is not ours. */
export const MAX_HEADER_BYTES = 64 * 1024;
export const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;
export const MAX_SECRET_BYTES = 4096;

export const PACKGATE_VERSION: string = packageJson.version;

export type BackupHeader = {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  packgateVersion: string;
  createdAt: string;
  database: DatabaseKind;
  schema: SchemaVersion;
};

export type ManifestEntry = { name: string; size: number; sha256: string };
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

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function readWhole(body: AsyncIterable<Buffer>, size: number, max: number, what: string): Promise<Buffer> {
  if (size > max) throw new BackupError(`${what} is larger than a Packgate backup's would be`);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** What a restore learned from checking the whole file. */
export type VerifiedBackup = { header: BackupHeader; manifest: BackupManifest; secretKey: string };

export const NOTHING_CHANGED = 'Nothing was changed.';

/** Gunzipped chunks of the file, its errors turned into sentences about the file. */
export async function* unzipped(open: () => Readable): AsyncGenerator<Buffer> {
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
