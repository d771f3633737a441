import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { migrationsFolder } from '../../db/client.js';
import { codeSchemaVersion, describeSchemaVersion, readJournal } from '../../db/schema-version.js';
import { ArchiveFormatError, readTar } from '../../lib/tar.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  type BackupHeader,
  type BackupManifest,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  MAX_HEADER_BYTES,
  MAX_MANIFEST_BYTES,
  MAX_SECRET_BYTES,
  type ManifestEntry,
  NOTHING_CHANGED,
  PACKGATE_VERSION,
  readWhole,
  SECRET_ENTRY,
  unzipped,
  type VerifiedBackup,
} from './backup-archive.js';

// Reading a backup whole before a restore changes anything (the first of a restore's two reads): the file is ours,
// not from a newer format or schema, and every entry matches the manifest's checksum.

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
