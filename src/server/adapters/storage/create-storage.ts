import path from 'node:path';
import { FileStorage } from './file-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { S3Storage, type S3StorageConfig } from './s3-storage.js';

/** Files under a folder (the embedded default, DATA_DIR/storage), or an S3-compatible bucket (`S3_*`). */
export type StorageConfig = { kind: 'files'; dir: string } | ({ kind: 's3' } & S3StorageConfig);

/** The embedded default's folder: DATA_DIR/storage. */
export function storageDirFor(dataDir: string): string {
  return path.join(dataDir, 'storage');
}

export function createStorage(config: StorageConfig): ObjectStorage {
  return config.kind === 'files' ? new FileStorage(config.dir) : new S3Storage(config);
}
