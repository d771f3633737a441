import { randomBytes } from 'node:crypto';
import {
  close as closeCallback,
  createReadStream,
  createWriteStream,
  type Dirent,
  fstat as fstatCallback,
  open as openCallback,
  read as readCallback,
  type Stats,
} from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { OpenFile } from './file-sender.js';
import {
  assertValidKey,
  assertValidPrefix,
  DEFAULT_CONTENT_TYPE,
  type ObjectBody,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
  StorageError,
  type StoredObject,
} from './object-storage.js';

// Objects are read in chunks of this size (Node's default is 64 KiB). A 10 MB zip to 100 clients at once went from
// 0.80 to 0.94-1.0 times nginx's MB/s: fewer reads and socket writes for the same bytes. Memory stays bounded: a
// slow client holds about two chunks. 256 KiB did worse (0.58, 130 MB more RSS), likely because glibc's malloc maps
// and unmaps each buffer from 128 KiB up; 96 KiB stays below that.
const READ_CHUNK_BYTES = 96 * 1024;
// Objects are read by descriptor through the callback API: for a 1 KB zip, open, fstat, read and close cost 25-30 µs
// of CPU this way against 48-57 µs through a FileHandle (measured on a 2-core machine, 8 at a time), and a download is
// little else.
const openDescriptor = promisify(openCallback);
const fstatDescriptor = promisify(fstatCallback);
const readDescriptor = promisify(readCallback);
const closeDescriptor = promisify(closeCallback);
// Keys never start with a dot, so these folders cannot collide with an object.
const TEMP_FOLDER = '.tmp';
const META_FOLDER = '.meta';

/**
 * Objects as files under one folder, at their key's path, so an operator can look at them. The content
 * type lives in `.meta/<key>` (JSON). A write goes to `.tmp/` first and is renamed into place.
 * Unlike S3, a key cannot also be the folder of other keys (`a` and `a/b`): that put fails with KEY_CONFLICT.
 */
