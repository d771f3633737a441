import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { AppContext } from '../../context.js';
import type { users } from '../../db/schema/index.js';
import { TarWriter } from '../../lib/tar.js';
import { type Cursor, EXPORT_LISTS, PAGE_ROWS, type Row } from './account-export.repository.js';
import { csvRow } from './csv.js';

// A seller's data to take away (issue 35 item 5): one .tar.gz holding data.json (the account and every list) and a
// CSV per list. A tarball, not a zip: the tar writer the backups use (lib/tar.ts) and Node's gzip make it without a
// new dependency, and it streams, where a zip needs its central directory written after every entry.
//
// Each list (account-export.repository.ts) is read in pages of PAGE_ROWS by its id (keyset, so a page costs the same however far in) and written
// straight to files in a temporary folder: memory holds one page, whatever the seller's size. The tar entries need
// their sizes before their bytes, which the files give; the answer then streams them and the folder is removed.
// Only the seller's rows are read: every list filters by the seller's id (packages through their owner, versions
// through their package, licenses and downloads through their holder). Secrets never leave: holders' token hashes,
// webhook signing secrets, sealed buyer tokens and code-host tokens are not among the columns.

export const EXPORT_FORMAT = 'packgate-export';
export const EXPORT_FORMAT_VERSION = 1;
export { EXPORT_LISTS };

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

type Account = typeof users.$inferSelect;

function presentAccount(account: Account) {
  return {
    id: account.id,
    slug: account.slug,
    email: account.email,
    displayName: account.displayName,
    githubUsername: account.githubUsername,
    createdAt: account.createdAt.toISOString(),
    closedAt: account.closedAt?.toISOString() ?? null,
    eraseAfter: account.eraseAfter?.toISOString() ?? null,
  };
}

/** JSON of a row: dates as ISO 8601 text, everything else as it is. */
const rowJson = (row: Row) =>
  JSON.stringify(row, function (this: Record<string, unknown>, key) {
    const value = this[key];
    return value instanceof Date ? value.toISOString() : value;
  });

export type AccountExport = { filename: string; stream: Readable };

/** The archive's file name: `packgate-export-{slug}-{YYYY-MM-DD}.tar.gz`. */
export function exportFilename(slug: string, now: Date): string {
  return `packgate-export-${slug}-${now.toISOString().slice(0, 10)}.tar.gz`;
}

/**
 * Reads the seller's lists into a temporary folder, then answers the .tar.gz as a stream that removes the folder when
 * it ends or is abandoned. A failure while reading answers as an error (nothing was sent yet).
 */
export async function buildAccountExport(ctx: AppContext, account: Account): Promise<AccountExport> {
  const now = ctx.clock.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'packgate-export-'));
  const files: string[] = [];
  try {
    const json = createWriteStream(path.join(dir, 'data.json'));
    await write(
      json,
      `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_FORMAT_VERSION},"exportedAt":${JSON.stringify(now.toISOString())},"account":${JSON.stringify(presentAccount(account))}`,
    );
    for (const list of EXPORT_LISTS) {
      const csvName = `${list.name}.csv`;
      const csv = createWriteStream(path.join(dir, csvName));
      await write(csv, csvRow(list.columns));
      await write(json, `,${JSON.stringify(list.name)}:[`);
      let cursor: Cursor | undefined;
      let first = true;
      for (;;) {
        const rows = await list.page(ctx.db, account.id, cursor);
        for (const row of rows) {
          await write(csv, csvRow(list.columns.map((column) => row[column])));
          await write(json, `${first ? '' : ','}${rowJson(row)}`);
          first = false;
        }
        if (rows.length < PAGE_ROWS) break;
        cursor = rows[rows.length - 1]!.id;
      }
      await write(json, ']');
      await close(csv);
      files.push(csvName);
    }
    await write(json, '}\n');
    await close(json);
    files.unshift('data.json');
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  const gzip = createGzip();
  const out = new PassThrough();
  gzip.pipe(out);
  // A failure of the writer (or the abandon below) is handled where the writer's promise ends, not thrown again here.
  gzip.on('error', () => undefined);
  const cleanUp = () => void rm(dir, { recursive: true, force: true });
  out.once('end', cleanUp);
  // A client that goes away stops the writer (its wait for 'drain' ends with the error) and frees the folder.
  out.once('close', () => {
    if (!gzip.writableFinished) gzip.destroy(new Error('The export was abandoned'));
    cleanUp();
  });
  const filename = exportFilename(account.slug, now);
  const top = filename.slice(0, -'.tar.gz'.length);
  void (async () => {
    const tar = new TarWriter(gzip, now);
    for (const file of files) {
      const full = path.join(dir, file);
      await tar.add(`${top}/${file}`, (await stat(full)).size, createReadStream(full));
    }
    await tar.finish();
  })().catch((error: unknown) => {
    if (!out.destroyed) ctx.log.warn({ err: error }, 'a data export stopped before its end');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return { filename, stream: out };
}
