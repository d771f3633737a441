// `npm run admin -- backup FILE` and `npm run admin -- restore FILE` (see src/server/features/backup/backup-archive.ts
// for the archive and backup-restore.service.ts for what a restore does).
import {
  createReadStream,
  createWriteStream,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LOCAL_ADMIN_BACKUP_PATH } from '../src/contract/local-admin.js';
import { createStorage } from '../src/server/adapters/storage/create-storage.js';
import type { Config } from '../src/server/config.js';
import { type DatabaseTarget, openDatabase } from '../src/server/db/client.js';
import { describeSchemaVersion } from '../src/server/db/schema-version.js';
import { readLocalAdminChannel } from '../src/server/features/admin/local-admin.service.js';
import { prepareBackup } from '../src/server/features/backup/backup.service.js';
import { BackupError, type VerifiedBackup } from '../src/server/features/backup/backup-archive.js';
import { assertRestoreTargetEmpty, restoreBackup } from '../src/server/features/backup/backup-restore.service.js';
import { verifyBackup } from '../src/server/features/backup/backup-verify.service.js';
import { systemClock } from '../src/server/lib/clock.js';

const databaseTargetOf = (config: Config, migrated: boolean): DatabaseTarget =>
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl, migrated }
    : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite'), migrated };

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function describe(verified: VerifiedBackup): string {
  const { header, manifest } = verified;
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  const bytes = manifest.objects.reduce((sum, object) => sum + object.size, 0);
  return (
    `made ${header.createdAt} by Packgate ${header.packgateVersion} on ${header.database}, ` +
    `${describeSchemaVersion(header.schema)}: ${manifest.tables.length} tables (${rows} rows), ` +
    `${manifest.objects.length} stored objects (${megabytes(bytes)})`
  );
}

/** Writes a backup to FILE (through FILE.partial, renamed once it is whole and checked). */
export async function backupCommand(config: Config, file: string): Promise<number> {
  const output = path.resolve(file);
  if (!existsSync(path.dirname(output))) {
    console.error(`The folder ${path.dirname(output)} does not exist.`);
    return 2;
  }
  const partial = `${output}.partial`;
  try {
    const written = await writeThroughServer(config, partial);
    if (written === 'failed') return 1;
    if (written === 'no-server') await writeDirectly(config, partial);
    const verified = await verifyBackup(() => createReadStream(partial), partial);
    renameSync(partial, output);
    console.log(`Wrote ${output} (${megabytes(statSync(output).size)}): ${describe(verified)}.`);
    return 0;
  } catch (error) {
    rmSync(partial, { force: true });
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

/** On PGlite with a server running, only that server can read the database: it streams the archive. */
async function writeThroughServer(config: Config, partial: string): Promise<'written' | 'no-server' | 'failed'> {
  const channel = config.databaseUrl ? undefined : readLocalAdminChannel(config.dataDir);
  if (!channel) return 'no-server';
  let response: Response;
  try {
    response = await fetch(new URL(LOCAL_ADMIN_BACKUP_PATH, channel.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${channel.secret}` },
    });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return 'no-server';
    console.error(`The running Packgate server at ${channel.url} did not answer: ${(error as Error).message}`);
    return 'failed';
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
    console.error(`The running Packgate server refused (${response.status}): ${body?.message ?? response.statusText}`);
    return 'failed';
  }
  await pipeline(
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
    createWriteStream(partial),
  );
  return 'written';
}

async function writeDirectly(config: Config, partial: string): Promise<void> {
  // Not migrated: a backup takes the schema as it is, and the archive says which it is.
  const database = await openDatabase(databaseTargetOf(config, true));
  try {
    const prepared = await prepareBackup({
      db: database.db,
      kind: database.kind,
      storage: createStorage(config.storage),
      secretKey: config.secretKey,
      now: systemClock.now(),
    });
    await prepared.writeTo(createWriteStream(partial));
  } finally {
    await database.close();
  }
}

/** Restores FILE into an empty database and storage; refuses anything else before changing anything. */
export async function restoreCommand(config: Config, file: string): Promise<number> {
  const input = path.resolve(file);
  if (!existsSync(input) || !statSync(input).isFile()) {
    console.error(`No such file: ${input}`);
    return 2;
  }
  try {
    const verified = await verifyBackup(() => createReadStream(input), input);
    const keyFile = path.join(config.dataDir, 'secret.key');
    const keyFromFile = existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() === config.secretKey;
    if (verified.secretKey !== config.secretKey && !keyFromFile) {
      throw new BackupError(
        'SECRET_KEY differs from the key of the instance that made the backup, which sealed its GitHub tokens, ' +
          'webhook secrets and queued e-mails: unset SECRET_KEY (the restore writes the backup’s key to ' +
          'DATA_DIR/secret.key) or set it to that instance’s key. Nothing was changed.',
      );
    }
    const pgliteDir = path.join(config.dataDir, 'pglite');
    if (!config.databaseUrl && existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0) {
      throw new BackupError(
        `${pgliteDir} already holds a database: a backup restores only into an empty data folder (or an empty ` +
          'PostgreSQL database with DATABASE_URL). Nothing was changed.',
      );
    }
    const storage = createStorage(config.storage);
    // Storage first: on PGlite, opening the database creates it.
    await assertRestoreTargetEmpty({ storage });
    const database = await openDatabase(databaseTargetOf(config, true));
    try {
      await assertRestoreTargetEmpty({ db: database.db });
      if (verified.secretKey !== config.secretKey) writeFileSync(keyFile, `${verified.secretKey}\n`, { mode: 0o600 });
      console.log(`Restoring ${input}: ${describe(verified)}.`);
      const summary = await restoreBackup(() => createReadStream(input), verified, {
        db: database.db,
        kind: database.kind,
        storage,
      });
      console.log(
        `Restored ${summary.rows} rows in ${summary.tables} tables and ${summary.objects} stored objects; the ` +
          `database is at ${describeSchemaVersion(summary.schema)}. Start the server with npm start.`,
      );
      return 0;
    } finally {
      await database.close();
    }
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}
