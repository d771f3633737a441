import type { StorageConfig } from '../../config.js';
import { FileStorage } from './file-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

export function createStorage(config: StorageConfig): ObjectStorage {
  return config.kind === 'files' ? new FileStorage(config.dir) : new S3Storage(config);
}
