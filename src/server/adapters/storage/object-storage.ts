import type { Readable } from 'node:stream';
import { closeOpenFile, OpenFile } from './file-sender.js';

// Object storage for package zips and logos: files under DATA_DIR/storage by default, any S3-compatible
// service in production. Keys look like S3 keys (`dists/42/1.0.0.0-1a2b3c.zip`) and are validated the same
// way for both, so that what works on a laptop works against S3.

export type ObjectInfo = { size: number; contentType: string; lastModified: Date };

export type StoredObject = ObjectInfo & { stream: Readable };

/**
 * An object's bytes and their length, for a sender that knows what it is sending (a dist is always a zip): a small
 * object may come already read whole, which costs less than a stream's reads and close, and a large stored file as
 * the open file itself, which file-sender.ts sends faster than a stream (see FileStorage.openBody); S3's objects
 * come as streams.
 */
export type ObjectBody = { size: number; content: Buffer | Readable | OpenFile };

/** Lets go of a body that will not be sent: a stream or an open file holds a file or a connection open. */
export function discardBody(body: ObjectBody): void {
  if (body.content instanceof OpenFile) closeOpenFile(body.content);
  else if (!Buffer.isBuffer(body.content)) body.content.destroy();
}

export type PutOptions = { contentType: string };

/** The content type of an object stored without one. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface ObjectStorage {
  /** Writes the whole object; readers see the old object or the new one, never a part. */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  /** The bytes to send, without the rest of what `get` tells: on files, one read fewer (the content type's). */
  openBody(key: string): Promise<ObjectBody | undefined>;
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with the (non-empty) prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Bytes held by objects whose key starts with the prefix (all objects without one). */
  totalSize(prefix?: string): Promise<number>;
  /** Every object whose key starts with the prefix (all objects without one), in no set order: what a backup copies. */
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
}

export type StorageErrorCode = 'INVALID_KEY' | 'KEY_CONFLICT';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

const MAX_KEY_BYTES = 1024;
// A segment never starts with a dot: no `.` or `..`, and the file store's own `.tmp` and `.meta` stay apart.
const SEGMENT = /^[A-Za-z0-9_@+=,~-][A-Za-z0-9._@+=,~-]*$/;

/** Throws StorageError unless the key is slash-separated safe segments (no `..`, no leading `/`, no `\`). */
export function assertValidKey(key: string): void {
  if (
    key === '' ||
    Buffer.byteLength(key) > MAX_KEY_BYTES ||
    !key.split('/').every((segment) => SEGMENT.test(segment))
  ) {
    throw new StorageError('INVALID_KEY', `Invalid storage key: ${JSON.stringify(key.slice(0, 200))}`);
  }
}

/** A prefix is a key, a key ending in `/`, or a key whose last segment is cut short; `''` means everything. */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  try {
    assertValidKey(trimmed);
  } catch {
    throw new StorageError('INVALID_KEY', `Invalid storage prefix: ${JSON.stringify(prefix.slice(0, 200))}`);
  }
}
