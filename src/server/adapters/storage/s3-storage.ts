import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '../../config.js';
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

/** The bucket and how to reach it, as the S3_* settings give them (config-types.ts). */
export type S3StorageConfig = Omit<Extract<StorageConfig, { kind: 's3' }>, 'kind'>;

type AwsSdk = typeof import('@aws-sdk/client-s3') & Pick<typeof import('@aws-sdk/lib-storage'), 'Upload'>;

let sdkLoading: Promise<AwsSdk> | undefined;

/**
 * The AWS SDK, loaded by the first S3 call of the process (issue 34 item 3): about 4.4 MB of V8's heap and 20 MB
 * resident that a server storing its files on disk never needs.
 */
function awsSdk(): Promise<AwsSdk> {
  sdkLoading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(
    ([client, storage]) => ({ ...client, Upload: storage.Upload }),
  );
  return sdkLoading;
}

/** Objects in one S3 bucket. Keys are validated as for the file store, so both accept the same keys. */
export class S3Storage implements ObjectStorage {
  private readonly bucket: string;
  private connection: Promise<{ sdk: AwsSdk; client: S3Client }> | undefined;

  constructor(
    private readonly config: S3StorageConfig,
    private readonly givenClient?: S3Client,
  ) {
    this.bucket = config.bucket;
  }

  /** The SDK and this store's client, made on the first call. */
  private connect(): Promise<{ sdk: AwsSdk; client: S3Client }> {
    const { config } = this;
    this.connection ??= awsSdk().then((sdk) => ({
      sdk,
      client:
        this.givenClient ??
        new sdk.S3Client({
          region: config.region,
          endpoint: config.endpoint,
          forcePathStyle: config.forcePathStyle ?? false,
          credentials:
            config.accessKeyId && config.secretAccessKey
              ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
              : undefined,
          // Checksums only where S3 demands them: several S3-compatible services reject the SDK's newer
          // default (trailing CRC32 checksums on every upload).
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
    }));
    return this.connection;
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    assertValidKey(key);
    const { sdk, client } = await this.connect();
    // A stream of unknown length goes up in parts as it arrives (one PutObject when it fits in the first part),
    // so a large dist is never held in memory whole.
    const upload = new sdk.Upload({
      client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: options.contentType },
    });
    await upload.done();
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertValidKey(key);
    const { sdk, client } = await this.connect();
    try {
      const response = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(response.Body instanceof Readable)) throw new Error('S3 answered without a readable body');
      return { stream: response.Body, ...objectInfoOf(response) };
    } catch (error) {
      if (isNotFound(sdk, error)) return undefined;
      throw error;
    }
  }

  /** GetObject answers the type with the bytes anyway: nothing to leave out, and the bytes stay a stream. */
  async openBody(key: string): Promise<ObjectBody | undefined> {
    const object = await this.get(key);
    return object && { size: object.size, content: object.stream };
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertValidKey(key);
    const { sdk, client } = await this.connect();
    try {
      const response = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return objectInfoOf(response);
    } catch (error) {
      if (isNotFound(sdk, error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new StorageError('INVALID_KEY', 'Refusing to delete every object: give a prefix');
    let deleted = 0;
    for await (const page of this.pages(prefix)) {
      const keys = page.map((object) => object.key);
      if (keys.length === 0) continue;
      const { sdk, client } = await this.connect();
      const response = await client.send(
        new sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failures = response.Errors ?? [];
      if (failures.length > 0) {
        const first = failures[0]!;
        throw new Error(`S3 could not delete ${failures.length} object(s), e.g. ${first.Key}: ${first.Code}`);
      }
      deleted += keys.length;
    }
    return deleted;
  }

  async totalSize(prefix = ''): Promise<number> {
    let total = 0;
    for await (const page of this.pages(prefix)) for (const object of page) total += object.size;
    return total;
  }

  async *list(prefix = ''): AsyncGenerator<{ key: string; size: number }> {
    for await (const page of this.pages(prefix)) yield* page;
  }

  /** ListObjectsV2 page by page (up to 1000 keys each, which is also DeleteObjects' limit). */
  private async *pages(prefix: string): AsyncGenerator<Array<{ key: string; size: number }>> {
    assertValidPrefix(prefix);
    const { sdk, client } = await this.connect();
    let continuationToken: string | undefined;
    do {
      const response = await client.send(
        new sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix === '' ? undefined : prefix,
          ContinuationToken: continuationToken,
        }),
      );
      yield (response.Contents ?? []).flatMap((object) =>
        object.Key ? [{ key: object.Key, size: object.Size ?? 0 }] : [],
      );
      continuationToken = response.IsTruncated ? response.NextContinuationToken : undefined;
    } while (continuationToken);
  }
}

/** What GetObject and HeadObject both answer about an object, with defaults for what S3 left out. */
function objectInfoOf(response: { ContentLength?: number; ContentType?: string; LastModified?: Date }): ObjectInfo {
  return {
    size: response.ContentLength ?? 0,
    contentType: response.ContentType ?? DEFAULT_CONTENT_TYPE,
    lastModified: response.LastModified ?? new Date(0),
  };
}

function isNotFound(sdk: AwsSdk, error: unknown): boolean {
  if (error instanceof sdk.S3ServiceException) {
    // A missing bucket is a configuration error, not a missing object.
    if (error.name === 'NoSuchBucket') return false;
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return false;
}