export class FileStorage implements ObjectStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private objectPath(key: string): string {
    assertValidKey(key);
    const target = path.resolve(this.root, ...key.split('/'));
    // Belt and braces: validation already rules out anything that could leave the root.
    if (!target.startsWith(this.root + path.sep)) throw new StorageError('INVALID_KEY', 'Storage key escapes the root');
    return target;
  }

  private metaPath(key: string): string {
    // The same relative path as the object, so the two trees can only clash where objects already would.
    return path.join(this.root, META_FOLDER, ...key.split('/'));
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    const target = this.objectPath(key);
    const tempDir = path.join(this.root, TEMP_FOLDER);
    await mkdir(tempDir, { recursive: true });
    const temp = path.join(tempDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const tempMeta = `${temp}.json`;
    try {
      await writeDurably(temp, body);
      await writeDurably(tempMeta, Buffer.from(JSON.stringify({ contentType: options.contentType })));
      await moveIntoPlace(temp, target, key);
      await moveIntoPlace(tempMeta, this.metaPath(key), key);
    } finally {
      await rm(temp, { force: true });
      await rm(tempMeta, { force: true });
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const opened = await this.openFile(key);
    if (!opened) return undefined;
    const stream = streamFrom(opened.descriptor);
    try {
      const contentType = await this.contentTypeOf(key);
      return { size: opened.stats.size, contentType, lastModified: opened.stats.mtime, stream };
    } catch (error) {
      stream.destroy();
      throw error;
    }
  }

  /**
   * An object that fits in one read chunk (most package zips are a few KB) comes back read whole: as a stream it
   * took two reads (the bytes, then the end) and a close, each a trip through libuv's thread pool, and cost a 1 KB
   * zip's download 100-150 µs of CPU against 25-30 µs. A larger one comes back as the open file, for
   * sendOpenFile (file-sender.ts).
   */
  async openBody(key: string): Promise<ObjectBody | undefined> {
    const opened = await this.openFile(key);
    if (!opened) return undefined;
    const { descriptor, stats } = opened;
    if (stats.size > READ_CHUNK_BYTES) return { size: stats.size, content: new OpenFile(descriptor) };
    try {
      const content = await readWhole(descriptor, stats.size);
      return { size: content.length, content };
    } finally {
      closeQuietly(descriptor);
    }
  }

  /** The object's open descriptor, which the caller closes, and its stats; undefined when there is no such file. */
  private async openFile(key: string): Promise<{ descriptor: number; stats: Stats } | undefined> {
    const target = this.objectPath(key);
    // Opened before anything else so that a concurrent delete or replace cannot split size and bytes.
    const descriptor = await openDescriptor(target, 'r').catch(absentAsUndefined);
    if (descriptor === undefined) return undefined;
    let stats: Stats;
    try {
      stats = await fstatDescriptor(descriptor);
    } catch (error) {
      closeQuietly(descriptor);
      throw error;
    }
    if (stats.isFile()) return { descriptor, stats };
    closeQuietly(descriptor);
    return undefined;
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    const stats = await stat(this.objectPath(key)).catch(absentAsUndefined);
    if (!stats?.isFile()) return undefined;
    return { size: stats.size, contentType: await this.contentTypeOf(key), lastModified: stats.mtime };
  }

  async delete(key: string): Promise<void> {
    const target = this.objectPath(key);
    const stats = await stat(target).catch(absentAsUndefined);
    if (!stats?.isFile()) return;
    await rm(target, { force: true });
    await rm(this.metaPath(key), { force: true });
    await this.removeEmptyFolders(path.dirname(target), this.root);
    await this.removeEmptyFolders(path.dirname(this.metaPath(key)), path.join(this.root, META_FOLDER));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new StorageError('INVALID_KEY', 'Refusing to delete every object: give a prefix');
    let deleted = 0;
    for await (const { key } of this.objects(prefix)) {
      await this.delete(key);
      deleted++;
    }
    return deleted;
  }

  async totalSize(prefix = ''): Promise<number> {
    let total = 0;
    for await (const { size } of this.objects(prefix)) total += size;
    return total;
  }

  list(prefix = ''): AsyncIterable<{ key: string; size: number }> {
    return this.objects(prefix);
  }

  /** Objects whose key starts with the prefix, found by walking the folder the prefix points into. */
  private async *objects(prefix: string): AsyncGenerator<{ key: string; size: number }> {
    assertValidPrefix(prefix);
    const folderKey = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const start = folderKey === '' ? this.root : path.join(this.root, ...folderKey.split('/'));
    const pending: Array<{ dir: string; key: string }> = [{ dir: start, key: folderKey }];
    while (pending.length > 0) {
      const { dir, key: dirKey } = pending.pop()!;
      const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch((error) =>
        isAbsent(error) ? [] : Promise.reject(error),
      );
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const key = dirKey === '' ? entry.name : `${dirKey}/${entry.name}`;
        if (entry.isDirectory()) {
          // Only descend where keys with the prefix can be.
          if (key.startsWith(prefix) || prefix.startsWith(`${key}/`))
            pending.push({ dir: path.join(dir, entry.name), key });
        } else if (entry.isFile() && key.startsWith(prefix)) {
          const stats = await stat(path.join(dir, entry.name)).catch(absentAsUndefined);
          if (stats) yield { key, size: stats.size };
        }
      }
    }
  }

  private async contentTypeOf(key: string): Promise<string> {
    const meta = await readFile(this.metaPath(key), 'utf8').catch(absentAsUndefined);
    if (!meta) return DEFAULT_CONTENT_TYPE;
    try {
      const parsed = JSON.parse(meta) as { contentType?: unknown };
      return typeof parsed.contentType === 'string' ? parsed.contentType : DEFAULT_CONTENT_TYPE;
    } catch {
      return DEFAULT_CONTENT_TYPE;
    }
  }

  /** Removes now-empty folders from `dir` up to (not including) `stop`, so deleted keys leave no trace. */
  private async removeEmptyFolders(dir: string, stop: string): Promise<void> {
    let current = dir;
    while (current.startsWith(stop + path.sep)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      current = path.dirname(current);
    }
  }
}

/** A stream of an open file from its start; it closes the descriptor at its end or when destroyed. */
function streamFrom(descriptor: number): Readable {
  return createReadStream('', { fd: descriptor, autoClose: true, highWaterMark: READ_CHUNK_BYTES });
}

/** Reads `size` bytes from an open file's start; a file cut short meanwhile gives what it has. */
async function readWhole(descriptor: number, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await readDescriptor(descriptor, bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

/**
 * Closes a descriptor opened for reading without waiting for it: the answer does not depend on it, and waiting would
 * add a trip through the thread pool to every download. Closing a read-only descriptor fails only on a bad number.
 */
function closeQuietly(descriptor: number): void {
  closeDescriptor(descriptor).catch(() => undefined);
}

async function writeDurably(file: string, body: Buffer | Readable): Promise<void> {
  if (Buffer.isBuffer(body)) {
    await writeFile(file, body);
  } else {
    await pipeline(body, createWriteStream(file));
  }
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function moveIntoPlace(from: string, to: string, key: string): Promise<void> {
  // A concurrent delete may remove the folder between mkdir and rename: make it again once.
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(path.dirname(to), { recursive: true });
      await rename(from, to);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOENT' && attempt === 0) continue;
      if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
        throw new StorageError('KEY_CONFLICT', `Storage key ${key} clashes with another key's folder`);
      }
      throw error;
    }
  }
}

function isAbsent(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function absentAsUndefined(error: unknown): undefined {
  if (isAbsent(error)) return undefined;
  throw error;
}
